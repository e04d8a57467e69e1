import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A carrier's payout account (migration 0143; issue 50), owned by modules/payouts. */
export const payoutAccounts = pgTable('payout_accounts', {
  userId: uuid('user_id').primaryKey(),
  /** Electronic form: SA + 22 characters, check digits valid. */
  iban: text('iban').notNull(),
  holderName: text('holder_name').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
