import { bigint, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The shipper's decision on a stop's detention (migration 0142; issue 50), owned by modules/detention. */
export const detentionDecisions = pgTable(
  'detention_decisions',
  {
    loadId: uuid('load_id').notNull(),
    stop: text('stop').notNull().$type<'pickup' | 'drop'>(),
    decision: text('decision').notNull().$type<'accepted' | 'disputed'>(),
    amountHalalas: bigint('amount_halalas', { mode: 'number' }).notNull(),
    billableMinutes: integer('billable_minutes').notNull(),
    reason: text('reason'),
    decidedBy: uuid('decided_by').notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.loadId, t.stop] })],
);
