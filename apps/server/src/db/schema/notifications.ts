import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Drizzle mirror of migrations/0114_notifications.sql (issue 21 "Notifications"; modules/notifications).
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One stored notification of one user (unique per event and user). */
export const notifications = pgTable('notifications', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  accountId: uuid('account_id').notNull(),
  type: text('type').notNull(),
  category: text('category').notNull(),
  eventId: uuid('event_id').notNull(),
  loadId: uuid('load_id'),
  referenceId: text('reference_id'),
  params: jsonb('params').$type<Record<string, string | number>>().notNull(),
  link: text('link').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  readAt: ts('read_at'),
});

/** Each user's unread count, moved with the rows it counts. */
export const notificationCounters = pgTable('notification_counters', {
  userId: uuid('user_id').primaryKey(),
  unread: integer('unread').notNull().default(0),
  /** Mark all read (issue 48): every notification of the user with id <= readUpto is read; when. */
  readUpto: uuid('read_upto'),
  readUptoAt: timestamp('read_upto_at', { withTimezone: true }),
});

/** A user's notification preferences (no row: the defaults). */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id').primaryKey(),
  channels: jsonb('channels').$type<Record<string, Record<string, boolean>>>().notNull(),
  quietFrom: text('quiet_from'),
  quietTo: text('quiet_to'),
  digestMinutes: integer('digest_minutes').notNull().default(15),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** E-mails waiting for the flush job (digest, quiet hours). */
export const notificationEmails = pgTable('notification_emails', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  category: text('category').notNull(),
  type: text('type').notNull(),
  eventId: uuid('event_id').notNull(),
  referenceId: text('reference_id'),
  params: jsonb('params').$type<Record<string, string | number>>().notNull(),
  link: text('link').notNull(),
  dueAt: ts('due_at').notNull(),
  sentAt: ts('sent_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

// migrations/0118_push_subscriptions.sql (web push)

/** A browser's push subscription (endpoint unique; keys of RFC 8291) for a user and the account topic it follows. */
export const pushSubscriptions = pgTable('push_subscriptions', {
  id: uuid('id').primaryKey(),
  endpoint: text('endpoint').notNull().unique(),
  p256dh: text('p256dh').notNull(),
  auth: text('auth').notNull(),
  userId: uuid('user_id').notNull(),
  accountId: uuid('account_id').notNull(),
  userAgent: text('user_agent'),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSuccessAt: ts('last_success_at'),
});

/** Pushes waiting for the push sender (quiet hours, retries). */
export const notificationPushes = pgTable('notification_pushes', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  accountId: uuid('account_id').notNull(),
  category: text('category').notNull(),
  type: text('type').notNull(),
  eventId: uuid('event_id').notNull(),
  loadId: uuid('load_id'),
  referenceId: text('reference_id'),
  params: jsonb('params').$type<Record<string, string | number>>().notNull(),
  link: text('link').notNull(),
  dueAt: ts('due_at').notNull(),
  claimedUntil: ts('claimed_until'),
  attempts: integer('attempts').notNull().default(0),
  sentAt: ts('sent_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
