import { INOUT_RATIO_HOURS } from '@masar/shared';
import * as repo from '../trucks.repository.ts';
import { expireBatch } from '../lifecycle.ts';
import type { TrucksDeps } from '../deps.ts';

export type ExpireDueTrucksDeps = Pick<TrucksDeps, 'db'>;

/**
 * The expiry job: posted trucks whose window ended become expired (truck.expired each), in
 * batches; then the hours of trucks_posted_hourly the ratio no longer reads are dropped.
 * Returns how many trucks expired.
 */
export async function expireDueTrucks(deps: ExpireDueTrucksDeps, batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deps.db.transaction((tx) => expireBatch(tx, batch));
    total += n;
    if (n < batch) break;
  }
  await repo.pruneHourly(deps.db, 2 * INOUT_RATIO_HOURS);
  return total;
}
