import { bigserial, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Events outbox (migration 0050); owned by modules/events. */
export const outboxEvents = pgTable('outbox_events', {
  id: uuid('id').primaryKey(),
  seq: bigserial('seq', { mode: 'number' }).notNull(),
  type: text('type').notNull(),
  aggregateType: text('aggregate_type').notNull(),
  aggregateId: uuid('aggregate_id').notNull(),
  actorId: uuid('actor_id'),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
});

/** One handler's delivery of one event (migration 0051). */
export const outboxDeliveries = pgTable(
  'outbox_deliveries',
  {
    handler: text('handler').notNull(),
    eventId: uuid('event_id').notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.handler, t.eventId] })],
);

/** The audit timeline of a load (migration 0051); owned by modules/events (its first handler). */
export const loadTimeline = pgTable('load_timeline', {
  eventId: uuid('event_id').primaryKey(),
  loadId: uuid('load_id').notNull(),
  type: text('type').notNull(),
  actorId: uuid('actor_id'),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
});
