import { fileTypeFromBuffer } from 'file-type';
import {
  DAYS_TO_PAY_WINDOW,
  ETA_AVERAGE_SPEED_KMH,
  formatPlate,
  plateFromStored,
  normalizeSaudiPhone,
  PROOF_MAX_BYTES,
  PROOF_MIME_TYPES,
  PROOF_STEPS,
  TRAIL_MAX_HOURS,
  TRAIL_MAX_POINTS,
  nextTripStep,
  tripStepAllowed,
  type DaysToPay,
  type DriverJob,
  type DriverJobs,
  type GeoError,
  type LoadTracking,
  type Position,
  type PositionInput,
  type ProofStop,
  type TrackOverview,
  type TripProof,
  type TripSession,
  type TripStep,
  type TripStepEntry,
  type VehicleTrack,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { StorageGateway } from '../../gateways/storage/index.ts';
import { AppError } from '../../lib/errors.ts';
import { greatCircleKm } from '../../lib/geo.ts';
import { newId } from '../../lib/ids.ts';
import type { SignedLinks } from '../../lib/signed-links.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { actingUser } from '../auth/auth.types.ts';
import type { loadLifecycle } from '../loads/loads.service.ts';
import * as repo from './trips.repository.ts';
import { replayNext } from '../../lib/tx-journal.ts';

/** What the trips module asks of the loads module (its lifecycle; wired in container.ts). */
export type TripLoads = Pick<typeof loadLifecycle, 'trip' | 'event' | 'markDelivered' | 'markPaymentReceived'>;

export interface TripsDeps {
  db: Db;
  links: SignedLinks;
  storage: StorageGateway;
  loads: TripLoads;
  /** PROOF_GEOFENCE_KM: a proof farther than this from its stop is flagged; TRIP_SESSION_HOURS: trip token life. */
  config: { PROOF_GEOFENCE_KM: number; TRIP_SESSION_HOURS: number };
  /** Whom the driver may call about a load (relations `tripContacts`: the contact rules); none when absent. */
  tripContacts?: (
    carrierId: string,
    loadId: string,
  ) => Promise<{ shipper: { name: string; phones: string[] } | null; carrier: { name: string; phone: string } | null }>;
  now?: () => Date;
}

/** Who sends positions: a signed-in user or API key owner (by IMEI), or a driver on a trip. */
export type PositionSender = { userId: string } | { driverId: string };

const RUNNING = ['assigned', 'pending_bayan'];
const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const round1 = (n: number) => Math.round(n * 10) / 10;
const round3 = (n: number) => Math.round(n * 1000) / 1000;
/** Positions more than this far in the future (device clock skew) are refused. */
const FUTURE_SKEW_MS = 5 * 60_000;

export const proofUrl = (id: string) => `/api/v1/trip-proofs/${id}`;

const toStep = (r: repo.StepRow): TripStepEntry => ({ step: r.step, at: iso(r.at), lat: r.lat, lng: r.lng, geoError: r.geo_error });
const toProof = (r: repo.ProofRow): TripProof => ({
  id: r.id,
  stop: r.stop,
  mime: r.mime,
  size: r.size,
  at: iso(r.at),
  lat: r.lat,
  lng: r.lng,
  distanceKm: r.distance_km === null ? null : round3(r.distance_km),
  flagged: r.flagged,
  url: proofUrl(r.id),
});
const toPosition = (r: repo.PositionRow): Position => ({ lat: r.lat, lng: r.lng, speed: r.speed, heading: r.heading, at: iso(r.at) });

/** Sniff a proof's real type (magic bytes, never the name): JPEG, PNG, WebP or PDF, else null. */
export async function sniffProofMime(data: Buffer): Promise<string | null> {
  const t = await fileTypeFromBuffer(data);
  return t && (PROOF_MIME_TYPES as readonly string[]).includes(t.mime) ? t.mime : null;
}

/**
 * The driver's trip, proofs, tracking and payment follow-through (issue 7; spec §2 driver job
 * link, track vehicle, /godsview; §6 driver identified by phone + licence number). Steps run in
 * the order of TRIP_STEPS (packages/shared schemas/trips.ts), checked under the load's row lock;
 * each is a `trip.step` event on the shipment timeline. The load's own columns are written only
 * through the loads module's lifecycle (delivered_at, payment_received_at).
 */
/**
 * Where a running truck heads and what is left (great-circle km): to the pickup then on to the
 * drop before the proof of pickup, to the drop after; none once delivered or without a position.
 * ETA at ETA_AVERAGE_SPEED_KMH from `t`.
 */
function remainingOf(
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

export function createTripsService(deps: TripsDeps) {
  const { db, links, storage, loads, config } = deps;
  const now = deps.now ?? (() => new Date());

  /**
   * The driver when active and, with `gen` (the `gen` claim of a job link or trip token; absent
   * = 0), only when the driver's link generation is still that one: a suspension or deletion
   * moves it on, so links and tokens made before stay refused after a reactivation.
   */
  async function activeDriver(driverId: string, gen?: string) {
    const d = await repo.driverById(db, driverId);
    if (!d || d.state !== 'active') return null;
    if (gen !== undefined && String(d.link_generation) !== gen) return null;
    return d;
  }
  const genOf = (claims: Record<string, string>) => claims.gen ?? '0';

  /** Lock the load and check the driver runs it (else NOT_FOUND); returns the load and its steps. */
  async function runningTrip(tx: DbOrTx, driverId: string, loadId: string) {
    const trip = await loads.trip(tx, loadId, true);
    if (!trip || trip.driver_id !== driverId || !RUNNING.includes(trip.status)) throw new AppError('NOT_FOUND');
    const steps = await repo.stepsOf(tx, [loadId]);
    return { trip, last: steps.at(-1)?.step ?? null };
  }

  async function jobsView(loadRows: repo.JobRow[], driver: repo.DriverRow): Promise<DriverJob[]> {
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
      const stopOf = (kind: ProofStop) => {
        const s = stops.find((x) => x.load_id === l.id && x.stop === kind)!;
        return { lat: s.lat, lng: s.lng, cityEn: s.city_en, cityAr: s.city_ar, address: s.address, date: iso(s.date) };
      };
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

  const svc = {
    /**
     * Open a trip session from the job link (purpose 'driver-job', subject the driver id) and the
     * driver's phone + licence number, both checked against the drivers row (spec §6).
     * Errors: DRIVER_LINK_INVALID (bad or expired link, driver suspended or deleted, or suspended
     * since the link was made),
     * DRIVER_NOT_IDENTIFIED (the pair does not match). Returns a 'driver-trip' signed token.
     */
    async openSession(b: { token: string; phone: string; licenceNumber: string }): Promise<TripSession> {
      const link = await links.check('driver-job', b.token);
      if (!link.ok) throw new AppError('DRIVER_LINK_INVALID');
      const d = await activeDriver(link.link.subject, genOf(link.link.claims));
      if (!d) throw new AppError('DRIVER_LINK_INVALID');
      const phone = normalizeSaudiPhone(b.phone) ?? b.phone.trim();
      if (phone !== d.phone || b.licenceNumber.trim() !== d.licence_number) throw new AppError('DRIVER_NOT_IDENTIFIED');
      const s = await links.sign('driver-trip', d.id, Math.round(config.TRIP_SESSION_HOURS * 3600), { owner: d.owner_id, gen: String(d.link_generation) });
      return { sessionToken: s.token, expiresAt: s.expiresAt, driverName: `${d.first_name} ${d.last_name}` };
    },

    /**
     * The driver id of a trip session token (X-Trip-Token); TRIP_SESSION_INVALID when expired,
     * forged, the driver is no longer active, or the driver was suspended or deleted since the
     * token was made (also when reactivated since: the token's generation is gone for good).
     */
    async driverOf(token: string | undefined): Promise<string> {
      if (!token) throw new AppError('TRIP_SESSION_INVALID');
      const c = await links.check('driver-trip', token);
      if (!c.ok || !(await activeDriver(c.link.subject, genOf(c.link.claims)))) throw new AppError('TRIP_SESSION_INVALID');
      return c.link.subject;
    },

    /** The driver's running shipments (assigned or pending Bayan) with stops, steps, proofs and the next step. */
    async jobs(driverId: string): Promise<DriverJobs> {
      const d = (await activeDriver(driverId))!;
      return { driverName: `${d.first_name} ${d.last_name}`, items: await jobsView(await repo.jobsOfDriver(db, driverId), d) };
    },

    /**
     * Record a plain step (not a proof) now, at the browser's position when given. Out of order
     * → 409 TRIP_STEP_OUT_OF_ORDER (`errors[0].message` names the expected step); not the
     * driver's running load → 404. 'completed' records the delivery (loads.delivered_at).
     * Publishes 'trip.step'. Returns the job as the driver sees it.
     */
    async recordStep(
      driverId: string,
      b: { loadId: string; step: TripStep; lat?: number; lng?: number; accuracyM?: number; geoError?: GeoError },
    ): Promise<DriverJob> {
      if (b.step in PROOF_STEPS) throw new AppError('TRIP_STEP_OUT_OF_ORDER');
      const at = now();
      await db.transaction(async (tx) => {
        const { trip, last } = await runningTrip(tx, driverId, b.loadId);
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
          (await repo.jobsOfDriver(db, driverId)).filter((j) => j.id === b.loadId),
          driver,
        )
      )[0];
    },

    /**
     * Proof of pickup or drop (a photo or PDF, at most 10 MB, sniffed by magic bytes), stored
     * through the storage gateway, recorded as the step pickup_proof / drop_proof. A proof taken
     * farther than PROOF_GEOFENCE_KM (great circle) from its stop is stored flagged with its
     * distance and publishes 'trip.proof_flagged'. Errors: PROOF_TOO_LARGE, PROOF_TYPE_NOT_ALLOWED,
     * UPLOAD_FILE_FIRST, TRIP_STEP_OUT_OF_ORDER, NOT_FOUND.
     */
    async uploadProof(
      driverId: string,
      f: { loadId: string; stop: ProofStop; lat?: number; lng?: number; geoError?: GeoError },
      data: Buffer,
    ): Promise<TripProof> {
      if (data.length === 0) throw new AppError('UPLOAD_FILE_FIRST');
      if (data.length > PROOF_MAX_BYTES) throw new AppError('PROOF_TOO_LARGE');
      const mime = await sniffProofMime(data);
      if (!mime) throw new AppError('PROOF_TYPE_NOT_ALLOWED');
      const step: TripStep = f.stop === 'pickup' ? 'pickup_proof' : 'drop_proof';
      // a same-key retry after a crash that committed the proof answers that proof (its id is the
      // replay key): no second copy of the bytes, no second step
      const replayed = replayNext();
      if (replayed) return toProof(replayed.value as repo.ProofRow);
      // refuse early (before storing bytes) when the step is not next; checked again under the lock
      {
        const steps = await repo.stepsOf(db, [f.loadId]);
        if (!tripStepAllowed(steps.at(-1)?.step ?? null, step)) throw outOfOrder(steps.at(-1)?.step ?? null);
      }
      const id = newId();
      const at = now();
      const key = `trip-proofs/${at.getUTCFullYear()}/${String(at.getUTCMonth() + 1).padStart(2, '0')}/${id}`;
      await storage.put(key, data);
      try {
        const row = await db.transaction(async (tx) => {
          const { trip, last } = await runningTrip(tx, driverId, f.loadId);
          if (!tripStepAllowed(last, step)) throw outOfOrder(last);
          const stop = (await repo.endStops(tx, [f.loadId])).find((s) => s.stop === f.stop)!;
          const hasPos = f.lat !== undefined && f.lng !== undefined;
          const distanceKm = hasPos ? greatCircleKm(f.lat!, f.lng!, stop.lat, stop.lng) : null;
          const flagged = distanceKm !== null && distanceKm > config.PROOF_GEOFENCE_KM;
          const proof: repo.ProofRow = {
            id,
            load_id: f.loadId,
            driver_id: driverId,
            stop: f.stop,
            mime,
            size: data.length,
            storage_key: key,
            at,
            lat: hasPos ? f.lat! : null,
            lng: hasPos ? f.lng! : null,
            distance_km: distanceKm,
            flagged,
          };
          await repo.insertProof(tx, {
            id,
            loadId: f.loadId,
            driverId,
            stop: f.stop,
            mime,
            size: data.length,
            storageKey: key,
            at,
            lat: proof.lat,
            lng: proof.lng,
            distanceKm,
            flagged,
          });
          await repo.insertStep(tx, {
            id: newId(),
            loadId: f.loadId,
            driverId,
            step,
            at,
            lat: proof.lat,
            lng: proof.lng,
            geoError: hasPos ? null : (f.geoError ?? null),
          });
          const dist = distanceKm === null ? null : round3(distanceKm);
          await loads.event(tx, 'trip.step', f.loadId, trip.shipper_id, null, { step, driverId, at: at.toISOString(), proofId: id, distanceKm: dist, flagged });
          if (flagged)
            await loads.event(tx, 'trip.proof_flagged', f.loadId, trip.shipper_id, null, {
              proofId: id,
              stop: f.stop,
              distanceKm: dist,
              limitKm: config.PROOF_GEOFENCE_KM,
            });
          return proof;
        });
        return toProof(row);
      } catch (e) {
        await storage.delete(key).catch(() => undefined);
        throw e;
      }
    },

    /**
     * A proof's bytes: for the load's shipper and awarded carrier (`userId`), or the driver who
     * took it (`driverId`); anyone else hears 404.
     */
    async openProof(viewer: { userId?: string; driverId?: string }, proofId: string) {
      const p = await repo.proofById(db, proofId);
      if (!p) throw new AppError('NOT_FOUND');
      const trip = await loads.trip(db, p.load_id);
      const party = !!trip && !!viewer.userId && (viewer.userId === trip.shipper_id || viewer.userId === trip.carrier_id);
      if (!party && !(viewer.driverId && viewer.driverId === p.driver_id)) throw new AppError('NOT_FOUND');
      return { proof: toProof(p), stream: await storage.get(p.storage_key) };
    },

    // ---------- tracking ----------

    /**
     * Ingest positions (lat, lng, speed km/h, heading °, time). A user or API key (scope
     * fleet:write) names one of its vehicles by `imei` (UNKNOWN_IMEI otherwise); a driver's trip
     * token tracks the vehicle of its running shipment (NO_VEHICLE_ON_TRIP otherwise). Points
     * more than 5 minutes in the future are refused (VALIDATION_FAILED); a repeated instant is
     * kept once. Returns the vehicle and how many points were stored.
     */
    async ingest(sender: PositionSender, b: { imei?: string; positions: PositionInput[] }) {
      const limit = now().getTime() + FUTURE_SKEW_MS;
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
    },

    /** Latest position and the trail of the last `hours` (≤ 72 h, ≤ 2000 newest points, oldest first) of the user's vehicle. */
    async vehicleTrack(user: CurrentUser, vehicleId: string, hours: number): Promise<VehicleTrack> {
      const v = await repo.vehicleById(db, vehicleId);
      if (!v || v.owner_id !== user.id) throw new AppError('NOT_FOUND');
      const since = new Date(now().getTime() - Math.min(hours, TRAIL_MAX_HOURS) * 3_600_000);
      const [points, latest] = await Promise.all([repo.trail(db, vehicleId, since, TRAIL_MAX_POINTS), repo.latestOf(db, [vehicleId])]);
      return { vehicleId, latest: latest[0] ? toPosition(latest[0]) : null, trail: points.reverse().map(toPosition) };
    },

    /**
     * A shipment's tracking (shipper and awarded carrier; others 404): the assigned vehicle's
     * trail since assignment (≤ 72 h, ≤ 2000 points), latest position, steps and proofs, and
     * the remaining great-circle distance — to the pickup then on to the drop before the proof
     * of pickup, to the drop after — with an ETA at ETA_AVERAGE_SPEED_KMH (70 km/h).
     */
    async loadTracking(user: CurrentUser, loadId: string): Promise<LoadTracking> {
      const trip = await loads.trip(db, loadId);
      if (!trip || (user.id !== trip.shipper_id && user.id !== trip.carrier_id)) throw new AppError('NOT_FOUND');
      const [stops, steps, proofs] = await Promise.all([repo.endStops(db, [loadId]), repo.stepsOf(db, [loadId]), repo.proofsOf(db, [loadId])]);
      const pickup = stops.find((s) => s.stop === 'pickup')!;
      const drop = stops.find((s) => s.stop === 'drop')!;
      const t = now();
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
    },

    /** /godsview: the user's running shipments (shipper or carrier, ≤ 200) and vehicles (≤ 500) with their latest positions. */
    async overview(user: CurrentUser): Promise<TrackOverview> {
      const [ships, vehicles] = await Promise.all([repo.activeShipmentsOf(db, user.id, 200), repo.vehiclesOfOwner(db, user.id, 500)]);
      const vIds = [...new Set([...ships.flatMap((s) => (s.vehicle_id ? [s.vehicle_id] : [])), ...vehicles.map((v) => v.id)])];
      const [latest, steps] = await Promise.all([
        repo.latestOf(db, vIds),
        repo.stepsOf(
          db,
          ships.map((s) => s.id),
        ),
      ]);
      const pos = new Map(latest.map((p) => [p.vehicle_id, toPosition(p)]));
      const t = now();
      const plateOf = (digits: string | null | undefined, letters: string | null | undefined) =>
        digits && letters ? formatPlate(plateFromStored(digits, letters)) : null;
      const shipments = ships.map((s) => {
        const mine = steps.filter((x) => x.load_id === s.id);
        const at = s.vehicle_id ? (pos.get(s.vehicle_id) ?? null) : null;
        const pickup = { lat: s.pickup_lat, lng: s.pickup_lng };
        const drop = { lat: s.drop_lat, lng: s.drop_lng };
        const { heading, eta } = remainingOf(at, pickup, drop, new Set(mine.map((x) => x.step)), !!s.delivered_at, t);
        return {
          loadId: s.id,
          referenceId: s.reference_id,
          status: s.status,
          pickup,
          drop,
          lane: { fromEn: s.pickup_city_en, fromAr: s.pickup_city_ar, toEn: s.drop_city_en, toAr: s.drop_city_ar },
          vehicleId: s.vehicle_id,
          plate: plateOf(s.plate_digits, s.plate_letters),
          driverName: s.driver_name,
          latest: at,
          lastStep: mine.at(-1)?.step ?? null,
          heading,
          eta,
        };
      });
      const onShipment = new Map(shipments.filter((s) => s.vehicleId).map((s) => [s.vehicleId!, s]));
      return {
        shipments,
        vehicles: vehicles.map((v) => {
          const s = onShipment.get(v.id);
          return {
            vehicleId: v.id,
            plate: plateOf(v.plate_digits, v.plate_letters) ?? v.plate,
            latest: pos.get(v.id) ?? null,
            loadId: s?.loadId ?? null,
            referenceId: s?.referenceId ?? null,
            driverName: s?.driverName ?? null,
          };
        }),
      };
    },

    // ---------- payment follow-through ----------

    /**
     * The awarded carrier marks the payment received (now), after delivery: the driver completed
     * the job or the shipment is completed. Publishes 'load.payment_received'. Errors: NOT_FOUND
     * (not a party), FORBIDDEN (the shipper), INVALID_TRANSITION (cancelled), NOT_DELIVERED_YET,
     * PAYMENT_ALREADY_RECEIVED.
     */
    async paymentReceived(user: CurrentUser, loadId: string) {
      const at = now();
      await db.transaction(async (tx) => {
        const trip = await loads.trip(tx, loadId, true);
        if (!trip || (user.id !== trip.carrier_id && user.id !== trip.shipper_id)) throw new AppError('NOT_FOUND');
        if (user.id !== trip.carrier_id) throw new AppError('FORBIDDEN');
        if (trip.status === 'cancelled') throw new AppError('INVALID_TRANSITION');
        if (!trip.delivered_at && trip.status !== 'completed') throw new AppError('NOT_DELIVERED_YET');
        if (trip.payment_received_at) throw new AppError('PAYMENT_ALREADY_RECEIVED');
        await loads.markPaymentReceived(tx, loadId, at);
        const days = trip.delivered_at ? round1((at.getTime() - new Date(trip.delivered_at).getTime()) / 86_400_000) : null;
        await loads.event(tx, 'load.payment_received', loadId, trip.shipper_id, actingUser(user), { at: at.toISOString(), daysToPay: days });
      });
      return { loadId, paymentReceivedAt: at.toISOString() };
    },

    /** A shipper's mean days from delivery to payment received over its newest 50 paid shipments (one decimal; null when none). */
    async daysToPay(shipperId: string): Promise<DaysToPay> {
      const r = await repo.daysToPay(db, shipperId, DAYS_TO_PAY_WINDOW);
      return { shipperId, averageDays: r.n > 0 && r.avg_days !== null ? round1(r.avg_days) : null, count: r.n };
    },
  };
  return svc;
}

/** 409 naming the step the server expects next. */
function outOfOrder(last: TripStep | null) {
  return new AppError('TRIP_STEP_OUT_OF_ORDER', { errors: [{ path: 'step', message: nextTripStep(last) ?? 'completed' }] });
}

export type TripsService = ReturnType<typeof createTripsService>;
