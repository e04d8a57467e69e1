import {
  loadTransition,
  type BackhaulsResponse,
  type LoadStatus,
  type LoadTimelineEntry,
  STOP_TYPE,
  type Load,
  type MyLoadsTab,
  SHIPMENT_TYPE,
  INOUT_FIGURES_TTL_MS,
} from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { actingUser } from '../auth/auth.types.ts';
import { requireApproved } from '../../lib/access.ts';
import { loadTimeline } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import { areaWindowKey, ttlMemo } from '../../lib/memo.ts';
import * as authoring from './authoring.repository.ts';
import * as board from './board.repository.ts';
import * as repo from './loads.repository.ts';
import * as mine from './my-loads.repository.ts';
import * as inout from './inout.repository.ts';
import { expireBatch, transition } from './lifecycle.ts';
import { createLoadAuthoring, ownLoad } from './authoring.service.ts';
import { createBoardSearch } from './board.service.ts';
import type { LoadsDeps } from './ports.ts';

export type { LoadsDeps, BlocksOfViewer, OffersOfLoad, VendorsOfLoad } from './ports.ts';
export { loadLifecycle } from './lifecycle.ts';

/**
 * The windows of a shipment's first pickup and last drop, for the fact-based record (modules/records):
 * `pickupAt`/`dropAt` the stop dates, `pickupLatestAt` the latest pickup (null: none set), the
 * closing hours "HH:MM" (Riyadh time; null: none set). Null when the load does not exist.
 */
export async function loadStopWindows(db: DbOrTx, loadId: string) {
  const r = await repo.stopWindows(db, loadId);
  if (!r) return null;
  const at = (v: Date | string) => new Date(v);
  return {
    pickupAt: at(r.pickup_at),
    pickupLatestAt: r.pickup_latest_at ? at(r.pickup_latest_at) : null,
    pickupHoursTo: r.pickup_hours_to,
    dropAt: at(r.drop_at),
    dropHoursTo: r.drop_hours_to,
  };
}

/**
 * A load's lane for the dashboards (issue 20; docs/dashboards.md): origin (first pickup) city id,
 * destination (last drop) city id, the route distance in km and the load's price (SAR decimal
 * text). Null when the load does not exist.
 */
export async function loadLane(
  db: DbOrTx,
  loadId: string,
): Promise<{ originCityId: number; destinationCityId: number; distanceKm: number; priceSar: string } | null> {
  const r = await repo.laneOf(db, loadId);
  return r
    ? { originCityId: Number(r.pickup_city_id), destinationCityId: Number(r.drop_city_id), distanceKm: Number(r.distance_km), priceSar: String(r.price) }
    : null;
}

/**
 * The facts the lane rate index records of a booked load (issue 20; modules/rates): lane (pickup
 * and drop city and region ids), equipment, load type, distance (km), weight (kg), booked price
 * and time, and how it was booked — `via`: `own_vehicle` (shipment type 3), `tender` (an awarded
 * tender on the load), `vendor` (shipment type 2 or a vendor audience), `book_now` (a Book Now load
 * booked at its posted price as named by the shipper: offer price = original = posted price, last
 * named by the shipper), else `offer`. Null when the load does not exist or was never booked.
 */
export async function rateFactsOf(db: DbOrTx, loadId: string) {
  const r = await repo.rateFacts(db, loadId);
  if (!r || !r.carrier_id || !r.booked_price || !r.booked_at) return null;
  const same = (a: string | null, b: string | null) => a !== null && b !== null && Number(a) === Number(b);
  const via: 'own_vehicle' | 'tender' | 'vendor' | 'book_now' | 'offer' =
    r.shipment_type === SHIPMENT_TYPE.ownVehicle || r.carrier_id === r.shipper_id
      ? 'own_vehicle'
      : r.tender_awarded
        ? 'tender'
        : r.shipment_type === SHIPMENT_TYPE.vendor || r.has_vendors
          ? 'vendor'
          : r.book_now && r.offer_last_by === 'shipper' && same(r.offer_price, r.price) && same(r.offer_original_price, r.price)
            ? 'book_now'
            : 'offer';
  return {
    shipperId: r.shipper_id,
    carrierId: r.carrier_id,
    status: r.status as LoadStatus,
    loadType: r.load_type,
    equipment: r.equipment_type,
    distanceKm: Number(r.distance_km),
    weightKg: r.total_weight_kg === null ? null : Math.round(Number(r.total_weight_kg)),
    priceSar: r.booked_price,
    bookedAt: new Date(r.booked_at),
    originCityId: r.pickup_city_id,
    originRegionId: r.pickup_region_id,
    destinationCityId: r.drop_city_id,
    destinationRegionId: r.drop_region_id,
    via,
  };
}
export type RateFacts = NonNullable<Awaited<ReturnType<typeof rateFactsOf>>>;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The backhaul radius when the request names none, km (a spec radius option). */
export const BACKHAUL_RADIUS_KM = 200;
/**
 * How long after its start a backhaul may be picked up, days: the truck's next trip, not one a
 * month later; it also bounds what a city with many open loads reads (docs/load-board.md).
 */
export const BACKHAUL_WINDOW_DAYS = 7;
/** Statuses of a booked shipment that is not finished: its carrier may look for a backhaul. */
const BACKHAUL_STATUSES: readonly string[] = ['unassigned', 'assigned', 'pending_bayan'];
/** 00:00 in Riyadh (UTC+3, no daylight saving) of the day of `d`: "on or after the delivery date". */
export const riyadhDayStart = (d: Date) => new Date(Math.floor((d.getTime() + 3 * HOUR_MS) / DAY_MS) * DAY_MS - 3 * HOUR_MS);

/** A backhaul's anchor and filters (GET /backHaulLoads, GET /truck/:id/backhauls). */
export interface BackhaulsFrom {
  cityId: number;
  /** The first moment a pickup may be at (inclusive). */
  after: Date;
  radiusKm?: number;
  equipmentType?: string;
  limit: number;
}

const km1 = (m: number | null | undefined) => Math.round(Number(m ?? 0) / 100) / 10;
/**
 * An open load as a backhaul or a match for a truck (`BackhaulsResponse` items: SAR strings, km):
 * the row of the loads board's backhaul query or of the trucks module's matching query (same columns).
 */
export const toLoadMatch = (r: board.BackhaulRow): BackhaulsResponse['items'][number] => ({
  id: r.id,
  referenceId: r.reference_id,
  equipmentType: r.equipment_type,
  loadType: r.load_type,
  pickupCityId: Number(r.pickup_city_id),
  pickupCityEn: r.pickup_en,
  pickupCityAr: r.pickup_ar,
  dropCityId: Number(r.drop_city_id),
  dropCityEn: r.drop_en,
  dropCityAr: r.drop_ar,
  pickupAt: new Date(r.pickup_at).toISOString(),
  totalWeightKg: Number(r.total_weight_kg),
  priceSar: Number(r.price).toFixed(2),
  ratePerKmSar: Number(r.rate_per_km).toFixed(2),
  distanceKm: Number(r.distance_km),
  deadheadKm: km1(r.dist_m),
  shipperCompany: r.company,
});

/**
 * Loads (spec §2 post shipment / my shipments / load search, §4 states, §5 rules; issue 2), split
 * along its seams (issue 18): authoring (authoring.service.ts), the board search and its cache
 * (board.service.ts), my loads (my-loads.repository.ts) and the lifecycle (lifecycle.ts: every
 * status change goes through its `transition()`). This file composes them and holds a load's
 * details, its timeline, the owner's lifecycle actions (cancel, unpost, repost), the expiry job,
 * the demo refresh and bookmarks. No HTTP here; SQL lives in the *.repository.ts files.
 */
export function createLoadsService(deps: LoadsDeps) {
  /** The shipment in/out log's counts per area and window, for viewers without blocks (issue 19). */
  const areaFigures = ttlMemo(20_000, INOUT_FIGURES_TTL_MS);
  const { db, config, offers, cache, relations } = deps;
  const readDb = deps.readDb ?? db;
  const cacheTtlMs = config.SEARCH_CACHE_TTL_MS ?? 0;

  /** The users whose loads `viewerId` may not see (a block either way); none for anonymous viewers. */
  const hiddenFrom = async (viewerId: string | null): Promise<string[]> => (viewerId && relations ? relations.hidden(db, viewerId) : []);

  async function get(id: string, viewerId: string | null, via: DbOrTx = db): Promise<Load> {
    const row = await repo.findLoadFor(via, id, viewerId);
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
    return repo.toLoad(row, viewerId, undefined, row.bookmarked);
  }
  /** Open loads picked up near `from.cityId` on or after `from.after` for `viewerId` (board.backhaulLoads), with the anchor's names. */
  async function backhaulsFrom(viewerId: string, from: BackhaulsFrom, names?: { en: string; ar: string }): Promise<BackhaulsResponse> {
    const radiusKm = from.radiusKm ?? BACKHAUL_RADIUS_KM;
    const city = names ?? (await board.cityNames(readDb, from.cityId).then((c) => (c ? { en: c.name_en, ar: c.name_ar } : null)));
    if (!city) throw new AppError('INVALID_CITY');
    const until = new Date(from.after.getTime() + BACKHAUL_WINDOW_DAYS * DAY_MS);
    const rows = await board.backhaulLoads(readDb, {
      cityId: from.cityId,
      after: from.after,
      until,
      radiusKm,
      equipmentType: from.equipmentType,
      viewerId,
      hidden: await hiddenFrom(viewerId),
      limit: from.limit,
    });
    return {
      from: { cityId: from.cityId, cityEn: city.en, cityAr: city.ar, after: from.after.toISOString(), until: until.toISOString(), radiusKm },
      items: rows.map(toLoadMatch),
    };
  }

  return {
    get,
    backhaulsFrom,
    /**
     * Loads written in the caller's transaction changed the board (a bulk create with `outer`, e.g.
     * a CSV import window): bump their places' versions so cached search pages that cover them are
     * read again. The last statement of the caller's transaction, as every board write's bump.
     */
    boardChanged: (tx: DbOrTx, loadIds: string[]) => repo.bumpBoardLoads(tx, loadIds),

    /**
     * Backhauls of a shipment I carry (GET /backHaulLoads; spec §2 backhauls, §7 /backHaulLoads):
     * open marketplace loads picked up within the radius (default 200 km) of its last drop, from
     * its delivery day (Riyadh) for BACKHAUL_WINDOW_DAYS (7), ranked by deadhead then rate per km (highest first).
     * Only the booked carrier (404 for anyone else, the shipper included: the backhaul is the
     * truck's next trip); BACKHAUL_NOT_BOOKED (409) unless unassigned, assigned or pending Bayan.
     */
    async backhauls(user: CurrentUser, loadId: string, q: { radius?: number; equipmentType?: string; limit: number }): Promise<BackhaulsResponse> {
      const a = await board.backhaulAnchor(db, loadId);
      if (!a || a.carrier_id !== user.id) throw new AppError('NOT_FOUND');
      if (!BACKHAUL_STATUSES.includes(a.status)) throw new AppError('BACKHAUL_NOT_BOOKED');
      return backhaulsFrom(
        user.id,
        { cityId: Number(a.drop_city_id), after: riyadhDayStart(new Date(a.drop_at)), radiusKm: q.radius, equipmentType: q.equipmentType, limit: q.limit },
        { en: a.drop_en, ar: a.drop_ar },
      );
    },

    /**
     * The operator's report of flagged re-posts (issue 19; npm run admin -- reposts): loads whose
     * poster had won another shipper's load on the same lane and pickup days, newest first.
     */
    async repostReport(limit = 100) {
      const rows = await repo.repostReport(db, limit);
      return rows.map((r) => ({
        referenceId: r.reference_id,
        postedAt: new Date(r.created_at).toISOString(),
        status: r.status,
        posterCompany: r.poster_company,
        posterPhone: r.poster_phone,
        originalReferenceId: r.original_reference_id,
        originalShipperCompany: r.original_shipper_company,
        lane: `${r.from_en} → ${r.to_en}`,
        pickupAt: new Date(r.pickup_at).toISOString(),
      }));
    },

    /** The load's timeline, for its shipper and its booked carrier only (404 otherwise). */
    async timeline(user: CurrentUser, id: string): Promise<LoadTimelineEntry[]> {
      const s = await repo.loadState(db, id, 'none');
      if (!s || (s.shipper_id !== user.id && s.carrier_id !== user.id)) throw new AppError('NOT_FOUND');
      return loadTimeline(db, id);
    },

    /**
     * The expiry job (issue 6, 18): posted loads past their expiry (read through the index
     * loads_posted_expiry) become `expired`, each through transition() with its load.expired event
     * in the same transaction. Batches of `batch`; returns how many.
     */
    async expireDue(batch = 500): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await db.transaction(async (tx) => {
          const ids = await expireBatch(tx, batch);
          await repo.bumpBoardLoads(tx, ids);
          return ids.length;
        });
        total += n;
        if (n < batch) return total;
      }
    },

    /**
     * Cancel (soft delete: status cancelled, deleted_at set) as lifecycle.ts allows: on the board,
     * unposted, expired, or booked without a truck (`unassigned`; the accepted offer is cancelled).
     * Pending offers close. Once a truck is assigned the Bayan path cancels instead.
     */
    async remove(user: CurrentUser, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const s = await ownLoad(tx, user, id);
        await transition(tx, id, 'cancel', actingUser(user), { previousStatus: s.status }, { deletedAt: new Date() }, 'LOAD_NOT_EDITABLE');
        await offers.closePending(tx, id, actingUser(user));
        await offers.cancelAccepted(tx, id, actingUser(user));
        await repo.bumpBoardLoads(tx, [id]);
      });
    },

    /** Take a posted load off the board (spec §4 posted ⇄ unposted). */
    async unpost(user: CurrentUser, id: string): Promise<Load> {
      await db.transaction(async (tx) => {
        await ownLoad(tx, user, id);
        // a posted load past its expiry counts as expired: the table refuses to unpost it
        await transition(tx, id, 'unpost', actingUser(user), {}, {}, 'LOAD_NOT_EDITABLE');
        await repo.bumpBoardLoads(tx, [id]);
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
        if (!loadTransition(s.expired ? 'expired' : (s.status as LoadStatus), 'repost')) throw new AppError('LOAD_NOT_EDITABLE');
        const { stops } = await authoring.stopsAndCargo(tx, id);
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
            await authoring.setStopDate(tx, stops[i].id, dates[i]);
          }
        }
        const lastDrop = dates[stops.length - 1 - [...stops].reverse().findIndex((x) => x.stopType === STOP_TYPE.drop)];
        await transition(
          tx,
          id,
          'repost',
          actingUser(user),
          { repost: true, pickupAt: firstPickup.toISOString() },
          {
            postedAt: new Date(),
            pickupAt: firstPickup,
            dropAt: lastDrop,
            expiresAt: new Date(firstPickup.getTime() + config.LOAD_EXPIRY_HOURS_AFTER_PICKUP * HOUR_MS),
          },
          'LOAD_NOT_EDITABLE',
        );
        await repo.bumpBoardLoads(tx, [id]);
      });
      return get(id, user.id);
    },

    /**
     * The demo board's nightly refresh (seed/demo-loads.ts, job demo.refresh; DEMO_SEED only): when
     * the earliest pickup among the posted or expired loads of `shipperIds` is before tomorrow, every
     * date of their loads (stops, offers and their history included) moves forward by whole days so
     * that it is tomorrow again; nothing moves past now. Their expired loads whose new expiry is in
     * the future are reposted by their shipper through transition() (load.posted, as a user would),
     * never flipped silently. One transaction; returns the days moved (0: nothing to do).
     */
    async refreshDemo(shipperIds: string[]): Promise<number> {
      const first = await authoring.earliestOpenPickup(db, shipperIds);
      if (!first) return 0;
      const tomorrow = new Date();
      tomorrow.setUTCHours(0, 0, 0, 0);
      tomorrow.setTime(tomorrow.getTime() + DAY_MS);
      const day = new Date(first);
      day.setUTCHours(0, 0, 0, 0);
      const days = Math.round((tomorrow.getTime() - day.getTime()) / DAY_MS);
      if (days <= 0) return 0;
      await db.transaction(async (tx) => {
        await offers.shiftDates(tx, shipperIds, days);
        await authoring.shiftLoadDates(tx, shipperIds, days);
        for (const l of await authoring.expiredBackInDate(tx, shipperIds)) {
          await transition(
            tx,
            l.id,
            'repost',
            l.shipper_id,
            { repost: true, demoRefresh: true, pickupAt: new Date(l.pickup_at).toISOString() },
            { postedAt: new Date() },
          );
        }
        await repo.bumpBoardShippers(tx, shipperIds);
      });
      return days;
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

    ...createLoadAuthoring(deps, get),
    ...createBoardSearch({ readDb, cache, cacheTtlMs, hiddenFrom }),

    /**
     * Shipment in/out (issue 19; spec §2, §7 /loadInOutLogs), asked by the trucks module through
     * its port: one page of open marketplace loads picking up in (out) or delivering to (in) the
     * circle of `a` in its window, with both directions' counts (each stops at COUNT_CAP + 1),
     * read on `readDb`; shippers blocked either way by the viewer are left out (issue 8). The
     * counts of a viewer without blocks are shared for INOUT_FIGURES_TTL_MS per area and window
     * (to the minute) unless `fresh` (…/refresh); the page is always read.
     */
    async inOutLog(a: inout.AreaWindow, direction: 'in' | 'out', limit: number, cursor: string | undefined, viewerId: string | null, fresh = false) {
      const hidden = await hiddenFrom(viewerId);
      const [counts, page] = await Promise.all([
        hidden.length ? inout.inOutCounts(readDb, a, hidden) : areaFigures(`loads:${areaWindowKey(a)}`, () => inout.inOutCounts(readDb, a, []), fresh),
        inout.inOutPage(readDb, a, direction, limit, cursor, viewerId, hidden),
      ]);
      return { counts, ...page };
    },

    /** Marketplace loads first picked up in the circle posted since `since` (not deleted): the load side of the load-to-truck ratio. */
    loadsPostedInArea: (cityId: number, radius: number | null | undefined, since: Date) => inout.postedInArea(readDb, cityId, radius, since),

    /** A tab of my loads (mine.myLoads): `skip` ≤ SKIP_MAX or the previous page's `nextCursor`. Read-your-writes: on the primary. */
    myLoads: (user: CurrentUser, tab: MyLoadsTab, limit: number, skip: number, cursor?: string) => mine.myLoads(db, user.id, tab, limit, skip, cursor),
  };
}

export type LoadsService = ReturnType<typeof createLoadsService>;
