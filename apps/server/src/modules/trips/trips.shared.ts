import { fileTypeFromBuffer } from 'file-type';
import {
  DEVICE_CLOCK_SKEW_MS,
  ETA_AVERAGE_SPEED_KMH,
  PROOF_MIME_TYPES,
  nextTripStep,
  STEP_STOPS,
  type DriverJob,
  type DriverStop,
  type Position,
  type ProofStop,
  type TripProof,
  type TripStep,
  type TripStepEntry,
} from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { greatCircleKm } from '../../lib/geo.ts';
import * as repo from './trips.repository.ts';
import type { TripsDeps } from './deps.ts';

/*
 * The driver's trip, proofs, tracking and payment follow-through (issue 7; spec §2 driver job
 * link, track vehicle, /godsview; §6 driver identified by phone + licence number). Steps run in
 * the order of TRIP_STEPS (packages/shared schemas/trips.ts), checked under the load's row lock;
 * each is a `trip.step` event on the shipment timeline. The load's own columns are written only
 * through the loads module's lifecycle (delivered_at, payment_received_at).
 * This file: what several trip use cases share (row → API mapping, the driver and trip checks).
 */

const RUNNING = ['assigned', 'pending_bayan'];
export const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round3 = (n: number) => Math.round(n * 1000) / 1000;

export const proofUrl = (id: string) => `/api/v1/trip-proofs/${id}`;

const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

export const toStep = (r: repo.StepRow): TripStepEntry => ({
  step: r.step,
  at: iso(r.at),
  recordedAt: isoOrNull(r.recorded_at),
  lat: r.lat,
  lng: r.lng,
  geoError: r.geo_error,
  distanceKm: r.distance_km === null ? null : round3(r.distance_km),
  flagged: r.flagged,
});
export const toProof = (r: repo.ProofRow): TripProof => ({
  id: r.id,
  stop: r.stop,
  mime: r.mime,
  size: r.size,
  at: iso(r.at),
  recordedAt: isoOrNull(r.recorded_at),
  lat: r.lat,
  lng: r.lng,
  distanceKm: r.distance_km === null ? null : round3(r.distance_km),
  flagged: r.flagged,
  url: proofUrl(r.id),
});
export const toPosition = (r: repo.PositionRow): Position => ({ lat: r.lat, lng: r.lng, speed: r.speed, heading: r.heading, at: iso(r.at) });

/** Sniff a proof's real type (magic bytes, never the name): JPEG, PNG, WebP or PDF, else null. */
export async function sniffProofMime(data: Buffer): Promise<string | null> {
  const t = await fileTypeFromBuffer(data);
  return t && (PROOF_MIME_TYPES as readonly string[]).includes(t.mime) ? t.mime : null;
}

/**
 * Where a running truck heads and what is left (great-circle km): to the pickup then on to the
 * drop before the proof of pickup, to the drop after; none once delivered or without a position.
 * ETA at ETA_AVERAGE_SPEED_KMH from `t`.
 */
export function remainingOf(
  latest: Position | null,
  pickup: { lat: number; lng: number },
  drop: { lat: number; lng: number },
  done: Set<string>,
  delivered: boolean,
  t: Date,
): { heading: ProofStop | null; remainingKm: number | null; eta: string | null } {
  const heading: ProofStop | null = delivered || done.has('completed') ? null : done.has('pickup_proof') ? 'drop' : 'pickup';
  let km: number | null = null;
  if (latest && heading === 'pickup')
    km = greatCircleKm(latest.lat, latest.lng, pickup.lat, pickup.lng) + greatCircleKm(pickup.lat, pickup.lng, drop.lat, drop.lng);
  else if (latest && heading === 'drop') km = greatCircleKm(latest.lat, latest.lng, drop.lat, drop.lng);
  return {
    heading,
    remainingKm: km === null ? null : round1(km),
    eta: km === null ? null : new Date(t.getTime() + (km / ETA_AVERAGE_SPEED_KMH) * 3_600_000).toISOString(),
  };
}

/**
 * The driver when active and, with `gen` (the `gen` claim of a job link or trip token; absent
 * = 0), only when the driver's link generation is still that one: a suspension or deletion
 * moves it on, so links and tokens made before stay refused after a reactivation.
 */
export async function activeDriver(deps: Pick<TripsDeps, 'db'>, driverId: string, gen?: string) {
  const d = await repo.driverById(deps.db, driverId);
  if (!d || d.state !== 'active') return null;
  if (gen !== undefined && String(d.link_generation) !== gen) return null;
  return d;
}
export const genOf = (claims: Record<string, string>) => claims.gen ?? '0';

/**
 * Lock the load and check the driver runs it (else NOT_FOUND); returns the load, its steps and
 * the last of them. Under this lock a second send of a step sees the first one committed.
 */
export async function runningTrip(deps: Pick<TripsDeps, 'loads'>, tx: DbOrTx, driverId: string, loadId: string) {
  const trip = await deps.loads.trip(tx, loadId, true);
  if (!trip || trip.driver_id !== driverId || !RUNNING.includes(trip.status)) throw new AppError('NOT_FOUND');
  const steps = await repo.stepsOf(tx, [loadId]);
  return { trip, steps, last: steps.at(-1)?.step ?? null, lastRow: steps.at(-1) ?? null };
}

/**
 * Check a device time against its bounds (issue 49; null: the device sent none, nothing to
 * check): not more than DEVICE_CLOCK_SKEW_MS ahead of `now` (422 DEVICE_TIME_IN_FUTURE), not
 * earlier than the job's assignment less that allowance (422 DEVICE_TIME_BEFORE_ASSIGNMENT) and,
 * for a step, not before the previous step's device time (`previous`; 409
 * TRIP_STEP_TIME_BEFORE_PREVIOUS). `path` names the field in `errors[0].path`.
 */
export function checkDeviceTime(
  recordedAt: Date | null,
  bounds: { now: Date; assignedAt: Date | string | null; previous?: Date | string | null },
  path = 'recordedAt',
): void {
  if (!recordedAt) return;
  const t = recordedAt.getTime();
  const errors = [{ path, message: 'v.dateInvalid' }];
  if (t > bounds.now.getTime() + DEVICE_CLOCK_SKEW_MS) throw new AppError('DEVICE_TIME_IN_FUTURE', { errors });
  if (bounds.assignedAt && t < Date.parse(iso(bounds.assignedAt)) - DEVICE_CLOCK_SKEW_MS) throw new AppError('DEVICE_TIME_BEFORE_ASSIGNMENT', { errors });
  if (bounds.previous && t < Date.parse(iso(bounds.previous))) throw new AppError('TRIP_STEP_TIME_BEFORE_PREVIOUS', { errors });
}

/**
 * The earliest device time the next step may have: the step's own device time, else (the device
 * sent none) the server's time of receipt less DEVICE_CLOCK_SKEW_MS, since a phone clock a little
 * behind the server's is not a step taken before it.
 */
export const stepTime = (r: Pick<repo.StepRow, 'at' | 'recorded_at'>): Date | string => r.recorded_at ?? new Date(Date.parse(iso(r.at)) - DEVICE_CLOCK_SKEW_MS);

/**
 * The geofence on a step's position (PROOF_GEOFENCE_KM): the great-circle km to the stop the step
 * happens at (STEP_STOPS: arrivals, proofs, delivery) and whether it is beyond the limit; a step
 * without a position or without a stop is not measured.
 */
export async function geofence(
  deps: Pick<TripsDeps, 'config'>,
  tx: DbOrTx,
  loadId: string,
  step: TripStep,
  pos: { lat?: number; lng?: number },
): Promise<{ distanceKm: number | null; flagged: boolean }> {
  const kind = STEP_STOPS[step];
  if (!kind || pos.lat === undefined || pos.lng === undefined) return { distanceKm: null, flagged: false };
  const stop = (await repo.endStops(tx, [loadId])).find((s) => s.stop === kind)!;
  const distanceKm = greatCircleKm(pos.lat, pos.lng, stop.lat, stop.lng);
  return { distanceKm, flagged: distanceKm > deps.config.PROOF_GEOFENCE_KM };
}

/** 409 naming the step the server expects next. */
export function outOfOrder(last: TripStep | null) {
  return new AppError('TRIP_STEP_OUT_OF_ORDER', { errors: [{ path: 'step', message: nextTripStep(last) ?? 'completed' }] });
}

/** A stop as the driver sees it: city, address, street, district (reference names, else the address's own), window. */
export function toDriverStop(s: repo.StopRow): DriverStop {
  const d = s.address_details;
  const street = d ? [d.buildingNumber, d.streetName].filter(Boolean).join(' ') || null : null;
  return {
    lat: s.lat,
    lng: s.lng,
    cityEn: s.city_en,
    cityAr: s.city_ar,
    address: s.address,
    street,
    districtEn: s.district_en ?? d?.district ?? null,
    districtAr: s.district_ar ?? d?.district ?? null,
    date: iso(s.date),
    latestAt: isoOrNull(s.latest_at),
    hours: s.hours_from && s.hours_to ? { from: s.hours_from, to: s.hours_to } : null,
  };
}

/** These running shipments as the driver sees them: stops, cargo, steps, proofs, the next step and whom to call. */
export async function jobsView(deps: Pick<TripsDeps, 'db' | 'tripContacts'>, loadRows: repo.JobRow[], driver: repo.DriverRow): Promise<DriverJob[]> {
  const { db } = deps;
  const ids = loadRows.map((l) => l.id);
  const [stops, steps, proofs, cargo, contacts] = await Promise.all([
    repo.endStops(db, ids),
    repo.stepsOf(db, ids),
    repo.proofsOf(db, ids),
    repo.cargoOf(db, ids),
    Promise.all(
      loadRows.map((l) => (deps.tripContacts && l.carrier_id ? deps.tripContacts(l.carrier_id, l.id) : Promise.resolve({ shipper: null, carrier: null }))),
    ),
  ]);
  return loadRows.map((l, i) => {
    // the driver's manager first (the fleet record names one), else the carrier's shared line
    const manager = driver.manager_phone ? { name: driver.manager_name ?? '', phone: driver.manager_phone } : null;
    const stopOf = (kind: ProofStop) => toDriverStop(stops.find((x) => x.load_id === l.id && x.stop === kind)!);
    const mine = steps.filter((s) => s.load_id === l.id);
    return {
      loadId: l.id,
      referenceId: l.reference_id,
      status: l.status,
      pickup: stopOf('pickup'),
      drop: stopOf('drop'),
      goods: l.goods,
      cargo: cargo
        .filter((c) => c.load_id === l.id)
        .map((c) => ({ goodsType: c.goods_type, quantity: c.quantity, weightKg: Number(c.weight_kg), adr: c.adr, conditions: c.conditions })),
      totalWeightKg: l.total_weight_kg,
      steps: mine.map(toStep),
      proofs: proofs.filter((p) => p.load_id === l.id).map(toProof),
      nextStep: nextTripStep(mine.at(-1)?.step ?? null),
      contacts: { dispatcher: manager ?? contacts[i].carrier, shipper: contacts[i].shipper },
    };
  });
}
