import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Idempotency keys of creates (migrations 0045, 0095); owned by modules/idempotency. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    contentType: text('content_type'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Migration 0095: the running request's lease (renewed while it runs); past it with no response, the request died. */
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    /** When a transaction of the request first committed (stamped inside that transaction). */
    committedAt: timestamp('committed_at', { withTimezone: true, mode: 'date' }),
    /** The committed transactions' results by order ({"0": …}), replayed by a take-over. */
    journal: jsonb('journal'),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);
