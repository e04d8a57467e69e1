import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Favourites (migration 0091); owned by modules/relations. */
export const userFavourites = pgTable(
  'user_favourites',
  {
    userId: uuid('user_id').notNull(),
    targetId: uuid('target_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.targetId] })],
);

/** Blocked users (migration 0091); owned by modules/relations. */
export const userBlocks = pgTable(
  'user_blocks',
  {
    blockerId: uuid('blocker_id').notNull(),
    blockedId: uuid('blocked_id').notNull(),
    reason: text('reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] })],
);

/** Who may reach a user by chat, audio, video (migration 0091); owned by modules/relations. */
export const contactSettings = pgTable('contact_settings', {
  userId: uuid('user_id').primaryKey(),
  chat: text('chat').notNull().default('counterparts'),
  audio: text('audio').notNull().default('counterparts'),
  video: text('video').notNull().default('counterparts'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
