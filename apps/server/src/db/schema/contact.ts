import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Contact-form messages (migration 0098); owned by modules/contact. The e-mails go out from the
 * outbox handler, which stamps `supportSentAt` / `ackSentAt` and keeps the last send error.
 */
export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey(),
  /** What the visitor quotes, e.g. "CT-7KQ2MX". */
  reference: text('reference').notNull().unique(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  phone: text('phone'),
  topic: text('topic').notNull(),
  message: text('message').notNull(),
  /** The request language ('en' | 'ar'): the acknowledgement's language. */
  lang: text('lang').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  supportSentAt: timestamp('support_sent_at', { withTimezone: true, mode: 'date' }),
  ackSentAt: timestamp('ack_sent_at', { withTimezone: true, mode: 'date' }),
  lastError: text('last_error'),
});
