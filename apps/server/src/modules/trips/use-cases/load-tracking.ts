import { ETA_AVERAGE_SPEED_KMH, TRAIL_MAX_HOURS, TRAIL_MAX_POINTS, type LoadTracking, type Position } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { AppError } from '../../../lib/errors.ts';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { iso, remainingOf, toPosition, toProof, toStep } from '../trips.shared.ts';

export type LoadTrackingDeps = Pick<TripsDeps, 'db' | 'loads' | 'now'>;

/**
 * A shipment's tracking (shipper and awarded carrier; others 404): the assigned vehicle's
 * trail since assignment (≤ 72 h, ≤ 2000 points), latest position, steps and proofs, and
 * the remaining great-circle distance — to the pickup then on to the drop before the proof
 * of pickup, to the drop after — with an ETA at ETA_AVERAGE_SPEED_KMH (70 km/h).
 */
export async function loadTracking(deps: LoadTrackingDeps, user: CurrentUser, loadId: string): Promise<LoadTracking> {
  const { db } = deps;
  const trip = await deps.loads.trip(db, loadId);
  if (!trip || (user.id !== trip.shipper_id && user.id !== trip.carrier_id)) throw new AppError('NOT_FOUND');
  const [stops, steps, proofs] = await Promise.all([repo.endStops(db, [loadId]), repo.stepsOf(db, [loadId]), repo.proofsOf(db, [loadId])]);
  const pickup = stops.find((s) => s.stop === 'pickup')!;
  const drop = stops.find((s) => s.stop === 'drop')!;
  const t = deps.now();
  let trail: Position[] = [];
  let latest: Position | null = null;
  // an unassigned shipment keeps its last vehicle on the row; that truck is not its truck any more
  const vehicleId = trip.status === 'unassigned' ? null : trip.vehicle_id;
  if (vehicleId) {
    const floor = t.getTime() - TRAIL_MAX_HOURS * 3_600_000;
    const since = new Date(Math.max(floor, trip.assigned_at ? new Date(trip.assigned_at).getTime() : floor));
    const [points, last] = await Promise.all([repo.trail(db, vehicleId, since, TRAIL_MAX_POINTS), repo.latestOf(db, [vehicleId])]);
    trail = points.reverse().map(toPosition);
    latest = last[0] ? toPosition(last[0]) : null;
  }
  const done = new Set(steps.map((s) => s.step));
  const { heading, remainingKm, eta } = remainingOf(latest, pickup, drop, done, !!trip.delivered_at, t);
  return {
    loadId,
    referenceId: trip.reference_id,
    status: trip.status,
    vehicleId,
    pickup: { lat: pickup.lat, lng: pickup.lng },
    drop: { lat: drop.lat, lng: drop.lng },
    latest,
    trail,
    steps: steps.map(toStep),
    proofs: proofs.map(toProof),
    heading,
    remainingKm,
    eta,
    averageSpeedKmh: ETA_AVERAGE_SPEED_KMH,
    deliveredAt: trip.delivered_at ? iso(trip.delivered_at) : null,
  };
}
