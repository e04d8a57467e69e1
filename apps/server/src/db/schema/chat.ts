import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { loads } from './loads.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Chat about a load (migration 0123; issue 21); owned by modules/chat. One conversation per
 * (load, shipper side, carrier side); `lastSeq` numbers its messages and each side's `…ReadSeq`
 * is how far it has read (unread = lastSeq − readSeq).
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: uuid('id').primaryKey(),
    loadId: uuid('load_id')
      .notNull()
      .references(() => loads.id),
    shipperId: uuid('shipper_id')
      .notNull()
      .references(() => users.id),
    carrierId: uuid('carrier_id')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastAt: ts('last_at').notNull().defaultNow(),
    lastMessageId: uuid('last_message_id'),
    lastSeq: integer('last_seq').notNull().default(0),
    shipperReadSeq: integer('shipper_read_seq').notNull().default(0),
    carrierReadSeq: integer('carrier_read_seq').notNull().default(0),
    shipperReadAt: ts('shipper_read_at'),
    carrierReadAt: ts('carrier_read_at'),
  },
  (t) => [unique('chat_conversations_parties').on(t.loadId, t.shipperId, t.carrierId)],
);

/** A message: `seq` its position in the conversation, `senderId` the side's account, `authorId` who typed it. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id),
    seq: integer('seq').notNull(),
    senderId: uuid('sender_id').notNull(),
    authorId: uuid('author_id').notNull(),
    body: text('body').notNull(),
    attachmentId: uuid('attachment_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    // 0136 (issue 48): a call's line — the call, audio|video, missed|declined|ended, seconds answered
    callId: uuid('call_id'),
    callType: text('call_type'),
    callOutcome: text('call_outcome'),
    callDurationSeconds: integer('call_duration_seconds'),
  },
  // 0125: a file is on one message at most
  (t) => [
    unique('chat_messages_seq').on(t.conversationId, t.seq),
    uniqueIndex('chat_messages_attachment_idx')
      .on(t.attachmentId)
      .where(sql`attachment_id is not null`),
    uniqueIndex('chat_messages_call_idx')
      .on(t.callId)
      .where(sql`call_id is not null`),
  ],
);
