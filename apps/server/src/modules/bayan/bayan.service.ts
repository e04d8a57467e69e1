import {
  FLEET_LIMITS,
  formatPlate,
  plateFromStored,
  type BayanListQuery,
  type BayanTripView,
  type CreateBayanBody,
  type LoadBayan,
  type WaybillConfig,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { AppError } from '../../lib/errors.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import {
  BayanRejectedError,
  BayanUnavailableError,
  elmPlate,
  type BayanCancelReason,
  type BayanGateway,
  type BayanTrip,
  type BayanTripInput,
} from '../../gateways/bayan/bayan.ts';
import * as repo from './bayan.repository.ts';
import { transitionTrip } from './lifecycle.ts';
import type { BayanLoads } from './ports.ts';

export type { BayanLoads } from './ports.ts';

export interface BayanDeps {
  db: Db;
  gateway: BayanGateway;
  loads: BayanLoads;
  /** Queue the retry job of a pending trip (pg-boss `bayan.create`), at once or after `startAfterSeconds`. */
  enqueue(tripRowId: string, opts?: { startAfterSeconds?: number }): Promise<void>;
  /** How long a Bayan call may take before the shipment waits in pending_bayan, ms. */
  timeoutMs: number;
  /**
   * After how many seconds a trip still `pending` is known to have lost its request (the
   * process died mid-creation) and its job sends it (issue 22). Raised to timeoutMs + 5 s so a
   * live request is never doubled. Default 30.
   */
  staleSeconds?: number;
  log?: { error(obj: unknown, msg: string): void };
}

/**
 * What other modules may ask of Bayan (the loads module's More Options need `hasBayan`, spec §2):
 * the live Bayan status (pending or active) of each shipment that has one. Read-only, any db/tx.
 */
export const bayanOfLoads = {
  liveStatus: (db: DbOrTx, loadIds: string[]) => repo.liveStatusOfLoads(db, loadIds),
};

/** `YYYY-MM-DD` of an instant in Asia/Riyadh (Bayan dates are local calendar dates). */
export const riyadhDate = (d: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Riyadh', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);

/** Bayan's payment method ids we send: bank transfer (2) until the post form carries the shipment's method (docs/bayan-wasl.md). */
/**
 * The Idempotency-Key sent to Bayan for a trip creation (issue 22): the load and the attempt
 * (the `bayan_trips` reservation row; a new attempt after a cancellation is a new row). The
 * request and its retry job send the same key, so Bayan answers the first trip again instead
 * of filing a second permit when a process died between Bayan's answer and the commit.
 */
export const bayanIdempotencyKey = (loadId: string, reservationId: string) => `masar-bayan-${loadId}-${reservationId}`;

const DEFAULT_PAYMENT_METHOD = 2 as const;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toView(r: repo.TripListRow): BayanTripView {
  return {
    id: r.id,
    loadId: r.loadId,
    loadReferenceId: r.referenceId,
    status: r.status,
    tripId: r.tripId,
    waybillId: r.waybillId,
    waybillNumber: r.waybillNumber,
    vehicleId: r.vehicleId,
    plateText: formatPlate(plateFromStored(r.plateDigits, r.plateLetters)),
    driverId: r.driverId,
    driverName: `${r.driverFirstName} ${r.driverLastName}`.trim(),
    fromEn: r.fromEn,
    fromAr: r.fromAr,
    toEn: r.toEn,
    toAr: r.toAr,
    cancelReason: r.cancelReason,
    deliveredAt: iso(r.deliveredAt),
    attempts: r.attempts,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/**
 * Bayan trips of shipments (issue 7; spec §1, §4, §5). Rules:
 * - Created by the awarded carrier of an `assigned` shipment (the owner for an own-vehicle one)
 *   for the vehicle and driver ASSIGNED on it, both of the carrier's fleet — anything else is
 *   BAYAN_ASSIGNMENT_MISMATCH (a broker cannot file a permit for someone else's truck: stops
 *   double brokering). Vehicle under 3.5 t: BAYAN_UNDER_MIN_WEIGHT. Vehicle and driver must be
 *   WASL verified (WASL_NOT_VERIFIED). One live Bayan per shipment (BAYAN_EXISTS).
 * - The trip is reserved as a `pending` row first (so two requests cannot both file one), then
 *   Bayan is called outside any transaction. Answer → the row becomes `active` with Bayan's ids.
 *   No answer (error or timeout) → in one transaction the row keeps `pending` and the shipment
 *   moves to `pending_bayan`; the `bayan.create` job retries with backoff and on success
 *   records the ids and moves the shipment back to `assigned` in one transaction. Refused (4xx)
 *   → the reservation is removed and BAYAN_REJECTED names Bayan's field errors.
 * - Close (carrier or shipper) → Bayan closes the waybill → shipment `completed`. Cancel with a
 *   reason → Bayan cancels the waybill → shipment `cancelled`.
 * - A trip's status changes only through transitionTrip() (lifecycle.ts: the
 *   BAYAN_TRIP_TRANSITIONS table), which moves the shipment in the same transaction.
 */
export function createBayanService(deps: BayanDeps) {
  const { db, gateway, loads } = deps;
  const staleSeconds = Math.max(deps.staleSeconds ?? 30, Math.ceil(deps.timeoutMs / 1000) + 5);

  async function withTimeout<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BayanUnavailableError(`Bayan did not answer within ${deps.timeoutMs} ms`)), deps.timeoutMs);
    });
    try {
      return await Promise.race([p, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
  /** A gateway failure as the API's error. */
  function gatewayError(e: unknown): never {
    if (e instanceof BayanRejectedError) throw new AppError('BAYAN_REJECTED', { errors: e.errors.map((x) => ({ path: x.path, message: x.code })) });
    if (e instanceof BayanUnavailableError) throw new AppError('BAYAN_UNAVAILABLE');
    throw e;
  }

  async function view(id: string): Promise<BayanTripView> {
    const r = await repo.listRow(db, id);
    if (!r) throw new AppError('NOT_FOUND');
    return toView(r);
  }

  /** The row, if the user is its carrier or shipper (404 otherwise). */
  async function mustTrip(tx: DbOrTx, user: CurrentUser, id: string, lock = false) {
    const r = await repo.getTrip(tx, id, lock);
    if (!r || (r.carrierId !== user.id && r.shipperId !== user.id)) throw new AppError('NOT_FOUND');
    return r;
  }

  /** Build what Bayan is sent, after every check (spec §5; docs/bayan-wasl.md for each field's source). */
  async function prepare(tx: DbOrTx, user: CurrentUser, body: CreateBayanBody) {
    const load = await loads.trip(tx, body.loadId, true);
    if (!load || (load.carrier_id !== user.id && load.shipper_id !== user.id)) throw new AppError('NOT_FOUND');
    if (load.carrier_id !== user.id) throw new AppError('FORBIDDEN');
    if (load.status === 'pending_bayan') throw new AppError('BAYAN_EXISTS');
    if (load.status !== 'assigned') throw new AppError(load.status === 'unassigned' ? 'BAYAN_NOT_ASSIGNED' : 'INVALID_TRANSITION');
    if (!load.vehicle_id || !load.driver_id) throw new AppError('BAYAN_NOT_ASSIGNED');
    const live = await repo.tripOfLoad(tx, load.id);
    if (live && (live.status === 'pending' || live.status === 'active')) throw new AppError('BAYAN_EXISTS');
    // the plate and driver sent are the ones assigned on the shipment, from the awarded carrier's fleet
    if ((body.vehicleId && body.vehicleId !== load.vehicle_id) || (body.driverId && body.driverId !== load.driver_id))
      throw new AppError('BAYAN_ASSIGNMENT_MISMATCH');
    const { vehicle, driver } = await repo.fleetFacts(tx, load.vehicle_id, load.driver_id);
    if (
      !vehicle ||
      !driver ||
      vehicle.ownerId !== load.carrier_id ||
      driver.ownerId !== load.carrier_id ||
      vehicle.state !== 'active' ||
      driver.state !== 'active'
    )
      throw new AppError('BAYAN_ASSIGNMENT_MISMATCH');
    if (vehicle.weightKg < FLEET_LIMITS.waslMinWeightKg) throw new AppError('BAYAN_UNDER_MIN_WEIGHT');
    // WASL applies from 3.5 t (checked above): both must be verified
    if (vehicle.waslStatus !== 'verified' || driver.waslStatus !== 'verified') throw new AppError('WASL_NOT_VERIFIED');
    const facts = await repo.tripFacts(tx, load.id);
    if (!facts) throw new AppError('NOT_FOUND');
    const cfg = await repo.getWaybillConfig(tx, facts.shipperId);
    const sender = cfg
      ? { name: cfg.senderName, phone: cfg.senderPhone, countryCode: 'SA' as const, cityId: cfg.senderCityId, address: cfg.senderAddress }
      : { name: facts.shipperCompany, phone: facts.shipperPhone, countryCode: 'SA' as const, cityId: facts.pickupCityId, address: facts.pickupAddress ?? '-' };
    const input: BayanTripInput = {
      vehicle: { plateTypeId: vehicle.plateType, vehiclePlate: elmPlate(vehicle.plateDigits, vehicle.plateLetters) },
      driver: { identityNumber: driver.idNumber, issueNumber: driver.issueCount ?? 1, mobile: driver.phone },
      receivedDate: riyadhDate(facts.pickupAt),
      expectedDeliveryDate: riyadhDate(facts.dropAt),
      notes: facts.referenceId,
      waybills: [
        {
          sender,
          // the post form names no consignee yet: the shipper receives at the drop address
          recipient: { name: facts.shipperCompany, phone: facts.shipperPhone, countryCode: 'SA', cityId: facts.dropCityId, address: facts.dropAddress ?? '-' },
          items: facts.cargo.map((c) => ({ goodTypeId: c.goodsType, quantity: c.quantity, weight: c.weightKg, price: 0, unitId: 5 })),
          fare: Number(facts.bookedPrice ?? facts.price),
          paymentMethodId: DEFAULT_PAYMENT_METHOD,
          paidBySender: true,
          tradable: false,
          receivingLocation: { countryCode: 'SA', cityId: facts.pickupCityId, address: facts.pickupAddress ?? '-' },
          deliveryLocation: { countryCode: 'SA', cityId: facts.dropCityId, address: facts.dropAddress ?? '-' },
        },
      ],
    };
    return { load, input, vehicleId: vehicle.id, driverId: driver.id };
  }

  /** Record Bayan's answer on a pending row and, if the shipment waits in pending_bayan, move it back to assigned (one transaction: transitionTrip 'create'). */
  async function recordCreated(rowId: string, trip: BayanTrip, actorId: string | null): Promise<boolean> {
    return db.transaction(async (tx) => {
      const row = await repo.getTrip(tx, rowId, true);
      if (!row || row.status !== 'pending') return false;
      const w = trip.waybills[0];
      await transitionTrip(tx, loads, row, 'create', actorId, {
        set: { tripId: trip.tripId, waybillId: w?.waybillId ?? null, waybillNumber: w?.waybillNumber ?? null, lastError: null },
        data: { tripId: trip.tripId, waybillNumber: w?.waybillNumber ?? null },
      });
      return true;
    });
  }

  const svc = {
    /**
     * POST /bayan/trips. Answers `{ trip, created }`: created true (201) with Bayan's trip id and
     * waybill number, or false (202) when Bayan did not answer and the shipment waits in
     * pending_bayan for the retry job. Errors: NOT_FOUND, FORBIDDEN, BAYAN_NOT_ASSIGNED,
     * BAYAN_EXISTS, BAYAN_ASSIGNMENT_MISMATCH, BAYAN_UNDER_MIN_WEIGHT, WASL_NOT_VERIFIED,
     * INVALID_TRANSITION, BAYAN_REJECTED.
     */
    async create(user: CurrentUser, body: CreateBayanBody): Promise<{ trip: BayanTripView; created: boolean }> {
      // the reservation's id comes out of its transaction: a same-key retry after a crash replays
      // that transaction (lib/tx-journal.ts) and carries on with the committed row
      const { load, input, rowId } = await db.transaction(async (tx) => {
        const p = await prepare(tx, user, body);
        const rowId = newId();
        await repo.insertTrip(tx, {
          id: rowId,
          loadId: p.load.id,
          carrierId: user.id,
          shipperId: p.load.shipper_id,
          vehicleId: p.vehicleId,
          driverId: p.driverId,
          status: 'pending',
          request: p.input,
        });
        return { load: { id: p.load.id }, input: p.input, rowId };
      });
      // Crash guard (issue 22): should this process die before Bayan answers, the retry job
      // picks the pending trip up once it is stale (the shipment shows pending Bayan meanwhile);
      // a trip that is no longer pending by then is skipped. The minute sweep covers a death
      // between the commit above and this send.
      await deps.enqueue(rowId, { startAfterSeconds: staleSeconds }).catch((e: unknown) => deps.log?.error({ err: e, rowId }, 'bayan guard job not queued'));
      let trip: BayanTrip;
      try {
        trip = await withTimeout(gateway.createTrip(input, { idempotencyKey: bayanIdempotencyKey(load.id, rowId) }));
      } catch (e) {
        if (e instanceof BayanRejectedError) {
          await repo.deleteTrip(db, rowId);
          gatewayError(e);
        }
        // no answer: the shipment waits in pending_bayan, the job retries (one transaction) —
        // unless the job already created it meanwhile (the row is no longer pending)
        const waits = await db.transaction(async (tx) => {
          const r = await repo.getTrip(tx, rowId, true);
          if (!r || r.status !== 'pending') return false;
          await repo.updateTrip(tx, rowId, { attempts: 1, lastError: (e as Error).message.slice(0, 500) });
          const l = await loads.trip(tx, load.id, true);
          if (l?.status === 'assigned') await loads.transition(tx, load.id, 'bayan_requested', user.id, { reason: 'bayan_unavailable' });
          return true;
        });
        if (waits) await deps.enqueue(rowId);
        const v = await view(rowId);
        return { trip: v, created: v.status === 'active' };
      }
      await recordCreated(rowId, trip, user.id);
      return { trip: await view(rowId), created: true };
    },

    /**
     * The retry job (`bayan.create`): send a pending trip again. Throws while Bayan is
     * unavailable (pg-boss retries with backoff); refused data is recorded as `rejected: …` with
     * a `load.bayan_failed` event and not retried. Idempotent: a row no longer pending is skipped.
     */
    async retryPending(rowId: string): Promise<'created' | 'skipped' | 'rejected'> {
      const row = await repo.getTrip(db, rowId);
      if (!row || row.status !== 'pending') return 'skipped';
      let trip: BayanTrip;
      try {
        trip = await withTimeout(gateway.createTrip(row.request as BayanTripInput, { idempotencyKey: bayanIdempotencyKey(row.loadId, rowId) }));
      } catch (e) {
        if (e instanceof BayanRejectedError) {
          await db.transaction(async (tx) => {
            await repo.updateTrip(tx, rowId, { attempts: row.attempts + 1, lastError: `rejected: ${e.message}`.slice(0, 500) });
            await loads.event(tx, 'load.bayan_failed', row.loadId, row.shipperId, null, { errors: e.errors });
          });
          return 'rejected';
        }
        await repo.updateTrip(db, rowId, { attempts: row.attempts + 1, lastError: (e as Error).message.slice(0, 500) });
        throw e;
      }
      if (await recordCreated(rowId, trip, null)) return 'created';
      // cancelled while Bayan was answering: do not leave a live permit behind
      for (const w of trip.waybills) await gateway.cancelWaybill(w.waybillId, 'recipient_refused').catch(() => undefined);
      return 'skipped';
    },

    /**
     * Pending trips whose job was lost (a process died between the reservation's commit and the
     * send): queue again. Runs every minute (`bayan.sweep`); stale after `staleSeconds`.
     */
    async sweepPending(): Promise<number> {
      const ids = await repo.stalePending(db, staleSeconds);
      for (const id of ids) await deps.enqueue(id);
      return ids.length;
    },

    /** GET /bayan/list: keyset page of the caller's trips (carrier or shipper). */
    async list(user: CurrentUser, q: BayanListQuery): Promise<{ items: BayanTripView[]; nextCursor: string | null }> {
      const rows = await repo.listTrips(
        db,
        user.id,
        {
          status: q.status,
          from: q.from ? new Date(q.from) : undefined,
          to: q.to ? new Date(q.to) : undefined,
          reference: q.reference,
          after: q.cursor ? (({ key, id }) => ({ key: key[0], id }))(decodeCursor(q.cursor, 'bayan', ['timestamptz'])) : undefined,
        },
        q.limit + 1,
      );
      const more = rows.length > q.limit;
      const page = more ? rows.slice(0, q.limit) : rows;
      const last = page[page.length - 1];
      return { items: page.map(toView), nextCursor: more && last ? encodeCursor('bayan', [last.createdKey], last.id) : null };
    },

    get: async (user: CurrentUser, id: string) => {
      await mustTrip(db, user, id);
      return view(id);
    },

    /** GET /bayan/trips?loadId=: the shipment's Bayan for its page (shipper or awarded carrier), or null. */
    async forLoad(user: CurrentUser, loadId: string): Promise<LoadBayan> {
      const load = await loads.trip(db, loadId);
      if (!load || (load.shipper_id !== user.id && load.carrier_id !== user.id)) throw new AppError('NOT_FOUND');
      const r = await repo.tripOfLoad(db, loadId);
      return { bayan: r ? { id: r.id, tripId: r.tripId, waybillNumber: r.waybillNumber, status: r.status } : null };
    },

    /**
     * POST /bayan/trips/:id/close: Bayan closes the waybill with the actual delivery date, then
     * (one transaction) the trip is closed and the shipment completed. Delivery first (issue 22):
     * the driver must have completed the job (proof of drop, loads.delivered_at), or the shipper
     * overrides with `overrideReason`, recorded as a `load.delivery_override` event in the same
     * transaction. Errors: NOT_FOUND, BAYAN_NOT_ACTIVE, INVALID_TRANSITION, NOT_DELIVERED,
     * DELIVERY_OVERRIDE_FORBIDDEN (an override by the carrier), BAYAN_UNAVAILABLE, BAYAN_REJECTED.
     */
    async close(user: CurrentUser, id: string, deliveredAt: Date, overrideReason?: string): Promise<BayanTripView> {
      const row = await mustTrip(db, user, id);
      if (row.status !== 'active' || !row.waybillId) throw new AppError('BAYAN_NOT_ACTIVE');
      const load = await loads.trip(db, row.loadId);
      if (load?.status !== 'assigned') throw new AppError('INVALID_TRANSITION');
      /** The precondition of the bayan_closed transition: delivered, or the shipper's override. */
      const mustBeDelivered = (l: NonNullable<typeof load>) => {
        if (l.delivered_at) return false;
        if (!overrideReason) throw new AppError('NOT_DELIVERED');
        if (l.shipper_id !== user.id) throw new AppError('DELIVERY_OVERRIDE_FORBIDDEN');
        return true;
      };
      mustBeDelivered(load);
      await withTimeout(gateway.closeWaybill(row.waybillId, riyadhDate(deliveredAt))).catch(gatewayError);
      await db.transaction(async (tx) => {
        const r = await mustTrip(tx, user, id, true);
        if (r.status !== 'active') throw new AppError('BAYAN_NOT_ACTIVE');
        const l = await loads.trip(tx, row.loadId, true);
        if (!l) throw new AppError('NOT_FOUND');
        const overridden = mustBeDelivered(l);
        if (overridden) await loads.event(tx, 'load.delivery_override', row.loadId, l.shipper_id, user.id, { reason: overrideReason, action: 'bayan_closed' });
        await transitionTrip(tx, loads, r, 'close', user.id, {
          set: { deliveredAt },
          loadSet: l.delivered_at ? {} : { deliveredAt },
          data: { tripId: row.tripId, waybillNumber: row.waybillNumber },
        });
      });
      return view(id);
    },

    /**
     * POST /bayan/trips/:id/cancel: Bayan cancels the waybill with the reason (a pending trip
     * was never filed: nothing to send), then (one transaction) the trip and the shipment are
     * cancelled. Errors as close.
     */
    async cancel(user: CurrentUser, id: string, reason: BayanCancelReason): Promise<BayanTripView> {
      const row = await mustTrip(db, user, id);
      if (row.status !== 'active' && row.status !== 'pending') throw new AppError('BAYAN_NOT_ACTIVE');
      if (row.status === 'active' && row.waybillId) await withTimeout(gateway.cancelWaybill(row.waybillId, reason)).catch(gatewayError);
      await db.transaction(async (tx) => {
        const r = await mustTrip(tx, user, id, true);
        if (r.status !== 'active' && r.status !== 'pending') throw new AppError('BAYAN_NOT_ACTIVE');
        await transitionTrip(tx, loads, r, 'cancel', user.id, {
          set: { cancelReason: reason },
          data: { tripId: row.tripId, waybillNumber: row.waybillNumber, reason },
        });
      });
      return view(id);
    },

    /** GET /bayan/trips/:id/print: Bayan's PDF of the permit and waybill. */
    async print(user: CurrentUser, id: string): Promise<{ pdf: Buffer; name: string }> {
      const row = await mustTrip(db, user, id);
      if (!row.tripId) throw new AppError('BAYAN_NOT_ACTIVE');
      const pdf = await withTimeout(gateway.printTrip(row.tripId)).catch(gatewayError);
      return { pdf, name: `bayan-${row.waybillNumber ?? row.tripId}` };
    },

    /** GET /account/waybill-config. */
    async waybillConfig(user: CurrentUser): Promise<{ config: WaybillConfig | null }> {
      const c = await repo.getWaybillConfig(db, user.id);
      return { config: c ? { senderName: c.senderName, senderPhone: c.senderPhone, senderAddress: c.senderAddress, senderCityId: c.senderCityId } : null };
    },
    /** PUT /account/waybill-config: the sender defaults of the user's waybills. INVALID_CITY. */
    async putWaybillConfig(user: CurrentUser, b: WaybillConfig): Promise<{ config: WaybillConfig }> {
      if (!(await repo.cityExists(db, b.senderCityId))) throw new AppError('INVALID_CITY');
      await repo.putWaybillConfig(db, { userId: user.id, ...b });
      return { config: b };
    },
  };
  return svc;
}

export type BayanService = ReturnType<typeof createBayanService>;
