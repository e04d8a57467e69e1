import * as repo from '../bayan.repository.ts';
import { staleSecondsOf } from '../bayan.shared.ts';
import type { BayanDeps } from '../deps.ts';

export type SweepPendingTripsDeps = Pick<BayanDeps, 'db' | 'enqueue' | 'timeoutMs' | 'staleSeconds'>;

/**
 * Pending trips whose job was lost (a process died between the reservation's commit and the
 * send): queue again. Runs every minute (`bayan.sweep`); stale after `staleSeconds`.
 */
export async function sweepPendingTrips(deps: SweepPendingTripsDeps): Promise<number> {
  const ids = await repo.stalePending(deps.db, staleSecondsOf(deps));
  for (const id of ids) await deps.enqueue(id);
  return ids.length;
}
