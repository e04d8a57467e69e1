import { PROOF_STEPS, tripStepAllowed, type DriverJob, type GeoError, type TripStep } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { checkDeviceTime, geofence, jobsView, outOfOrder, round3, runningTrip, stepTime } from '../trips.shared.ts';

export type RecordStepDeps = Pick<TripsDeps, 'db' | 'loads' | 'tripContacts' | 'config' | 'now'>;

export type StepInput = {
  loadId: string;
  step: TripStep;
  lat?: number;
  lng?: number;
  accuracyM?: number;
  geoError?: GeoError;
  /** The device's time of the tap, ISO 8601 with offset (issue 49). */
  recordedAt?: string;
};

/**
 * Record a plain step (not a proof) at the browser's position when given. The server stamps its
 * time of receipt (`at`); the device's time (`recordedAt`, when sent) is kept beside it within
 * bounds (checkDeviceTime: DEVICE_TIME_IN_FUTURE, DEVICE_TIME_BEFORE_ASSIGNMENT,
 * TRIP_STEP_TIME_BEFORE_PREVIOUS). A step the server already has (sent twice, or from a second
 * phone) is a replay: `replayed: true` and the job as it is, nothing written. Out of order → 409
 * TRIP_STEP_OUT_OF_ORDER (`errors[0].message` names the expected step); not the driver's running
 * load → 404. The position is measured against the step's stop (geofence: `distanceKm`,
 * `flagged`). 'completed' records the delivery (loads.delivered_at, at the device time).
 * Publishes 'trip.step'. Returns the job as the driver sees it. Spec §2 driver job link; issues 7, 49.
 */
export async function recordStep(deps: RecordStepDeps, driverId: string, b: StepInput): Promise<{ job: DriverJob; replayed: boolean }> {
  const { db, loads } = deps;
  if (b.step in PROOF_STEPS) throw new AppError('TRIP_STEP_OUT_OF_ORDER');
  const at = deps.now();
  const recordedAt = b.recordedAt ? new Date(b.recordedAt) : null;
  // the load's row lock serializes sends of the same step: the second sees the first committed
  const replayed = await db.transaction(async (tx) => {
    const { trip, steps, last, lastRow } = await runningTrip(deps, tx, driverId, b.loadId);
    if (steps.some((s) => s.step === b.step)) return true;
    if (!tripStepAllowed(last, b.step)) throw outOfOrder(last);
    checkDeviceTime(recordedAt, { now: at, assignedAt: trip.assigned_at, previous: lastRow && stepTime(lastRow) });
    const fence = await geofence(deps, tx, b.loadId, b.step, b);
    await repo.insertStep(tx, {
      id: newId(),
      loadId: b.loadId,
      driverId,
      step: b.step,
      at,
      recordedAt,
      lat: b.lat ?? null,
      lng: b.lng ?? null,
      accuracyM: b.accuracyM ?? null,
      geoError: b.lat === undefined ? (b.geoError ?? null) : null,
      distanceKm: fence.distanceKm,
      flagged: fence.flagged,
    });
    await loads.event(tx, 'trip.step', b.loadId, trip.shipper_id, null, {
      step: b.step,
      driverId,
      at: at.toISOString(),
      recordedAt: recordedAt?.toISOString() ?? null,
      lat: b.lat ?? null,
      lng: b.lng ?? null,
      ...(fence.distanceKm === null ? {} : { distanceKm: round3(fence.distanceKm), flagged: fence.flagged }),
    });
    if (b.step === 'completed') await loads.markDelivered(tx, b.loadId, recordedAt ?? at);
    return false;
  });
  const driver = (await repo.driverById(db, driverId))!;
  const job = (
    await jobsView(
      deps,
      (await repo.jobsOfDriver(db, driverId)).filter((j) => j.id === b.loadId),
      driver,
    )
  )[0];
  return { job, replayed };
}
