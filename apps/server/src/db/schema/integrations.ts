import { bigint, bigserial, boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** API keys (migration 0060); owned by modules/apikeys. */
export const apiKeys = pgTable('api_keys', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  scopes: text('scopes').array().notNull(),
  ratePerMinute: integer('rate_per_minute').notNull().default(120),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastUsedAt: ts('last_used_at'),
  useCount: bigint('use_count', { mode: 'number' }).notNull().default(0),
  revokedAt: ts('revoked_at'),
  /** Who made it (migration 0095): the acting person's own user id; null before 0095. */
  createdBy: uuid('created_by').references(() => users.id),
});

/** Webhook endpoints, deliveries and attempts (migration 0060); owned by modules/webhooks. */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id),
  url: text('url').notNull(),
  description: text('description'),
  events: text('events').array().notNull(),
  secret: text('secret').notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
  /** Who made it (migration 0095): the acting person's own user id; null before 0095. */
  createdBy: uuid('created_by').references(() => users.id),
});

export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: uuid('id').primaryKey(),
  seq: bigserial('seq', { mode: 'number' }).notNull(),
  endpointId: uuid('endpoint_id')
    .notNull()
    .references(() => webhookEndpoints.id),
  eventId: uuid('event_id').notNull(),
  eventType: text('event_type').notNull(),
  payload: jsonb('payload').notNull(),
  status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  claimedUntil: ts('claimed_until'),
  lastStatusCode: integer('last_status_code'),
  lastResponse: text('last_response'),
  lastError: text('last_error'),
  createdAt: ts('created_at').notNull().defaultNow(),
  deliveredAt: ts('delivered_at'),
});

export const webhookAttempts = pgTable('webhook_attempts', {
  id: uuid('id').primaryKey(),
  deliveryId: uuid('delivery_id')
    .notNull()
    .references(() => webhookDeliveries.id),
  at: ts('at').notNull().defaultNow(),
  statusCode: integer('status_code'),
  durationMs: integer('duration_ms').notNull(),
  response: text('response'),
  error: text('error'),
});
