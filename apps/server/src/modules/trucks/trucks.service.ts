import type { z } from 'zod';
import {
  COUNT_CAP,
  formatPlate,
  INOUT_DEFAULT_DAYS,
  INOUT_RATIO_HOURS,
  INOUT_FIGURES_TTL_MS,
  type InOutDirection,
  type InOutQuery,
  type LoadInOutResponse,
  type TruckInOutResponse,
  plateFromStored,
  PROFILE_STATUS,
  TRUCK_WINDOW_MAX_DAYS,
  type createTruckBody,
  type BackhaulsResponse,
  type MatchingLoadsResponseData,
  type repostTruckBody,
  type SearchTrucksQuery,
  type AccountRecord,
  type Truck,
  type TruckPage,
  truckPage,
  type updateTruckBody,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { requireApproved } from '../../lib/access.ts';
import { publish } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { areaWindowKey, ttlMemo } from '../../lib/memo.ts';
import { pageFlights, storedPage, type BoardCacheStore, type PageCacheStats } from '../../lib/page-cache.ts';
import * as repo from './trucks.repository.ts';
import { expireBatch, transition } from './lifecycle.ts';
import type { LoadsOfArea } from './ports.ts';
import { toLoadMatch } from '../loads/loads.service.ts';

const DAY_MS = 86_400_000;
/** 00:00 in Riyadh (UTC+3, no daylight saving) of the day of `d`. */
const riyadhDayStart = (d: Date) => new Date(Math.floor((d.getTime() + 3 * 3_600_000) / DAY_MS) * DAY_MS - 3 * 3_600_000);
/** Matching radius when neither the request nor the truck names one, km. */
const DEFAULT_MATCH_RADIUS_KM = 200;

type CreateBody = z.output<typeof createTruckBody>;
type UpdateBody = z.output<typeof updateTruckBody>;
type RepostBody = z.output<typeof repostTruckBody>;

/** The log's window: `from` (default now) to `to` (default from + INOUT_DEFAULT_DAYS days); the schema checked its length. */
function inOutWindow(q: Pick<InOutQuery, 'from' | 'to'>): { from: Date; to: Date } {
  const from = q.from ? new Date(q.from) : new Date();
  return { from, to: q.to ? new Date(q.to) : new Date(from.getTime() + INOUT_DEFAULT_DAYS * DAY_MS) };
}

/** Counts of COUNT_CAP + 1 rows at most → `{ total, capped }` ("1,000+"). */
const cappedCounts = (c: Record<InOutDirection, number>) => ({
  in: { total: Math.min(c.in, COUNT_CAP), capped: c.in > COUNT_CAP },
  out: { total: Math.min(c.out, COUNT_CAP), capped: c.out > COUNT_CAP },
});

const km1 = (m: number | null | undefined) => Math.round(Number(m ?? 0) / 100) / 10;

/** A truck row as the API shows it to `viewerId`. */
export function toTruck(r: repo.TruckRow, viewerId: string | null, deadheadKm?: number): Truck {
  const iso = (s: string) => new Date(s).toISOString();
  return {
    id: r.id,
    referenceId: r.reference_id,
    status: r.status === 'posted' && Date.parse(r.available_to) <= Date.now() ? 'expired' : r.status,
    loadType: r.load_type,
    equipmentType: r.equipment_type,
    availableFrom: iso(r.available_from),
    availableTo: iso(r.available_to),
    origin: { id: Number(r.origin_city_id), nameEn: r.origin_en, nameAr: r.origin_ar, lat: Number(r.origin_lat), lng: Number(r.origin_lng) },
    originRadiusKm: r.origin_radius_km,
    anywhere: r.anywhere,
    destinationCities: r.dest_cities ?? [],
    destinationRegions: r.dest_regions ?? [],
    minRateSar: Number(r.min_rate).toFixed(2),
    rateBasis: r.rate_basis,
    capacityKg: Number(r.capacity_kg),
    pallets: r.pallets,
    spaceCm: r.space_cm,
    comments: r.comments,
    vehicle: r.vehicle_id
      ? {
          id: r.vehicle_id,
          plate: formatPlate(plateFromStored(r.plate_digits ?? '', r.plate_letters ?? '')),
          vehicleType: r.vehicle_type ?? '',
          waslStatus: r.wasl_status ?? 'not_submitted',
          trailer: r.trailer_id ? { id: r.trailer_id, trailerNumber: r.trailer_number ?? '', trailerType: r.trailer_type ?? '' } : null,
        }
      : null,
    ownerId: r.owner_id,
    company: r.company,
    verified: Number(r.owner_status) === PROFILE_STATUS.approved,
    postedAt: r.posted_at ? iso(r.posted_at) : null,
    createdAt: iso(r.created_at),
    isMine: viewerId === r.owner_id,
    ...(deadheadKm !== undefined ? { deadheadKm } : {}),
  };
}

/**
 * Truck posts (issue 19; spec §2 post trucks / search trucks, §3 truck post, §4): post (or save
 * unposted), edit, unpost, repost, duplicate, delete; my trucks; the truck board search; matching
 * with loads both ways; the expiry job. Every status change goes through lifecycle.ts transition().
 */
/** What the trucks module asks of the records module (the owners' fact-based records; injected by the container). */
export interface TruckOwnerRecords {
  /** The carrier side of these accounts' records, by id (every id present). */
  carriers(db: DbOrTx, accountIds: string[]): Promise<Map<string, AccountRecord>>;
}

/** What the trucks module asks of the loads module (which owns loads; injected by the container). */
export interface LoadsForTrucks {
  /** Open loads picked up within `radiusKm` of `cityId` on or after `after`, for `viewerId`, ranked by deadhead then rate per km. */
  backhaulsFrom(
    viewerId: string,
    from: { cityId: number; after: Date; radiusKm?: number; equipmentType?: string; limit: number },
    names?: { en: string; ar: string },
  ): Promise<BackhaulsResponse>;
}

/** What the truck board's cache did in this process since start (PageCacheStats; bench/trucks.bench.ts reads it). */
export const truckCacheStats: PageCacheStats = { hits: 0, misses: 0, joined: 0, bypass: 0 };

/** Keys of truck board pages in the boards' shared page store (the load board's keys start with `{`). */
const TRUCK_PAGE_KEY = 'trucks:';

export function createTrucksService(deps: {
  db: Db;
  readDb?: Db;
  records?: TruckOwnerRecords;
  loads: LoadsForTrucks & LoadsOfArea;
  /** The boards' page store (lib/page-cache.ts; shared with the load board) and how long a page lives (SEARCH_CACHE_TTL_MS; 0: no cache). */
  cache?: BoardCacheStore;
  cacheTtlMs?: number;
}) {
  const { db } = deps;
  const readDb = deps.readDb ?? db;
  const cacheTtlMs = deps.cacheTtlMs ?? 0;
  const serve = deps.cache && cacheTtlMs > 0 ? pageFlights(deps.cache, truckCacheStats) : null;
  /** The in/out logs' area figures (truck counts, the 24 h ratio), kept INOUT_FIGURES_TTL_MS per area and window (issue 19). */
  const areaFigures = ttlMemo(20_000, INOUT_FIGURES_TTL_MS);

  /** The trucks of `ids` in that order; with `withRecord` each carries its owner's record (search results, details). */
  async function hydrated(via: DbOrTx, ids: { id: string; dist_m?: number | null }[], viewerId: string | null, withRecord = false): Promise<Truck[]> {
    const rows = await repo.hydrate(
      via,
      ids.map((i) => i.id),
    );
    const records =
      withRecord && deps.records
        ? await deps.records.carriers(
            via,
            [...rows.values()].map((r) => r.owner_id),
          )
        : null;
    return ids.flatMap((i) => {
      const r = rows.get(i.id);
      if (!r) return [];
      const t = toTruck(r, viewerId, i.dist_m == null ? undefined : km1(i.dist_m));
      const record = records?.get(r.owner_id);
      return [record ? { ...t, record } : t];
    });
  }

  /** One page of the truck board for `viewerId` (isMine), uncached. */
  async function search(q: SearchTrucksQuery, viewerId: string | null): Promise<TruckPage> {
    const { ids, nextCursor } = await repo.searchTruckIds(readDb, q);
    return { items: await hydrated(readDb, ids, viewerId, true), nextCursor };
  }

  /** A truck as `viewerId` may see it: posted ones for anyone signed in, the others only for the owner (spec §4). */
  async function get(id: string, viewerId: string | null, via: DbOrTx = db, withRecord = false): Promise<Truck> {
    const [t] = await hydrated(via, [{ id }], viewerId, withRecord);
    if (!t || t.status === 'deleted') throw new AppError('NOT_FOUND');
    if (!t.isMine && t.status !== 'posted') throw new AppError('NOT_FOUND');
    return t;
  }

  /** The truck of `id` owned by `user` (NOT_FOUND otherwise), locked. */
  async function own(tx: DbOrTx, user: CurrentUser, id: string): Promise<repo.TruckState> {
    const s = await repo.truckState(tx, id, true);
    if (!s || s.status === 'deleted' || s.owner_id !== user.id) throw new AppError('NOT_FOUND');
    return s;
  }

  /** Check the references of a create or edit: cities, regions, equipment, my vehicle and trailer. */
  async function checkRefs(tx: DbOrTx, user: CurrentUser, b: Partial<CreateBody>) {
    const cityIds = [...(b.originCityId != null ? [b.originCityId] : []), ...(b.destinationCityIds ?? [])];
    const cities = await repo.existingCities(tx, cityIds);
    const badCity = cityIds.find((c) => !cities.has(c));
    if (badCity !== undefined) {
      const path = badCity === b.originCityId ? 'originCityId' : `destinationCityIds.${b.destinationCityIds!.indexOf(badCity)}`;
      throw new AppError('INVALID_CITY', { errors: [{ path, message: 'INVALID_CITY' }] });
    }
    if (b.destinationRegionIds?.length) {
      const regions = await repo.existingRegions(tx, b.destinationRegionIds);
      const bad = b.destinationRegionIds.findIndex((r) => !regions.has(r));
      if (bad >= 0) throw new AppError('INVALID_REGION', { errors: [{ path: `destinationRegionIds.${bad}`, message: 'INVALID_REGION' }] });
    }
    if (b.equipmentType !== undefined && !(await repo.equipmentExists(tx, b.equipmentType))) throw new AppError('INVALID_EQUIPMENT');
    if (b.vehicleId && !(await repo.ownVehicle(tx, user.id, b.vehicleId)))
      throw new AppError('TRUCK_VEHICLE_INVALID', { errors: [{ path: 'vehicleId', message: 'TRUCK_VEHICLE_INVALID' }] });
    if (b.trailerId && !(await repo.ownTrailer(tx, user.id, b.trailerId)))
      throw new AppError('TRUCK_VEHICLE_INVALID', { errors: [{ path: 'trailerId', message: 'TRUCK_VEHICLE_INVALID' }] });
  }

  /** The window of a post: `to` defaults to a day after `from`; at most TRUCK_WINDOW_MAX_DAYS long, ending in the future. */
  function windowOf(fromIso: string | Date, toIso: string | Date | undefined): { availableFrom: Date; availableTo: Date } {
    const availableFrom = new Date(fromIso);
    const availableTo = toIso ? new Date(toIso) : new Date(availableFrom.getTime() + DAY_MS);
    const bad = (message: string) => new AppError('VALIDATION_FAILED', { errors: [{ path: 'availableTo', message }] });
    if (availableTo < availableFrom) throw bad('v.dateRange');
    if (availableTo.getTime() - availableFrom.getTime() > TRUCK_WINDOW_MAX_DAYS * DAY_MS) throw bad('v.truckWindow');
    if (availableTo.getTime() <= Date.now()) throw bad('v.truckWindowPast');
    return { availableFrom, availableTo };
  }

  return {
    get,
    /** Truck details (GET /truck/:id): as `get`, with the owner's fact-based record. */
    details: (id: string, viewerId: string | null) => get(id, viewerId, db, true),

    async create(user: CurrentUser, b: CreateBody): Promise<Truck> {
      requireApproved(user);
      const id = newId();
      await db.transaction(async (tx) => {
        await checkRefs(tx, user, b);
        const vehicle = b.vehicleId ? await repo.ownVehicle(tx, user.id, b.vehicleId) : null;
        await repo.insertTruck(tx, {
          id,
          referenceId: await repo.nextReference(tx),
          ownerId: user.id,
          status: 'unposted',
          loadType: b.loadType,
          equipmentType: b.equipmentType,
          ...windowOf(b.availableFrom, b.availableTo),
          originCityId: b.originCityId,
          originRadiusKm: b.originRadiusKm ?? null,
          anywhere: b.anywhere,
          destinationCityIds: b.anywhere ? [] : [...new Set(b.destinationCityIds)],
          destinationRegionIds: b.anywhere ? [] : [...new Set(b.destinationRegionIds)],
          minRate: b.minRateSar,
          rateBasis: b.rateBasis,
          capacityKg: b.capacityKg,
          pallets: b.loadType === 'LTL' ? (b.pallets ?? null) : null,
          spaceCm: b.loadType === 'LTL' ? (b.spaceCm ?? null) : null,
          vehicleId: b.vehicleId ?? null,
          trailerId: b.trailerId ?? vehicle?.trailer_id ?? null,
          comments: b.comments ?? null,
        });
        if (b.post) await transition(tx, id, 'post', user.actorId ?? user.id, {}, { postedAt: new Date() });
        else await publishCreated(tx, user, id);
      });
      return get(id, user.id);
    },

    async update(user: CurrentUser, id: string, b: UpdateBody): Promise<Truck> {
      requireApproved(user);
      await db.transaction(async (tx) => {
        const s = await own(tx, user, id);
        await checkRefs(tx, user, b);
        const set: repo.TruckEdit = {};
        const fields: string[] = [];
        const put = <K extends keyof repo.TruckEdit>(k: K, v: repo.TruckEdit[K], name: string) => {
          set[k] = v;
          fields.push(name);
        };
        if (b.availableFrom !== undefined || b.availableTo !== undefined) {
          const from = b.availableFrom ?? s.available_from;
          // a new start without a new end keeps the window's length
          const to =
            b.availableTo ??
            (b.availableFrom ? new Date(Date.parse(b.availableFrom) + (s.available_to.getTime() - s.available_from.getTime())) : s.available_to);
          const w = windowOf(from, to);
          put('availableFrom', w.availableFrom, 'availableFrom');
          put('availableTo', w.availableTo, 'availableTo');
        }
        if (b.loadType !== undefined) put('loadType', b.loadType, 'loadType');
        if (b.equipmentType !== undefined) put('equipmentType', b.equipmentType, 'equipmentType');
        if (b.originCityId !== undefined) put('originCityId', b.originCityId, 'originCityId');
        if (b.originRadiusKm !== undefined) put('originRadiusKm', b.originRadiusKm, 'originRadiusKm');
        if (b.anywhere !== undefined || b.destinationCityIds !== undefined || b.destinationRegionIds !== undefined) {
          const anywhere = b.anywhere ?? false;
          const cities = anywhere ? [] : [...new Set(b.destinationCityIds ?? [])];
          const regions = anywhere ? [] : [...new Set(b.destinationRegionIds ?? [])];
          if (!anywhere && cities.length + regions.length === 0)
            throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'destinationCityIds', message: 'v.truckDestinations' }] });
          put('anywhere', anywhere, 'destinations');
          set.destinationCityIds = cities;
          set.destinationRegionIds = regions;
        }
        if (b.minRateSar !== undefined) put('minRate', b.minRateSar, 'minRateSar');
        if (b.rateBasis !== undefined) put('rateBasis', b.rateBasis, 'rateBasis');
        if (b.capacityKg !== undefined) put('capacityKg', b.capacityKg, 'capacityKg');
        if (b.pallets !== undefined) put('pallets', b.pallets, 'pallets');
        if (b.spaceCm !== undefined) put('spaceCm', b.spaceCm, 'spaceCm');
        if (b.vehicleId !== undefined) {
          const v = await repo.ownVehicle(tx, user.id, b.vehicleId);
          put('vehicleId', b.vehicleId, 'vehicleId');
          if (b.trailerId === undefined) set.trailerId = v?.trailer_id ?? null;
        }
        if (b.trailerId !== undefined) put('trailerId', b.trailerId, 'trailerId');
        if (b.comments !== undefined) put('comments', b.comments, 'comments');
        if (!fields.length) return;
        await repo.updateTruck(tx, id, set, s.place);
        await publish(tx, {
          type: 'truck.edited',
          aggregateType: 'account',
          aggregateId: user.id,
          actorId: user.actorId ?? user.id,
          data: { accountId: user.id, truckId: id, referenceId: s.reference_id, fields },
        });
      });
      return get(id, user.id);
    },

    /** Take a posted truck off the board. */
    async unpost(user: CurrentUser, id: string): Promise<Truck> {
      await db.transaction(async (tx) => {
        await own(tx, user, id);
        await transition(tx, id, 'unpost', user.actorId ?? user.id);
      });
      return get(id, user.id);
    },

    /** Put an unposted or expired truck back on the board, with a new window when given (needed once the old one ended). */
    async repost(user: CurrentUser, id: string, b: RepostBody | undefined): Promise<Truck> {
      requireApproved(user);
      await db.transaction(async (tx) => {
        const s = await own(tx, user, id);
        let set: repo.TruckEdit = { postedAt: new Date() };
        if (b?.availableFrom || b?.availableTo) {
          const from = b.availableFrom ?? s.available_from;
          set = { ...set, ...windowOf(from, b.availableTo ?? (b.availableFrom ? undefined : s.available_to)) };
        } else if (s.available_to.getTime() <= Date.now()) throw new AppError('TRUCK_REPOST_NEEDS_DATES');
        await transition(tx, id, 'repost', user.actorId ?? user.id, { repost: true }, set);
      });
      return get(id, user.id);
    },

    /** Copy a truck as a new unposted one (truck.created { duplicateOf }). */
    async duplicate(user: CurrentUser, id: string): Promise<Truck> {
      const copy = newId();
      await db.transaction(async (tx) => {
        await own(tx, user, id);
        const r = await repo.truckRow(tx, id);
        await repo.insertTruck(tx, {
          ...r,
          id: copy,
          referenceId: await repo.nextReference(tx),
          status: 'unposted',
          postedAt: null,
          createdAt: new Date(),
          updatedAt: new Date(),
        });
        await publishCreated(tx, user, copy, id);
      });
      return get(copy, user.id);
    },

    /** Delete a truck post (any state but deleted; truck.deleted). */
    async remove(user: CurrentUser, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        await own(tx, user, id);
        await transition(tx, id, 'delete', user.actorId ?? user.id);
      });
    },

    async mine(user: CurrentUser, tab: 'all' | 'posted' | 'unposted' | 'expired', limit: number, cursor?: string): Promise<TruckPage> {
      const { ids, nextCursor } = await repo.myTruckIds(db, user.id, tab, limit, cursor);
      return {
        items: await hydrated(
          db,
          ids.map((id) => ({ id })),
          user.id,
        ),
        nextCursor,
      };
    },

    /** The truck board (GET /searchTrucks), read on the replica when there is one. */
    search,

    /**
     * The truck board search as the UTF-8 JSON text of GET /searchTrucks' `data` (validated by
     * truckPage), from the boards' page cache (lib/page-cache.ts) when SEARCH_CACHE_TTL_MS > 0.
     * Fresh by construction, as the load board's: the version of the truck origins the search
     * covers (its origin city, the grid cells around its circle, or the whole board; for its
     * equipment; migration 0130) is read first, and a page is served only if it was computed under
     * that version. Every truck write (post, edit, unpost, repost, delete, expire) bumps its
     * origin's versions in its transaction, so a truck changed before this search began is never
     * returned; a write elsewhere leaves the page cached. A page also stops 1 s before the first
     * end of window among its trucks, and after the TTL: the owners' names, verification, vehicle
     * and record may be that old. Concurrent misses on one key run one search (single flight); the
     * owner of a truck on the page gets it computed for itself (isMine).
     */
    async searchJson(q: SearchTrucksQuery, viewerId: string | null): Promise<Buffer> {
      const own = async () => {
        truckCacheStats.bypass++;
        return Buffer.from(JSON.stringify(truckPage.parse(await search(q, viewerId))));
      };
      if (!serve || !deps.cache) return own();
      const key = TRUCK_PAGE_KEY + JSON.stringify(q);
      const [v, hit] = await Promise.all([repo.truckBoardVersion(readDb, q), deps.cache.get(key)]);
      return serve({
        key,
        v,
        hit,
        viewerId,
        own,
        compute: async () =>
          storedPage(
            truckPage.parse(await search(q, null)),
            cacheTtlMs,
            (t) => t.ownerId,
            (t) => t.availableTo,
          ),
      });
    },

    /** Posted trucks matching my posted load (its owner only), by deadhead then rate per km. */
    async matchingTrucks(user: CurrentUser, loadId: string, radiusKm: number | undefined, limit: number) {
      const l = await repo.loadForMatching(db, loadId);
      if (!l || l.shipper_id !== user.id) throw new AppError('NOT_FOUND');
      if (!l.open) return { items: [] };
      const rows = await repo.matchingTruckIds(db, loadId, radiusKm ?? DEFAULT_MATCH_RADIUS_KM, limit);
      const trucks = await hydrated(db, rows, user.id);
      const rate = new Map(rows.map((r) => [r.id, r.rate_km]));
      return {
        items: trucks.map((t) => {
          const r = rate.get(t.id);
          return { ...t, deadheadKm: t.deadheadKm ?? 0, ratePerKmSar: r == null ? null : Number(r).toFixed(2) };
        }),
      };
    },

    /** Open loads matching my truck (its owner only), by deadhead then best rate per km; radius: the request's, else the truck's, else 200 km. */
    async matchingLoads(user: CurrentUser, truckId: string, radiusKm: number | undefined, limit: number): Promise<MatchingLoadsResponseData> {
      const t = await get(truckId, user.id);
      if (!t.isMine) throw new AppError('NOT_FOUND');
      if (t.status !== 'posted') return { items: [] };
      const rows = await repo.matchingLoads(db, truckId, radiusKm ?? t.originRadiusKm ?? DEFAULT_MATCH_RADIUS_KM, limit);
      return {
        items: rows.map(toLoadMatch),
      };
    },

    /**
     * Backhauls of my posted truck (GET /truck/:id/backhauls; issue 19): open marketplace loads
     * picked up within the radius (default 200 km) of its destination city, in the 7 days from the
     * day its availability ends (00:00 Riyadh), ranked by deadhead then rate per km (the loads module's
     * query). The truck must go to exactly one city (BACKHAUL_TRUCK_DESTINATION, 400, for
     * anywhere, regions or several cities); 404 unless mine; empty when not posted.
     */
    async backhauls(user: CurrentUser, truckId: string, q: { radius?: number; equipmentType?: string; limit: number }): Promise<BackhaulsResponse> {
      const t = await get(truckId, user.id);
      if (!t.isMine) throw new AppError('NOT_FOUND');
      const [dest] = t.destinationCities;
      if (t.anywhere || t.destinationCities.length !== 1 || t.destinationRegions.length) throw new AppError('BACKHAUL_TRUCK_DESTINATION');
      const from = { cityId: dest.id, after: riyadhDayStart(new Date(t.availableTo)), radiusKm: q.radius, equipmentType: q.equipmentType, limit: q.limit };
      const names = { en: dest.nameEn, ar: dest.nameAr };
      if (t.status !== 'posted') return { ...(await deps.loads.backhaulsFrom(user.id, { ...from, limit: 1 }, names)), items: [] };
      return deps.loads.backhaulsFrom(user.id, from, names);
    },

    /**
     * Truck in/out (GET /truckInOutLogs; issue 19, spec §2): posted trucks arriving in (going to a
     * city of the circle or its region; not "anywhere") or leaving (origin in the circle) the area,
     * free some time in the window; one page in availability order, both directions' counts
     * (capped at COUNT_CAP) and the area's load-to-truck ratio of the last 24 h. No cache: every
     * call (and …/refresh) reads the database (the replica when there is one).
     */
    async truckInOut(q: InOutQuery, viewerId: string | null, fresh = false): Promise<TruckInOutResponse> {
      const a = { cityId: q.cityId, radius: q.radius, ...inOutWindow(q) };
      const [counts, page, ratio] = await Promise.all([
        areaFigures(`trucks:${areaWindowKey(a)}`, () => repo.truckInOutCounts(readDb, a), fresh),
        repo.truckInOutIds(readDb, a, q.direction, q.limit, q.cursor),
        areaRatio(q.cityId, q.radius, fresh),
      ]);
      return {
        direction: q.direction,
        from: a.from.toISOString(),
        to: a.to.toISOString(),
        counts: cappedCounts(counts),
        ratio,
        items: await hydrated(
          readDb,
          page.ids.map((id) => ({ id })),
          viewerId,
        ),
        nextCursor: page.nextCursor,
      };
    },

    /**
     * Shipment in/out (GET /loadInOutLogs; issue 19, spec §2): open marketplace loads delivering to
     * (in: last drop in the circle, delivery in the window) or picking up in (out: first pickup in
     * the circle, pickup in the window) the area, read through the loads module (its port), with
     * both counts (capped) and the same ratio.
     */
    async loadInOut(q: InOutQuery, viewerId: string | null, fresh = false): Promise<LoadInOutResponse> {
      const a = { cityId: q.cityId, radius: q.radius, ...inOutWindow(q) };
      const [log, ratio] = await Promise.all([deps.loads.inOutLog(a, q.direction, q.limit, q.cursor, viewerId, fresh), areaRatio(q.cityId, q.radius, fresh)]);
      return {
        direction: q.direction,
        from: a.from.toISOString(),
        to: a.to.toISOString(),
        counts: cappedCounts(log.counts),
        ratio,
        items: log.items,
        nextCursor: log.nextCursor,
      };
    },

    /**
     * The expiry job: posted trucks whose window ended become expired (truck.expired each), in
     * batches; then the hours of trucks_posted_hourly the ratio no longer reads are dropped.
     */
    async expireDue(batch = 500): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await db.transaction((tx) => expireBatch(tx, batch));
        total += n;
        if (n < batch) break;
      }
      await repo.pruneHourly(db, 2 * INOUT_RATIO_HOURS);
      return total;
    },
  };

  /**
   * The area's load-to-truck ratio: loads and trucks posted in the circle in the last
   * INOUT_RATIO_HOURS hours, kept INOUT_FIGURES_TTL_MS per area unless `fresh`.
   */
  function areaRatio(cityId: number, radius: number | undefined, fresh: boolean) {
    return areaFigures(
      `ratio:${cityId}:${radius ?? 0}`,
      async () => {
        const since = new Date(Date.now() - INOUT_RATIO_HOURS * 3_600_000);
        const [loads, trucks] = await Promise.all([
          deps.loads.loadsPostedInArea(cityId, radius, since),
          repo.trucksPostedInArea(readDb, cityId, radius, since),
        ]);
        return { loads, trucks, ratio: trucks ? Math.round((loads / trucks) * 100) / 100 : null, hours: INOUT_RATIO_HOURS };
      },
      fresh,
    );
  }

  async function publishCreated(tx: DbOrTx, user: CurrentUser, id: string, duplicateOf?: string) {
    const s = (await repo.truckState(tx, id))!;
    await publish(tx, {
      type: 'truck.created',
      aggregateType: 'account',
      aggregateId: user.id,
      actorId: user.actorId ?? user.id,
      data: { accountId: user.id, truckId: id, referenceId: s.reference_id, ...(duplicateOf ? { duplicateOf } : {}) },
    });
  }
}

export type TrucksService = ReturnType<typeof createTrucksService>;
