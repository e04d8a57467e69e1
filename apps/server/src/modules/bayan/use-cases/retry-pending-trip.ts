import { BayanRejectedError, type BayanTrip, type BayanTripInput } from '../../../gateways/bayan/bayan.ts';
import * as repo from '../bayan.repository.ts';
import { bayanIdempotencyKey, recordCreated, withTimeout } from '../bayan.shared.ts';
import type { BayanDeps } from '../deps.ts';

export type RetryPendingTripDeps = Pick<BayanDeps, 'db' | 'gateway' | 'loads' | 'timeoutMs'>;

/**
 * The retry job (`bayan.create`): send a pending trip again. Throws while Bayan is
 * unavailable (pg-boss retries with backoff); refused data is recorded as `rejected: …` with
 * a `load.bayan_failed` event and not retried. Idempotent: a row no longer pending is skipped.
 */
export async function retryPendingTrip(deps: RetryPendingTripDeps, rowId: string): Promise<'created' | 'skipped' | 'rejected'> {
  const { db } = deps;
  const row = await repo.getTrip(db, rowId);
  if (!row || row.status !== 'pending') return 'skipped';
  let trip: BayanTrip;
  try {
    trip = await withTimeout(deps, deps.gateway.createTrip(row.request as BayanTripInput, { idempotencyKey: bayanIdempotencyKey(row.loadId, rowId) }));
  } catch (e) {
    if (e instanceof BayanRejectedError) {
      await db.transaction(async (tx) => {
        await repo.updateTrip(tx, rowId, { attempts: row.attempts + 1, lastError: `rejected: ${e.message}`.slice(0, 500) });
        await deps.loads.event(tx, 'load.bayan_failed', row.loadId, row.shipperId, null, { errors: e.errors });
      });
      return 'rejected';
    }
    await repo.updateTrip(db, rowId, { attempts: row.attempts + 1, lastError: (e as Error).message.slice(0, 500) });
    throw e;
  }
  if (await recordCreated(deps, rowId, trip, null)) return 'created';
  // cancelled while Bayan was answering: do not leave a live permit behind
  for (const w of trip.waybills) await deps.gateway.cancelWaybill(w.waybillId, 'recipient_refused').catch(() => undefined);
  return 'skipped';
}
