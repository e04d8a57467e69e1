import { AppError } from '../../../lib/errors.ts';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { toProof } from '../trips.shared.ts';

export type OpenProofDeps = Pick<TripsDeps, 'db' | 'loads' | 'storage'>;

/**
 * A proof's bytes: for the load's shipper and awarded carrier (`userId`), or the driver who
 * took it (`driverId`); anyone else hears 404.
 */
export async function openProof(deps: OpenProofDeps, viewer: { userId?: string; driverId?: string }, proofId: string) {
  const p = await repo.proofById(deps.db, proofId);
  if (!p) throw new AppError('NOT_FOUND');
  const trip = await deps.loads.trip(deps.db, p.load_id);
  const party = !!trip && !!viewer.userId && (viewer.userId === trip.shipper_id || viewer.userId === trip.carrier_id);
  if (!party && !(viewer.driverId && viewer.driverId === p.driver_id)) throw new AppError('NOT_FOUND');
  return { proof: toProof(p), stream: await deps.storage.get(p.storage_key) };
}
