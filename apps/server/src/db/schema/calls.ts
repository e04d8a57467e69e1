import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { loads } from './loads.ts';
import { chatConversations } from './chat.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Calls about a load (migration 0127; issue 21 "Calls"); owned by modules/calls. One row per
 * call between the two accounts of a chat conversation: ringing → active → ended, or missed /
 * declined. At most one ringing-or-active call per conversation (partial unique index).
 */
export const calls = pgTable(
  'calls',
  {
    id: uuid('id').primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id),
    loadId: uuid('load_id')
      .notNull()
      .references(() => loads.id),
    callerId: uuid('caller_id')
      .notNull()
      .references(() => users.id),
    callerUserId: uuid('caller_user_id').notNull(),
    calleeId: uuid('callee_id')
      .notNull()
      .references(() => users.id),
    type: text('type').notNull(),
    status: text('status').notNull().default('ringing'),
    callerDeviceId: text('caller_device_id'),
    answeredBy: uuid('answered_by'),
    answeredDeviceId: text('answered_device_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    answeredAt: ts('answered_at'),
    endedAt: ts('ended_at'),
    endReason: text('end_reason'),
  },
  (t) => [
    uniqueIndex('calls_live_conversation_idx')
      .on(t.conversationId)
      .where(sql`status in ('ringing', 'active')`),
    index('calls_ringing_idx')
      .on(t.createdAt)
      .where(sql`status = 'ringing'`),
    index('calls_conversation_idx').on(t.conversationId, t.createdAt.desc()),
  ],
);

/** The line an account holds while in a call (at most one call per account at a time). */
export const callLines = pgTable(
  'call_lines',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => users.id),
    callId: uuid('call_id')
      .notNull()
      .references(() => calls.id),
  },
  (t) => [index('call_lines_call_idx').on(t.callId)],
);
