import { PROOF_STEPS, tripStepAllowed, type DriverJob, type GeoError, type TripStep } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { jobsView, outOfOrder, runningTrip } from '../trips.shared.ts';

export type RecordStepDeps = Pick<TripsDeps, 'db' | 'loads' | 'tripContacts' | 'now'>;

/**
 * Record a plain step (not a proof) now, at the browser's position when given. Out of order
 * → 409 TRIP_STEP_OUT_OF_ORDER (`errors[0].message` names the expected step); not the
 * driver's running load → 404. 'completed' records the delivery (loads.delivered_at).
 * Publishes 'trip.step'. Returns the job as the driver sees it.
 */
export async function recordStep(
  deps: RecordStepDeps,
  driverId: string,
  b: { loadId: string; step: TripStep; lat?: number; lng?: number; accuracyM?: number; geoError?: GeoError },
): Promise<DriverJob> {
  const { db, loads } = deps;
  if (b.step in PROOF_STEPS) throw new AppError('TRIP_STEP_OUT_OF_ORDER');
  const at = deps.now();
  await db.transaction(async (tx) => {
    const { trip, last } = await runningTrip(deps, tx, driverId, b.loadId);
    if (!tripStepAllowed(last, b.step)) throw outOfOrder(last);
    await repo.insertStep(tx, {
      id: newId(),
      loadId: b.loadId,
      driverId,
      step: b.step,
      at,
      lat: b.lat ?? null,
      lng: b.lng ?? null,
      accuracyM: b.accuracyM ?? null,
      geoError: b.lat === undefined ? (b.geoError ?? null) : null,
    });
    await loads.event(tx, 'trip.step', b.loadId, trip.shipper_id, null, {
      step: b.step,
      driverId,
      at: at.toISOString(),
      lat: b.lat ?? null,
      lng: b.lng ?? null,
    });
    if (b.step === 'completed') await loads.markDelivered(tx, b.loadId, at);
  });
  const driver = (await repo.driverById(db, driverId))!;
  return (
    await jobsView(
      deps,
      (await repo.jobsOfDriver(db, driverId)).filter((j) => j.id === b.loadId),
      driver,
    )
  )[0];
}
