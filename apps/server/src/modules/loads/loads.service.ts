import { z } from 'zod';
import {
  loadTransition,
  loadStatusesAllowing,
  LOAD_ACTION_EVENT,
  type LoadAction,
  type LoadStatus,
  EDITABLE_LOAD_STATUSES,
  ratePerKmSar,
  type DomainEventInput,
  type LoadTimelineEntry,
  type DomainEventType,
  STOP_TYPE,
  type createLoadBody,
  type Load,
  type MyLoadsTab,
  type StopInput,
  type CargoLineInput,
  type updateLoadBody,
  type changeAudienceBody,
  type extendDatesBody,
  loadListResponse,
  ACTIVE_LOAD_STATUSES,
  EXTEND_DATES_MAX_DAYS,
  SHIPMENT_TYPE,
} from '@masar/shared';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { RoutingGateway } from '../../gateways/routing/routing.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { requireApproved } from '../../lib/access.ts';
import { loadTimeline, publish } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './loads.repository.ts';
import type { BoardCacheStore } from './board-cache.ts';

export interface LoadsDeps {
  /** The primary: writes and read-your-writes reads (details, my loads). */
  db: Db;
  /**
   * Where the board search and its cache version are read (DATABASE_READ_URL's replica, or the
   * primary): both from the same server, see searchJson.
   */
  readDb?: Db;
  config: Pick<Config, 'LOAD_EXPIRY_HOURS_AFTER_PICKUP'> & Partial<Pick<Config, 'SEARCH_CACHE_TTL_MS'>>;
  routing: RoutingGateway;
  offers: OffersOfLoad;
  /** The accounts my vendors map to (modules/vendors; vendor shipments). */
  vendors: VendorsOfLoad;
  /** Where board pages are cached (none: every search runs the SQL). */
  cache?: BoardCacheStore;
  /** Blocks between users (modules/relations; issue 8): hidden loads on the board and in details. */
  relations?: BlocksOfViewer;
}

/** What the loads module asks of the relations module (which owns user_blocks; injected by the container). */
export interface BlocksOfViewer {
  /** The users hidden from `viewerId`: those it blocked and those that blocked it. */
  hidden(db: DbOrTx, viewerId: string): Promise<string[]>;
  blockedBetween(db: DbOrTx, a: string, b: string): Promise<boolean>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Stops and cargo as given by a client (cityId, date…), resolved against the reference data. */
interface Derived {
  stops: repo.NewStop[];
  cargo: repo.NewCargo[];
  distanceKm: number;
  totalWeightKg: number;
  pickup: repo.NewStop;
  drop: repo.NewStop;
}

/**
 * Loads (spec §2 post shipment / my shipments / load search, §4 states, §5 rules; issue 2):
 * create, read, edit, delete, unpost/repost/duplicate, the board search and my-loads tabs.
 * No HTTP here; SQL lives in loads.repository.ts.
 */
/**
 * The loads module's side of booking (issue 6: one owner per table): the offers module calls
 * these inside its own transaction. `stateForOffer` locks the load row first ('update' while
 * answering, 'share' while bidding), so racing answers on one load queue up, never deadlock.
 */
export const loadLifecycle = {
  stateForOffer: async (tx: DbOrTx, loadId: string, lock: 'share' | 'update' | 'none') => {
    const s = await repo.loadState(tx, loadId, lock);
    return s ? { id: s.id, shipper_id: s.shipper_id, carrier_id: s.carrier_id, status: s.status, expired: s.expired, deleted: s.deleted } : null;
  },
  book: (tx: DbOrTx, loadId: string, carrierId: string, priceSar: string) => repo.bookLoad(tx, loadId, carrierId, priceSar),
  /** The board changed (a load was booked): call as the last statement of the transaction. */
  boardChanged: (tx: DbOrTx) => repo.bumpBoardVersion(tx),
  /** A booked shipment for the trip modules (assignment, Bayan, driver trip); locked FOR UPDATE when `lock`. */
  trip: (db: DbOrTx, loadId: string, lock = false) => repo.tripLoad(db, loadId, lock),
  /**
   * Apply one lifecycle action (packages/shared rules/lifecycle.ts) inside the caller's
   * transaction: refuses with INVALID_TRANSITION when the table does not allow it from the
   * load's current status, writes the status (and `set`) with a conditional update, and
   * publishes the action's event (`LOAD_ACTION_EVENT`) with `data` for the timeline.
   * Returns the new status.
   */
  async transition(
    tx: DbOrTx,
    loadId: string,
    action: LoadAction,
    actorId: string | null,
    data: Record<string, unknown> = {},
    set: repo.TransitionSet = {},
  ): Promise<LoadStatus> {
    const s = await repo.loadState(tx, loadId, 'update');
    if (!s || s.deleted) throw new AppError('NOT_FOUND');
    const to = loadTransition(s.status as LoadStatus, action);
    if (!to) throw new AppError('INVALID_TRANSITION');
    if (!(await repo.transitionRow(tx, loadId, loadStatusesAllowing(action), to, set))) throw new AppError('INVALID_TRANSITION');
    await publish(tx, loadEvent(LOAD_ACTION_EVENT[action], loadId, s.shipper_id, actorId, { from: s.status, to, ...data }));
    return to;
  },
  /** The driver completed the job (proof of drop): record the delivery time (days-to-pay counts from it). */
  async markDelivered(tx: DbOrTx, loadId: string, at: Date): Promise<void> {
    await repo.updateLoadRow(tx, loadId, { deliveredAt: at });
  },
  /** The awarded carrier was paid: record the date (the shipper's average days-to-pay). */
  async markPaymentReceived(tx: DbOrTx, loadId: string, at: Date): Promise<void> {
    await repo.updateLoadRow(tx, loadId, { paymentReceivedAt: at });
  },
  /**
   * May `userId` bid on the load? Marketplace shipments: anyone (the offers module checks the
   * rest); vendor shipments: only the accounts of the chosen vendors; own-vehicle: nobody.
   */
  async mayBid(tx: DbOrTx, loadId: string, userId: string): Promise<boolean> {
    const s = await repo.loadState(tx, loadId, 'none');
    if (!s) return false;
    if (s.shipment_type === SHIPMENT_TYPE.vendor) return repo.isLoadVendor(tx, loadId, userId);
    return s.shipment_type !== SHIPMENT_TYPE.ownVehicle;
  },
  /** Publish a load event that is not a status change (a trip step, a flagged proof, payment received). */
  event: (tx: DbOrTx, type: DomainEventType, loadId: string, shipperId: string, actorId: string | null, data: Record<string, unknown>) =>
    publish(tx, loadEvent(type, loadId, shipperId, actorId, data)),
};

/** What the loads module asks of the offers module (which owns offers; injected by the container). */
export interface OffersOfLoad {
  closePending(tx: DbOrTx, loadId: string): Promise<number>;
  deleteAll(tx: DbOrTx, loadId: string): Promise<void>;
  /** A booked shipment was cancelled: its accepted offer becomes cancelled. */
  cancelAccepted(tx: DbOrTx, loadId: string): Promise<number>;
  hasOfferBy(db: DbOrTx, loadId: string, carrierId: string): Promise<boolean>;
}

/** What the loads module asks of the vendors module (injected by the container). */
export interface VendorsOfLoad {
  /** The account of each vendor of `ownerId` among `vendorIds` (absent: not mine or deleted; null: no account). */
  accounts(tx: DbOrTx, ownerId: string, vendorIds: string[]): Promise<{ vendorId: string; userId: string | null }[]>;
}

/** The shipment-term columns of a create or edit body (only the fields given). */
type TermsBody = Partial<
  Pick<
    z.output<typeof createLoadBody>,
    | 'pickupLatest'
    | 'pickupHours'
    | 'dropHours'
    | 'paymentMethod'
    | 'paidBy'
    | 'paymentTermsDays'
    | 'detentionFreeHours'
    | 'detentionRateSar'
    | 'deliveryType'
    | 'deliveryTo'
    | 'tradable'
  >
>;
function termColumns(b: TermsBody): Partial<repo.NewLoad> {
  const out: Partial<repo.NewLoad> = {};
  if (b.pickupLatest !== undefined) out.pickupLatestAt = new Date(b.pickupLatest);
  if (b.pickupHours !== undefined) Object.assign(out, { pickupHoursFrom: b.pickupHours.from, pickupHoursTo: b.pickupHours.to });
  if (b.dropHours !== undefined) Object.assign(out, { dropHoursFrom: b.dropHours.from, dropHoursTo: b.dropHours.to });
  if (b.paymentMethod !== undefined) out.paymentMethod = b.paymentMethod;
  if (b.paidBy !== undefined) out.paidBy = b.paidBy;
  if (b.paymentTermsDays !== undefined) out.paymentTermsDays = b.paymentTermsDays;
  if (b.detentionFreeHours !== undefined) out.detentionFreeHours = b.detentionFreeHours;
  if (b.detentionRateSar !== undefined) out.detentionRate = b.detentionRateSar;
  if (b.deliveryType !== undefined) out.deliveryType = b.deliveryType;
  if (b.deliveryTo !== undefined) out.deliveryTo = b.deliveryTo;
  if (b.tradable !== undefined) out.tradable = b.tradable;
  return out;
}

/** An event about a load (DESIGN §3 outbox). */
/** A load event; `data.shipperId` names the load's owner (webhooks deliver to the parties). */
const loadEvent = (type: DomainEventType, loadId: string, shipperId: string, actorId: string | null, data: Record<string, unknown>): DomainEventInput => ({
  type,
  aggregateType: 'load',
  aggregateId: loadId,
  actorId,
  data: { shipperId, ...data },
});

export function createLoadsService(deps: LoadsDeps) {
  const { db, config, routing, offers, vendors, cache, relations } = deps;
  const readDb = deps.readDb ?? db;
  const cacheTtlMs = config.SEARCH_CACHE_TTL_MS ?? 0;

  async function checkEquipment(tx: DbOrTx, code: string) {
    if (!(await repo.equipmentExists(tx, code))) throw new AppError('INVALID_EQUIPMENT');
  }

  /** Resolve cities and goods types; compute distance (routing gateway), weight, first pickup and last drop. */
  async function derive(tx: DbOrTx, stops: StopInput[], cargo: CargoLineInput[] | repo.NewCargo[]): Promise<Derived> {
    const cities = await repo.findCities(
      tx,
      stops.map((s) => s.cityId),
    );
    const bad = stops.findIndex((s) => !cities.has(s.cityId));
    if (bad >= 0) throw new AppError('INVALID_CITY', { errors: [{ path: `stops.${bad}.cityId`, message: 'INVALID_CITY' }] });
    // a district must be one of its stop's city (reference ids are 11 digits: bigint)
    const districtIds = stops.flatMap((s) => (s.districtId == null ? [] : [s.districtId]));
    if (districtIds.length) {
      const cityOf = await repo.districtCities(tx, districtIds);
      const wrong = stops.findIndex((s) => s.districtId != null && cityOf.get(s.districtId) !== s.cityId);
      if (wrong >= 0) throw new AppError('INVALID_DISTRICT', { errors: [{ path: `stops.${wrong}.districtId`, message: 'INVALID_DISTRICT' }] });
    }
    const stopRows: repo.NewStop[] = stops.map((s, i) => {
      const c = cities.get(s.cityId)!;
      return {
        id: newId(),
        idx: i,
        stopType: s.stopType,
        cityId: s.cityId,
        districtId: s.districtId ?? null,
        address: s.address ?? null,
        addressDetails: s.addressDetails ?? null,
        lat: c.lat,
        lng: c.lng,
        date: new Date(s.date),
      };
    });
    const cargoRows: repo.NewCargo[] = cargo.map((c, i) =>
      'idx' in c
        ? { ...c, id: newId(), idx: i }
        : {
            id: newId(),
            idx: i,
            goodsType: c.goodsType,
            lengthCm: c.lengthCm,
            widthCm: c.widthCm,
            heightCm: c.heightCm,
            quantity: c.quantity,
            weightPerItemKg: c.weightPerItemKg,
            stackable: c.stackable ?? false,
            adr: c.adr ?? false,
            conditions: c.conditions ?? null,
          },
    );
    const unknown = await repo.unknownGoodsTypes(
      tx,
      cargoRows.map((c) => c.goodsType),
    );
    if (unknown.length) {
      const i = cargoRows.findIndex((c) => unknown.includes(c.goodsType));
      throw new AppError('INVALID_GOODS_TYPE', { errors: [{ path: `cargo.${i}.goodsType`, message: 'INVALID_GOODS_TYPE' }] });
    }
    const distanceKm = await routing.distanceKm(stopRows.map((s) => ({ lat: s.lat, lng: s.lng })));
    const totalWeightKg = round2(cargoRows.reduce((sum, c) => sum + c.quantity * c.weightPerItemKg, 0));
    const pickup = stopRows.find((s) => s.stopType === STOP_TYPE.pickup)!;
    const drop = [...stopRows].reverse().find((s) => s.stopType === STOP_TYPE.drop)!;
    return { stops: stopRows, cargo: cargoRows, distanceKm, totalWeightKg, pickup, drop };
  }

  /** Denormalised columns of a load from its stops, distance and price. */
  function loadColumns(d: Derived, price: string): Partial<repo.NewLoad> {
    return {
      price,
      distanceKm: d.distanceKm,
      // a load inside one city (distance < 1 km) is priced per its first km
      ratePerKm: ratePerKmSar(price, Math.max(d.distanceKm, 1)),
      totalWeightKg: d.totalWeightKg,
      pickupCityId: d.pickup.cityId,
      pickupLat: d.pickup.lat,
      pickupLng: d.pickup.lng,
      pickupAt: d.pickup.date,
      dropCityId: d.drop.cityId,
      dropLat: d.drop.lat,
      dropLng: d.drop.lng,
      dropAt: d.drop.date,
      expiresAt: new Date(d.pickup.date.getTime() + config.LOAD_EXPIRY_HOURS_AFTER_PICKUP * HOUR_MS),
    };
  }

  /** The users whose loads `viewerId` may not see (a block either way); none for anonymous viewers. */
  const hiddenFrom = async (viewerId: string | null): Promise<string[]> => (viewerId && relations ? relations.hidden(db, viewerId) : []);

  async function get(id: string, viewerId: string | null, via: DbOrTx = db): Promise<Load> {
    const row = await repo.findLoad(via, id);
    if (!row) throw new AppError('NOT_FOUND');
    const owner = viewerId != null && row.shipper_id === viewerId;
    const carrier = viewerId != null && row.carrier_id === viewerId;
    const bidder = viewerId != null && !owner && !carrier && (await offers.hasOfferBy(via, id, viewerId));
    if (row.deleted_at && !bidder) throw new AppError('NOT_FOUND');
    const onBoard = row.status === 'posted' || row.status === 'expired';
    if (!onBoard && !owner && !carrier && !bidder) throw new AppError('NOT_FOUND');
    // a block either way hides the shipper's loads (issue 8); the parties of a booking keep theirs
    if (viewerId != null && !owner && !carrier && relations && (await relations.blockedBetween(via, viewerId, row.shipper_id))) throw new AppError('NOT_FOUND');
    // a vendor shipment is visible to its chosen vendors only; an own-vehicle one to its owner
    if (!owner && !carrier && !bidder && row.shipment_type !== SHIPMENT_TYPE.marketplace) {
      if (row.shipment_type !== SHIPMENT_TYPE.vendor || viewerId == null || !(await repo.isLoadVendor(via, id, viewerId))) throw new AppError('NOT_FOUND');
    }
    const bookmarked = viewerId != null && (await repo.bookmarkedAmong(via, viewerId, [id])).has(id);
    return repo.toLoad(row, viewerId, undefined, bookmarked);
  }

  /**
   * The accounts of the chosen vendors (shipment type 2): each must be one of my vendors
   * (NOT_FOUND otherwise) with a registered carrier or broker account (VENDOR_NOT_LINKED).
   */
  async function vendorAudience(tx: DbOrTx, user: CurrentUser, vendorIds: string[]): Promise<{ vendorId: string; userId: string }[]> {
    const found = new Map((await vendors.accounts(tx, user.id, vendorIds)).map((r) => [r.vendorId, r.userId]));
    return vendorIds.map((vendorId, i) => {
      if (!found.has(vendorId)) throw new AppError('NOT_FOUND', { errors: [{ path: `vendorIds.${i}`, message: 'NOT_FOUND' }] });
      const userId = found.get(vendorId);
      if (!userId) throw new AppError('VENDOR_NOT_LINKED', { errors: [{ path: `vendorIds.${i}`, message: 'VENDOR_NOT_LINKED' }] });
      return { vendorId, userId };
    });
  }

  /** An own-vehicle shipment is booked at once (lifecycle 'book': unassigned, carrier = owner). */
  async function bookOwnVehicle(tx: DbOrTx, user: CurrentUser, id: string, price: string, data: Record<string, unknown>) {
    await loadLifecycle.transition(tx, id, 'book', user.id, { ownVehicle: true, ...data }, { carrierId: user.id });
    await repo.updateLoadRow(tx, id, { bookedPrice: price, bookedAt: new Date() });
  }

  /** The pickup window's end may not be before the first pickup nor after the last drop. */
  function checkWindow(latest: Date | null | undefined, d: Derived) {
    if (!latest) return;
    if (latest < d.pickup.date) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'pickupLatest', message: 'v.pickupWindow' }] });
    if (latest > d.drop.date) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'pickupLatest', message: 'v.pickupWindowDrop' }] });
  }

  /** The load of `id` owned by `user`, locked for the rest of the transaction. */
  async function ownLoad(tx: DbOrTx, user: CurrentUser, id: string): Promise<repo.LoadState> {
    const s = await repo.loadState(tx, id, 'update');
    if (!s || s.deleted || s.shipper_id !== user.id) throw new AppError('NOT_FOUND');
    return s;
  }

  return {
    get,

    /** The load's timeline, for its shipper and its booked carrier only (404 otherwise). */
    async timeline(user: CurrentUser, id: string): Promise<LoadTimelineEntry[]> {
      const s = await repo.loadState(db, id, 'none');
      if (!s || (s.shipper_id !== user.id && s.carrier_id !== user.id)) throw new AppError('NOT_FOUND');
      return loadTimeline(db, id);
    },

    /**
     * The expiry job (issue 6): posted loads past their expiry become `expired` in the row, each
     * with a load.expired event in the same transaction. Batches of `batch`; returns how many.
     */
    async expireDue(batch = 500): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await db.transaction(async (tx) => {
          const rows = await repo.expireDue(tx, batch);
          for (const r of rows) await publish(tx, loadEvent('load.expired', r.id, r.shipper_id, null, {}));
          if (rows.length) await repo.bumpBoardVersion(tx);
          return rows.length;
        });
        total += n;
        if (n < batch) return total;
      }
    },

    /**
     * Post (or save unposted) a load. `outer`: run inside the caller's transaction (a savepoint),
     * e.g. a CSV import chunk that commits the load together with its cursor.
     */
    async create(user: CurrentUser, body: z.output<typeof createLoadBody>, outer?: DbOrTx): Promise<Load> {
      requireApproved(user);
      const type = body.shipmentType ?? SHIPMENT_TYPE.marketplace;
      const ownVehicle = type === SHIPMENT_TYPE.ownVehicle;
      const post = body.post !== false && !ownVehicle;
      // the id is made inside the transaction and returned by it: a retry of a request that died
      // after this commit replays the result (Idempotency-Key journal) and reads the same load back
      const id = await (outer ?? db).transaction(async (tx) => {
        const id = newId();
        await checkEquipment(tx, body.equipmentType);
        const audience = type === SHIPMENT_TYPE.vendor ? await vendorAudience(tx, user, body.vendorIds ?? []) : [];
        const d = await derive(tx, body.stops, body.cargo);
        checkWindow(body.pickupLatest ? new Date(body.pickupLatest) : null, d);
        const now = new Date();
        await repo.insertLoad(
          tx,
          {
            id,
            referenceId: await repo.nextReference(tx),
            shipperId: user.id,
            status: post ? 'posted' : 'unposted',
            loadType: body.loadType,
            equipmentType: body.equipmentType,
            shipmentType: type,
            comments: body.comments ?? null,
            postedAt: post ? now : null,
            ...termColumns(body),
            ...(loadColumns(d, body.priceSar) as Required<
              Pick<
                repo.NewLoad,
                | 'price'
                | 'distanceKm'
                | 'ratePerKm'
                | 'totalWeightKg'
                | 'pickupCityId'
                | 'pickupLat'
                | 'pickupLng'
                | 'pickupAt'
                | 'dropCityId'
                | 'dropLat'
                | 'dropLng'
                | 'dropAt'
              >
            >),
          },
          d.stops,
          d.cargo,
        );
        if (audience.length) await repo.setLoadVendors(tx, id, audience);
        if (post) await publish(tx, loadEvent('load.posted', id, user.id, user.id, { priceSar: body.priceSar, shipmentType: type }));
        if (ownVehicle) await bookOwnVehicle(tx, user, id, body.priceSar, {});
        return id;
      });
      return get(id, user.id, outer);
    },

    /**
     * Edit a posted or unposted load. stops/cargo replace the whole list. Changing the stop
     * cities (origin, destination or a stop in between) or the equipment deletes every offer
     * on the load (spec §4). Distance, rate per km and expiry are recomputed. One transaction.
     */
    async update(user: CurrentUser, id: string, body: z.output<typeof updateLoadBody>): Promise<{ load: Load; offersDeleted: boolean }> {
      requireApproved(user);
      let offersDeleted = false;
      await db.transaction(async (tx) => {
        const s = await ownLoad(tx, user, id);
        if (!(EDITABLE_LOAD_STATUSES as readonly string[]).includes(s.status)) throw new AppError('LOAD_NOT_EDITABLE');
        const current = await repo.rawLoad(tx, id);
        const existing = await repo.stopsAndCargo(tx, id);
        if (body.equipmentType !== undefined) await checkEquipment(tx, body.equipmentType);
        const stops: StopInput[] =
          body.stops ??
          existing.stops.map((x) => ({
            stopType: x.stopType as 1 | 2,
            cityId: x.cityId,
            districtId: x.districtId ?? undefined,
            address: x.address ?? undefined,
            addressDetails: x.addressDetails ?? undefined,
            date: x.date.toISOString(),
          }));
        const d = await derive(tx, stops, body.cargo ?? existing.cargo);
        checkWindow(body.pickupLatest !== undefined ? new Date(body.pickupLatest) : current.pickupLatestAt, d);
        const price = body.priceSar ?? current.price;
        const citiesChanged = body.stops !== undefined && body.stops.map((x) => x.cityId).join(',') !== existing.stops.map((x) => x.cityId).join(',');
        const equipmentChanged = body.equipmentType !== undefined && body.equipmentType !== s.equipment_type;
        if (citiesChanged || equipmentChanged) {
          await offers.deleteAll(tx, id);
          offersDeleted = true;
        }
        if (body.stops) await repo.replaceStops(tx, id, d.stops);
        if (body.cargo) await repo.replaceCargo(tx, id, d.cargo);
        await repo.updateLoadRow(tx, id, {
          ...loadColumns(d, price),
          ...(body.loadType !== undefined ? { loadType: body.loadType } : {}),
          ...(body.equipmentType !== undefined ? { equipmentType: body.equipmentType } : {}),
          ...(body.comments !== undefined ? { comments: body.comments } : {}),
          ...termColumns(body),
        });
        await publish(tx, loadEvent('load.edited', id, user.id, user.id, { offersReset: offersDeleted, fields: Object.keys(body) }));
        await repo.bumpBoardVersion(tx);
      });
      return { load: await get(id, user.id), offersDeleted };
    },

    /**
     * Cancel (soft delete: status cancelled, deleted_at set) as lifecycle.ts allows: on the board,
     * unposted, expired, or booked without a truck (`unassigned`; the accepted offer is cancelled).
     * Pending offers close. Once a truck is assigned the Bayan path cancels instead.
     */
    async remove(user: CurrentUser, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const s = await ownLoad(tx, user, id);
        if (!loadTransition(s.status as LoadStatus, 'cancel')) throw new AppError('LOAD_NOT_EDITABLE');
        await repo.updateLoadRow(tx, id, { status: 'cancelled', deletedAt: new Date() });
        await offers.closePending(tx, id);
        await offers.cancelAccepted(tx, id);
        await publish(tx, loadEvent('load.cancelled', id, user.id, user.id, { previousStatus: s.status }));
        await repo.bumpBoardVersion(tx);
      });
    },

    /** Take a posted load off the board (spec §4 posted ⇄ unposted). */
    async unpost(user: CurrentUser, id: string): Promise<Load> {
      await db.transaction(async (tx) => {
        const s = await ownLoad(tx, user, id);
        if (s.expired || !loadTransition(s.status as LoadStatus, 'unpost')) throw new AppError('LOAD_NOT_EDITABLE');
        await repo.updateLoadRow(tx, id, { status: 'unposted' });
        await publish(tx, loadEvent('load.unposted', id, user.id, user.id, {}));
        await repo.bumpBoardVersion(tx);
      });
      return get(id, user.id);
    },

    /**
     * Put an unposted (or expired) load back on the board, optionally with new stop dates (same
     * count and order as its stops). Needs a future first pickup (spec §5).
     */
    async repost(user: CurrentUser, id: string, stopDates: string[] | undefined): Promise<Load> {
      requireApproved(user);
      await db.transaction(async (tx) => {
        const s = await ownLoad(tx, user, id);
        if (!(EDITABLE_LOAD_STATUSES as readonly string[]).includes(s.status)) throw new AppError('LOAD_NOT_EDITABLE');
        const { stops } = await repo.stopsAndCargo(tx, id);
        if (stopDates && stopDates.length !== stops.length) {
          throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'stopDates', message: `${stops.length}` }] });
        }
        const dates = stops.map((x, i) => (stopDates ? new Date(stopDates[i]) : x.date));
        for (let i = 1; i < dates.length; i++) {
          if (dates[i] < dates[i - 1]) throw new AppError('VALIDATION_FAILED', { errors: [{ path: `stopDates.${i}`, message: 'v.stopsOrder' }] });
        }
        const firstPickup = dates[stops.findIndex((x) => x.stopType === STOP_TYPE.pickup)];
        if (!(firstPickup.getTime() > Date.now())) throw new AppError('REPOST_NEEDS_FUTURE_PICKUP');
        if (stopDates) {
          for (let i = 0; i < stops.length; i++) {
            await repo.setStopDate(tx, stops[i].id, dates[i]);
          }
        }
        const lastDrop = dates[stops.length - 1 - [...stops].reverse().findIndex((x) => x.stopType === STOP_TYPE.drop)];
        await repo.updateLoadRow(tx, id, {
          status: 'posted',
          postedAt: new Date(),
          pickupAt: firstPickup,
          dropAt: lastDrop,
          expiresAt: new Date(firstPickup.getTime() + config.LOAD_EXPIRY_HOURS_AFTER_PICKUP * HOUR_MS),
        });
        await publish(tx, loadEvent('load.posted', id, user.id, user.id, { repost: true, pickupAt: firstPickup.toISOString() }));
        await repo.bumpBoardVersion(tx);
      });
      return get(id, user.id);
    },

    /** Copy a load of mine as a new unposted load with a new reference (same stops and cargo). */
    async duplicate(user: CurrentUser, id: string): Promise<Load> {
      requireApproved(user);
      const copyId = newId();
      await db.transaction(async (tx) => {
        const s = await repo.loadState(tx, id);
        if (!s || s.shipper_id !== user.id) throw new AppError('NOT_FOUND');
        const src = await repo.rawLoad(tx, id);
        const { stops, cargo } = await repo.stopsAndCargo(tx, id);
        const now = new Date();
        await repo.insertLoad(
          tx,
          {
            ...src,
            id: copyId,
            referenceId: await repo.nextReference(tx),
            status: 'unposted',
            postedAt: null,
            carrierId: null,
            bookedPrice: null,
            bookedAt: null,
            vehicleId: null,
            driverId: null,
            trailerId: null,
            assignedAt: null,
            deliveredAt: null,
            paymentReceivedAt: null,
            // an own-vehicle copy goes to the marketplace (the owner may change its audience)
            shipmentType: src.shipmentType === SHIPMENT_TYPE.ownVehicle ? SHIPMENT_TYPE.marketplace : src.shipmentType,
            deletedAt: null,
            createdAt: now,
            updatedAt: now,
          },
          stops.map(({ loadId: _l, ...x }) => ({ ...x, id: newId() })),
          cargo.map(({ loadId: _l, ...x }) => ({ ...x, id: newId() })),
        );
        if (src.shipmentType === SHIPMENT_TYPE.vendor) await repo.copyLoadVendors(tx, id, copyId);
      });
      return get(copyId, user.id);
    },

    /**
     * Change where a posted, unposted or expired shipment goes (spec §3 carrier source):
     * marketplace (1) or the chosen vendors (2, each linked to an account, else
     * VENDOR_NOT_LINKED); narrowing to vendors closes the pending offers (bidders outside the new
     * audience can no longer book). Own vehicle (3) books it at once (lifecycle 'book':
     * unassigned, carrier = owner) and closes the pending offers. Publishes load.edited
     * { audience: { from, to } } (and load.booked for 3). LOAD_NOT_EDITABLE once booked.
     */
    async changeAudience(user: CurrentUser, id: string, body: z.output<typeof changeAudienceBody>): Promise<Load> {
      requireApproved(user);
      await db.transaction(async (tx) => {
        const s = await ownLoad(tx, user, id);
        if (!(EDITABLE_LOAD_STATUSES as readonly string[]).includes(s.status)) throw new AppError('LOAD_NOT_EDITABLE');
        const to = body.shipmentType;
        if (to === SHIPMENT_TYPE.ownVehicle && s.expired) throw new AppError('INVALID_TRANSITION');
        const audience = to === SHIPMENT_TYPE.vendor ? await vendorAudience(tx, user, body.vendorIds ?? []) : [];
        await repo.setLoadVendors(tx, id, audience);
        await repo.updateLoadRow(tx, id, { shipmentType: to });
        if (to !== SHIPMENT_TYPE.marketplace) await offers.closePending(tx, id);
        await publish(tx, loadEvent('load.edited', id, user.id, user.id, { audience: { from: s.shipment_type, to }, vendorIds: body.vendorIds ?? [] }));
        if (to === SHIPMENT_TYPE.ownVehicle) {
          const raw = await repo.rawLoad(tx, id);
          await bookOwnVehicle(tx, user, id, raw.price, {});
        }
        await repo.bumpBoardVersion(tx);
      });
      return get(id, user.id);
    },

    /**
     * Extend the pickup (first stop) and/or delivery (last stop) date (spec §2): each may move
     * later by at most EXTEND_DATES_MAX_DAYS (30) days beyond its current date, never earlier,
     * and into the future; the stops must stay in time order and the pickup window keeps its
     * length. Allowed while the load is editable or booked (posted, unposted, expired,
     * unassigned, assigned, pending_bayan); LOAD_NOT_EDITABLE when completed or cancelled,
     * EXTEND_DATES_RANGE when out of range. Publishes load.dates_extended { pickup, delivery }
     * with the old and new dates; a posted load's expiry follows its new pickup.
     */
    async extendDates(user: CurrentUser, id: string, body: z.output<typeof extendDatesBody>): Promise<Load> {
      await db.transaction(async (tx) => {
        const s = await ownLoad(tx, user, id);
        const allowed = [...EDITABLE_LOAD_STATUSES, ...ACTIVE_LOAD_STATUSES] as readonly string[];
        if (!allowed.includes(s.status)) throw new AppError('LOAD_NOT_EDITABLE');
        const { stops } = await repo.stopsAndCargo(tx, id);
        const raw = await repo.rawLoad(tx, id);
        const dates = stops.map((x) => x.date);
        const first = 0;
        const last = stops.length - 1;
        const range = (path: string) => new AppError('EXTEND_DATES_RANGE', { errors: [{ path, message: 'EXTEND_DATES_RANGE' }] });
        const move = (i: number, iso: string, path: string) => {
          const to = new Date(iso);
          const from = dates[i];
          if (to.getTime() < from.getTime() || to.getTime() > from.getTime() + EXTEND_DATES_MAX_DAYS * DAY_MS || to.getTime() <= Date.now()) throw range(path);
          dates[i] = to;
          return { from: from.toISOString(), to: to.toISOString() };
        };
        const data: Record<string, unknown> = {};
        if (body.pickupDate) data.pickup = move(first, body.pickupDate, 'pickupDate');
        if (body.deliveryDate) data.delivery = move(last, body.deliveryDate, 'deliveryDate');
        for (let i = 1; i < dates.length; i++) if (dates[i] < dates[i - 1]) throw range(body.pickupDate && i === 1 ? 'pickupDate' : 'deliveryDate');
        if (body.pickupDate) await repo.setStopDate(tx, stops[first].id, dates[first]);
        if (body.deliveryDate) await repo.setStopDate(tx, stops[last].id, dates[last]);
        const shift = dates[first].getTime() - stops[first].date.getTime();
        const latest = raw.pickupLatestAt ? new Date(raw.pickupLatestAt.getTime() + shift) : null;
        if (latest && latest > dates[last]) throw range('pickupDate');
        await repo.updateLoadRow(tx, id, {
          pickupAt: dates[first],
          dropAt: dates[last],
          pickupLatestAt: latest,
          expiresAt: new Date(dates[first].getTime() + config.LOAD_EXPIRY_HOURS_AFTER_PICKUP * HOUR_MS),
        });
        await publish(tx, loadEvent('load.dates_extended', id, user.id, user.id, data));
        await repo.bumpBoardVersion(tx);
      });
      return get(id, user.id);
    },

    /** Bookmark a load the user may see (404 otherwise); idempotent. */
    async bookmark(user: CurrentUser, id: string): Promise<void> {
      await get(id, user.id);
      await repo.addBookmark(db, user.id, id);
    },
    /** Remove a bookmark (no-op when there is none). */
    async unbookmark(user: CurrentUser, id: string): Promise<void> {
      await repo.removeBookmark(db, user.id, id);
    },

    search: async (q: repo.BoardQuery, viewerId: string | null) => repo.searchBoard(readDb, q, viewerId, await hiddenFrom(viewerId)),

    /**
     * The board search as the JSON text of GET /loads' `data` ({ items, total, totalCapped },
     * validated by loadListResponse), serialized once per cached page. Fresh by construction: the
     * board version is read first and a cached page is served only if it was computed under that
     * same version, so a load booked, cancelled, unposted, edited or expired (each bumps the
     * version in its own transaction) before this search began is never returned; a page also
     * stops at the first expiry among its loads and after SEARCH_CACHE_TTL_MS (new posts do not
     * bump the version: they show up within that TTL). A viewer who owns a load of the page gets
     * it computed (isMine); so does a viewer with blocks, its hidden shippers filtered out (issue 8).
     * Without a cache store or with a TTL of 0, every search runs the SQL.
     */
    async searchJson(q: repo.BoardQuery, viewerId: string | null): Promise<string> {
      // a viewer with blocks (either way) gets its own page, never the shared cache (issue 8)
      const hidden = await hiddenFrom(viewerId);
      if (hidden.length) return JSON.stringify(loadListResponse.parse(await repo.searchBoard(readDb, q, viewerId, hidden)));
      if (!cache || cacheTtlMs <= 0) return JSON.stringify(loadListResponse.parse(await repo.searchBoard(readDb, q, viewerId)));
      const key = JSON.stringify(q);
      // The version and the search come from the SAME server (readDb: the replica, or the
      // primary without one). A replica replays the primary's commits in order, so a search on
      // it sees at least every write the version it read counts. A version read on the primary
      // with the search on a lagging replica would store a page older than its version, and
      // that page would be served as fresh until the next bump (docs/load-board.md).
      const [v, hit] = await Promise.all([repo.boardVersion(readDb), cache.get(key)]);
      const now = Date.now();
      if (hit && hit.v === v && hit.until > now && !(viewerId && hit.shippers.includes(viewerId))) return hit.data;
      const page = loadListResponse.parse(await repo.searchBoard(readDb, q, viewerId));
      const data = JSON.stringify(page);
      if (!page.items.some((l) => l.isMine)) {
        // 1 s before the first expiry: instance clocks and the database's may differ a little
        const firstExpiry = Math.min(...page.items.map((l) => (l.expiresAt ? Date.parse(l.expiresAt) - 1000 : Infinity)));
        const until = Math.min(now + cacheTtlMs, firstExpiry);
        if (until > now) await cache.set(key, { v, data, shippers: [...new Set(page.items.map((l) => l.shipperId))], until });
      }
      return data;
    },

    /** A tab of my loads (repo.myLoads): `skip` ≤ SKIP_MAX or the previous page's `nextCursor`. Read-your-writes: on the primary. */
    myLoads: (user: CurrentUser, tab: MyLoadsTab, limit: number, skip: number, cursor?: string) => repo.myLoads(db, user.id, tab, limit, skip, cursor),
  };
}

export type LoadsService = ReturnType<typeof createLoadsService>;
