import { pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * When an account was last seen on the real-time channel (migration 0128; issue 21 presence);
 * owned by modules/realtime. Written when its last connection closes and at most once a minute
 * while connected; read by primary key.
 */
export const accountPresence = pgTable('account_presence', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
});
