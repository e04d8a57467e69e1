import type { DbOrTx } from '../../../db/client.ts';
import type { EscrowDeps } from '../deps.ts';
import * as repo from '../escrow.repository.ts';
import { transitionEscrow } from '../lifecycle.ts';

/**
 * On `load.completed` (proof of delivery, and the Bayan closed where it is required; outbox
 * handler, inside its transaction): a funded escrow is released after the dispute window
 * (ESCROW_DISPUTE_WINDOW_HOURS, default 48). Returns the escrow and its release time for the
 * job to be queued after commit, or null (no escrow, not funded, or already scheduled: a
 * redelivered event or a second proof of delivery changes nothing).
 */
export async function scheduleRelease(deps: Pick<EscrowDeps, 'disputeWindowMs' | 'now'>, tx: DbOrTx, loadId: string): Promise<{ id: string; at: Date } | null> {
  const e = await repo.escrowOfLoad(tx, loadId, true);
  if (!e || e.status !== 'funded') return null;
  const at = new Date((deps.now ?? (() => new Date()))().getTime() + deps.disputeWindowMs);
  await transitionEscrow(tx, e, 'schedule_release', null, { releaseAt: at });
  return { id: e.id, at };
}
