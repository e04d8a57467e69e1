import { ledgerJournalInputSchema, type LedgerJournalInput } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { newId } from '../../../lib/ids.ts';
import * as repo from '../ledger.repository.ts';

/**
 * Post one journal inside the caller's transaction `tx` (issue 50 "A ledger"): the fact that
 * caused it (`factKind` + `factId`) and ≥ 2 postings in integer halalas summing to zero.
 * Idempotent: a fact already posted posts nothing and answers `{ posted: false }` with the first
 * journal's id. Errors: a ZodError for an unbalanced or malformed journal (a programming error:
 * amounts come from the server's own rules); the database refuses one too (ledger_post and the
 * deferred balance trigger, migration 0140).
 */
export async function postJournal(tx: DbOrTx, input: LedgerJournalInput): Promise<{ journalId: string; posted: boolean }> {
  const j = ledgerJournalInputSchema.parse(input);
  const id = await repo.postJournal(tx, { id: newId(), ...j });
  if (id) return { journalId: id, posted: true };
  const first = await repo.journalOfFact(tx, j.factKind, j.factId);
  return { journalId: first!.id, posted: false };
}
