import type { LedgerAccount } from '@masar/shared';
import { bigint, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The ledger (migration 0140; issue 50), owned by modules/ledger. Append-only: triggers refuse
 * UPDATE, DELETE and TRUNCATE; a deferred constraint trigger refuses a journal whose postings do
 * not sum to zero at commit. Rows are written only through the SQL function `ledger_post`.
 */
export const ledgerJournals = pgTable('ledger_journals', {
  id: uuid('id').primaryKey(),
  /** What caused the movement, e.g. "escrow.funded"; unique with factId. */
  factKind: text('fact_kind').notNull(),
  factId: text('fact_id').notNull(),
  memo: text('memo').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const ledgerPostings = pgTable('ledger_postings', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  journalId: uuid('journal_id').notNull(),
  /** An account's user id; null for the platform's accounts. */
  ownerId: uuid('owner_id'),
  account: text('account').notNull().$type<LedgerAccount>(),
  currency: text('currency').notNull(),
  /** Integer halalas, non-zero: what the posting adds to the account's balance. */
  amountHalalas: bigint('amount_halalas', { mode: 'number' }).notNull(),
});
