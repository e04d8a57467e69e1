import type { LedgerAccount, LedgerJournalInput } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { LedgerDeps } from './deps.ts';
import * as repo from './ledger.repository.ts';
import { getBalances } from './use-cases/get-balances.ts';
import { postJournal } from './use-cases/post-journal.ts';

/**
 * The ledger (issue 50; docs/billing.md "Payment protection and the ledger"): other modules post
 * through `post(tx, journal)` inside their own transaction (a port the container wires), so the
 * movement commits with the fact that caused it or not at all.
 */
export function createLedgerService(deps: LedgerDeps) {
  return {
    post: (tx: DbOrTx, journal: LedgerJournalInput) => postJournal(tx, journal),
    balances: (ownerId: string | null) => getBalances(deps, ownerId),
    balanceOf: (db: DbOrTx, ownerId: string | null, account: LedgerAccount) => repo.balanceOf(db, ownerId, account),
    trialBalance: () => repo.trialBalance(deps.db),
  };
}
export type LedgerService = ReturnType<typeof createLedgerService>;
/** The port a module posts through (inside its transaction). */
export type LedgerPost = LedgerService['post'];
