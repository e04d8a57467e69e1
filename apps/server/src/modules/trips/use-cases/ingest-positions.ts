import type { PositionInput } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';

export type IngestPositionsDeps = Pick<TripsDeps, 'db' | 'now'>;

/** Who sends positions: a signed-in user or API key owner (by IMEI), or a driver on a trip. */
export type PositionSender = { userId: string } | { driverId: string };

/** Positions more than this far in the future (device clock skew) are refused. */
const FUTURE_SKEW_MS = 5 * 60_000;

/**
 * Ingest positions (lat, lng, speed km/h, heading °, time). A user or API key (scope
 * fleet:write) names one of its vehicles by `imei` (UNKNOWN_IMEI otherwise); a driver's trip
 * token tracks the vehicle of its running shipment (NO_VEHICLE_ON_TRIP otherwise). Points
 * more than 5 minutes in the future are refused (VALIDATION_FAILED); a repeated instant is
 * kept once. Returns the vehicle and how many points were stored.
 */
export async function ingestPositions(deps: IngestPositionsDeps, sender: PositionSender, b: { imei?: string; positions: PositionInput[] }) {
  const { db } = deps;
  const limit = deps.now().getTime() + FUTURE_SKEW_MS;
  const bad = b.positions.findIndex((p) => Date.parse(p.at) > limit);
  if (bad >= 0) throw new AppError('VALIDATION_FAILED', { errors: [{ path: `positions.${bad}.at`, message: 'v.dateInvalid' }] });
  let vehicleId: string;
  if ('userId' in sender) {
    if (!b.imei) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'imei', message: 'v.required' }] });
    const v = await repo.vehicleByImei(db, sender.userId, b.imei);
    if (!v) throw new AppError('UNKNOWN_IMEI');
    vehicleId = v.id;
  } else {
    const job = (await repo.jobsOfDriverVehicles(db, sender.driverId))[0];
    if (!job) throw new AppError('NO_VEHICLE_ON_TRIP');
    vehicleId = job;
  }
  const accepted = await db.transaction((tx) => repo.insertPositions(tx, vehicleId, b.positions));
  return { vehicleId, accepted };
}
