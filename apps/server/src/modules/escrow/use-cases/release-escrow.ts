import { fromHalalas } from '@masar/shared';
import type { EscrowDeps } from '../deps.ts';
import * as repo from '../escrow.repository.ts';
import { payoutPostings, totalOf } from '../escrow.shared.ts';
import { transitionEscrow } from '../lifecycle.ts';

export type ReleaseDeps = Pick<EscrowDeps, 'db' | 'ledgerPost' | 'now'>;

/**
 * Release one escrow whose dispute window is over (job `escrow.release`), in one transaction:
 * lock the row; unless it is `release_scheduled` and due, do nothing (false) — a dispute that
 * took the lock first wins, and a second run finds it released; post the ledger journal
 * `escrow.released` (the shipper's escrow_held → the carrier's payable and VAT) and move it to
 * `released` (payment.released). A crash before commit leaves nothing of it; the job or the
 * sweep runs it again.
 */
export async function releaseEscrow(deps: ReleaseDeps, id: string): Promise<boolean> {
  const now = (deps.now ?? (() => new Date()))();
  return deps.db.transaction(async (tx) => {
    const e = await repo.escrowById(tx, id, true);
    if (!e || e.status !== 'release_scheduled' || !e.releaseAt || e.releaseAt > now) return false;
    await deps.ledgerPost(tx, {
      factKind: 'escrow.released',
      factId: e.id,
      memo: `escrow of load ${e.loadId} released to the carrier`,
      postings: payoutPostings(e, totalOf(e)),
    });
    await transitionEscrow(tx, e, 'release', null, { releasedAt: now }, { carrierSar: fromHalalas(totalOf(e)) });
    return true;
  });
}

/** Release every due escrow (the minute sweep behind the per-escrow jobs); how many were released. */
export async function releaseDue(deps: ReleaseDeps, limit = 200): Promise<number> {
  let n = 0;
  for (const id of await repo.dueIds(deps.db, (deps.now ?? (() => new Date()))(), limit)) if (await releaseEscrow(deps, id)) n++;
  return n;
}
