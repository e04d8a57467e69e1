import type { PositionInput } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { checkDeviceTime } from '../trips.shared.ts';

export type IngestPositionsDeps = Pick<TripsDeps, 'db' | 'now'>;

/** Who sends positions: a signed-in user or API key owner (by IMEI), or a driver on a trip. */
export type PositionSender = { userId: string } | { driverId: string };

/**
 * A GPS integration's points more than this far in the future (its clock skew) are refused; the
 * driver's phone is held to DEVICE_CLOCK_SKEW_MS (checkDeviceTime).
 */
const FUTURE_SKEW_MS = 5 * 60_000;

/**
 * Ingest positions (lat, lng, speed km/h, heading °, time). A user or API key (scope
 * fleet:write) names one of its vehicles by `imei` (UNKNOWN_IMEI otherwise); a driver's trip
 * token tracks the vehicle of its running shipment (NO_VEHICLE_ON_TRIP otherwise). Points
 * from an integration more than 5 minutes in the future are refused (VALIDATION_FAILED); a
 * driver's points (each `at` is the GPS fix on the device, queued offline and sent later; issue 49)
 * are held to the device-time bounds: DEVICE_TIME_IN_FUTURE, DEVICE_TIME_BEFORE_ASSIGNMENT
 * (`errors[0].path` = `positions.<i>.at`). A repeated instant is kept once (a resend is harmless);
 * the server's time of receipt is stored beside each point. Returns the vehicle and how many
 * points were stored.
 */
export async function ingestPositions(deps: IngestPositionsDeps, sender: PositionSender, b: { imei?: string; positions: PositionInput[] }) {
  const { db } = deps;
  const now = deps.now();
  let vehicleId: string;
  if ('userId' in sender) {
    const bad = b.positions.findIndex((p) => Date.parse(p.at) > now.getTime() + FUTURE_SKEW_MS);
    if (bad >= 0) throw new AppError('VALIDATION_FAILED', { errors: [{ path: `positions.${bad}.at`, message: 'v.dateInvalid' }] });
    if (!b.imei) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'imei', message: 'v.required' }] });
    const v = await repo.vehicleByImei(db, sender.userId, b.imei);
    if (!v) throw new AppError('UNKNOWN_IMEI');
    vehicleId = v.id;
  } else {
    const job = (await repo.jobsOfDriverVehicles(db, sender.driverId))[0];
    if (!job) throw new AppError('NO_VEHICLE_ON_TRIP');
    b.positions.forEach((p, i) => checkDeviceTime(new Date(p.at), { now, assignedAt: job.assigned_at }, `positions.${i}.at`));
    vehicleId = job.vehicle_id;
  }
  const accepted = await db.transaction((tx) => repo.insertPositions(tx, vehicleId, b.positions));
  return { vehicleId, accepted };
}
