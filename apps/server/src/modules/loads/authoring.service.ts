import { z } from 'zod';
import {
  EDITABLE_LOAD_STATUSES,
  ratePerKmSar,
  STOP_TYPE,
  type createLoadBody,
  type Load,
  type StopInput,
  type CargoLineInput,
  type updateLoadBody,
  type changeAudienceBody,
  type extendDatesBody,
  ACTIVE_LOAD_STATUSES,
  EXTEND_DATES_MAX_DAYS,
  REPOST_WINDOW_DAYS,
  SHIPMENT_TYPE,
  type BookNowFor,
} from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { actingUser } from '../auth/auth.types.ts';
import { requireApproved } from '../../lib/access.ts';
import { publish } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import * as authoring from './authoring.repository.ts';
import * as repo from './loads.repository.ts';
import { loadEvent, transition } from './lifecycle.ts';
import type { LoadsDeps } from './ports.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Stops and cargo as given by a client (cityId, date…), resolved against the reference data. */
interface Derived {
  stops: authoring.NewStop[];
  cargo: authoring.NewCargo[];
  distanceKm: number;
  totalWeightKg: number;
  pickup: authoring.NewStop;
  drop: authoring.NewStop;
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
function termColumns(b: TermsBody): Partial<authoring.NewLoad> {
  const out: Partial<authoring.NewLoad> = {};
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

/**
 * The Book Now columns of a create or edit body (issue 19). Create: off unless asked, any
 * verified carrier by default. Edit: `bookNow: false` clears both; `bookNowFor` alone changes
 * who may only on a Book Now load. An own-vehicle shipment is never Book Now (it is booked).
 */
function bookNowColumns(
  b: { bookNow?: boolean; bookNowFor?: BookNowFor },
  current: { bookNow: boolean; bookNowFor: BookNowFor | null } | null,
): Partial<authoring.NewLoad> {
  const on = b.bookNow ?? current?.bookNow ?? false;
  if (!on) return current?.bookNow || !current ? { bookNow: false, bookNowFor: null } : {};
  return { bookNow: true, bookNowFor: b.bookNowFor ?? current?.bookNowFor ?? 'verified' };
}

const RIYADH_OFFSET_MS = 3 * 3_600_000;
/** Midnight (Asia/Riyadh, UTC+3 all year) of the day of `t`. */
const riyadhDayStart = (t: Date) => new Date(Math.floor((t.getTime() + RIYADH_OFFSET_MS) / DAY_MS) * DAY_MS - RIYADH_OFFSET_MS);

/** The load of `id` owned by `user`, locked for the rest of the transaction (NOT_FOUND otherwise). */
export async function ownLoad(tx: DbOrTx, user: CurrentUser, id: string): Promise<repo.LoadState> {
  const s = await repo.loadState(tx, id, 'update');
  if (!s || s.deleted || s.shipper_id !== user.id) throw new AppError('NOT_FOUND');
  return s;
}

/**
 * Authoring loads (spec §2 post shipment; issue 2, 7): create (post or save unposted), edit,
 * duplicate, change audience, extend dates. Derives distance, weight, rate and expiry from the
 * stops and cargo. `get` reads the result back as its author sees it. Posting and booking an
 * own-vehicle shipment go through the lifecycle's transition().
 */
export function createLoadAuthoring(
  deps: Pick<LoadsDeps, 'db' | 'config' | 'routing' | 'offers' | 'vendors'>,
  get: (id: string, viewerId: string | null, via?: DbOrTx) => Promise<Load>,
) {
  const { db, config, routing, offers, vendors } = deps;

  async function checkEquipment(tx: DbOrTx, code: string) {
    if (!(await authoring.equipmentExists(tx, code))) throw new AppError('INVALID_EQUIPMENT');
  }

  /** Resolve cities and goods types; compute distance (routing gateway), weight, first pickup and last drop. */
  async function derive(tx: DbOrTx, stops: StopInput[], cargo: CargoLineInput[] | authoring.NewCargo[]): Promise<Derived> {
    const cities = await authoring.findCities(
      tx,
      stops.map((s) => s.cityId),
    );
    const bad = stops.findIndex((s) => !cities.has(s.cityId));
    if (bad >= 0) throw new AppError('INVALID_CITY', { errors: [{ path: `stops.${bad}.cityId`, message: 'INVALID_CITY' }] });
    // a district must be one of its stop's city (reference ids are 11 digits: bigint)
    const districtIds = stops.flatMap((s) => (s.districtId == null ? [] : [s.districtId]));
    if (districtIds.length) {
      const cityOf = await authoring.districtCities(tx, districtIds);
      const wrong = stops.findIndex((s) => s.districtId != null && cityOf.get(s.districtId) !== s.cityId);
      if (wrong >= 0) throw new AppError('INVALID_DISTRICT', { errors: [{ path: `stops.${wrong}.districtId`, message: 'INVALID_DISTRICT' }] });
    }
    const stopRows: authoring.NewStop[] = stops.map((s, i) => {
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
    const cargoRows: authoring.NewCargo[] = cargo.map((c, i) =>
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
    const unknown = await authoring.unknownGoodsTypes(
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
  function loadColumns(d: Derived, price: string): Partial<authoring.NewLoad> {
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
    await transition(tx, id, 'book', actingUser(user), { ownVehicle: true, ...data }, { carrierId: user.id, bookedPrice: price, bookedAt: new Date() });
  }

  /** The pickup window's end may not be before the first pickup nor after the last drop. */
  function checkWindow(latest: Date | null | undefined, d: Derived) {
    if (!latest) return;
    if (latest < d.pickup.date) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'pickupLatest', message: 'v.pickupWindow' }] });
    if (latest > d.drop.date) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'pickupLatest', message: 'v.pickupWindowDrop' }] });
  }

  /**
   * Re-post detection (issue 19): when the poster is the booked carrier of another shipper's load
   * on the same lane (first pickup city → last drop city), booked within REPOST_WINDOW_DAYS, whose
   * pickup days overlap the new load's (Riyadh days, windows included), the new load is marked
   * `reposted_from` that load (the operator's report) and load.reposted is published on the
   * original — its shipper is a party, and its timeline shows it. Same transaction as the post.
   */
  async function flagRepost(tx: DbOrTx, user: CurrentUser, load: { id: string; referenceId: string }, d: Derived, latest: Date | null) {
    const first = riyadhDayStart(d.pickup.date);
    const last = riyadhDayStart(latest && latest > d.pickup.date ? latest : d.pickup.date);
    const original = await repo.wonLoadOnLane(tx, {
      posterId: user.id,
      pickupCityId: d.pickup.cityId,
      dropCityId: d.drop.cityId,
      dayStart: first,
      dayEnd: new Date(last.getTime() + DAY_MS),
      bookedSince: new Date(Date.now() - REPOST_WINDOW_DAYS * DAY_MS),
      exceptId: load.id,
    });
    if (!original) return;
    await authoring.updateLoadRow(tx, load.id, { repostedFrom: original.id });
    await publish(
      tx,
      loadEvent('load.reposted', original.id, original.shipper_id, actingUser(user), { repostLoadId: load.id, repostReferenceId: load.referenceId }),
    );
  }

  return {
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
        const referenceId = await authoring.nextReference(tx);
        await checkEquipment(tx, body.equipmentType);
        const audience = type === SHIPMENT_TYPE.vendor ? await vendorAudience(tx, user, body.vendorIds ?? []) : [];
        const d = await derive(tx, body.stops, body.cargo);
        checkWindow(body.pickupLatest ? new Date(body.pickupLatest) : null, d);
        const now = new Date();
        await authoring.insertLoad(
          tx,
          {
            id,
            referenceId,
            shipperId: user.id,
            // created unposted; posting is the lifecycle's 'post' (below, same transaction)
            status: 'unposted',
            loadType: body.loadType,
            equipmentType: body.equipmentType,
            shipmentType: type,
            comments: body.comments ?? null,
            postedAt: null,
            ...termColumns(body),
            ...bookNowColumns(ownVehicle ? { bookNow: false } : body, null),
            ...(loadColumns(d, body.priceSar) as Required<
              Pick<
                authoring.NewLoad,
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
        if (post) await transition(tx, id, 'post', actingUser(user), { priceSar: body.priceSar, shipmentType: type }, { postedAt: now });
        if (ownVehicle) await bookOwnVehicle(tx, user, id, body.priceSar, {});
        if (post) await flagRepost(tx, user, { id, referenceId }, d, body.pickupLatest ? new Date(body.pickupLatest) : null);
        // a post shows at once on the pages of its place (issue 24). Inside a caller's transaction
        // (a CSV import chunk) the bump would not be its last statement: those posts show within
        // SEARCH_CACHE_TTL_MS instead (docs/load-board.md)
        if (post && !outer) await repo.bumpBoardLoads(tx, [id]);
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
        const current = await authoring.rawLoad(tx, id);
        const existing = await authoring.stopsAndCargo(tx, id);
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
        if (body.stops) await authoring.replaceStops(tx, id, d.stops);
        if (body.cargo) await authoring.replaceCargo(tx, id, d.cargo);
        await authoring.updateLoadRow(tx, id, {
          ...loadColumns(d, price),
          ...(body.loadType !== undefined ? { loadType: body.loadType } : {}),
          ...(body.equipmentType !== undefined ? { equipmentType: body.equipmentType } : {}),
          ...(body.comments !== undefined ? { comments: body.comments } : {}),
          ...termColumns(body),
          ...(s.shipment_type === SHIPMENT_TYPE.ownVehicle ? {} : bookNowColumns(body, { bookNow: current.bookNow, bookNowFor: current.bookNowFor })),
        });
        await publish(tx, loadEvent('load.edited', id, user.id, actingUser(user), { offersReset: offersDeleted, fields: Object.keys(body) }));
        await repo.bumpBoardLoads(tx, [id], [{ cityId: current.pickupCityId, equipment: s.equipment_type }]);
      });
      return { load: await get(id, user.id), offersDeleted };
    },

    /** Copy a load of mine as a new unposted load with a new reference (same stops and cargo). */
    async duplicate(user: CurrentUser, id: string): Promise<Load> {
      requireApproved(user);
      // the copy's id is made inside the transaction and returned by it (Idempotency-Key journal replay)
      const copyId = await db.transaction(async (tx) => {
        const copyId = newId();
        const s = await repo.loadState(tx, id);
        if (!s || s.shipper_id !== user.id) throw new AppError('NOT_FOUND');
        const src = await authoring.rawLoad(tx, id);
        const { stops, cargo } = await authoring.stopsAndCargo(tx, id);
        const now = new Date();
        await authoring.insertLoad(
          tx,
          {
            ...src,
            id: copyId,
            referenceId: await authoring.nextReference(tx),
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
            // a copy is the owner's own new load, never a flagged re-post
            repostedFrom: null,
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
        return copyId;
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
        // an own-vehicle shipment is booked at once: no Book Now
        await authoring.updateLoadRow(tx, id, { shipmentType: to, ...(to === SHIPMENT_TYPE.ownVehicle ? { bookNow: false, bookNowFor: null } : {}) });
        if (to !== SHIPMENT_TYPE.marketplace) await offers.closePending(tx, id, actingUser(user));
        await publish(
          tx,
          loadEvent('load.edited', id, user.id, actingUser(user), { audience: { from: s.shipment_type, to }, vendorIds: body.vendorIds ?? [] }),
        );
        if (to === SHIPMENT_TYPE.ownVehicle) {
          const raw = await authoring.rawLoad(tx, id);
          await bookOwnVehicle(tx, user, id, raw.price, {});
        }
        await repo.bumpBoardLoads(tx, [id]);
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
        const { stops } = await authoring.stopsAndCargo(tx, id);
        const raw = await authoring.rawLoad(tx, id);
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
        if (body.pickupDate) await authoring.setStopDate(tx, stops[first].id, dates[first]);
        if (body.deliveryDate) await authoring.setStopDate(tx, stops[last].id, dates[last]);
        const shift = dates[first].getTime() - stops[first].date.getTime();
        const latest = raw.pickupLatestAt ? new Date(raw.pickupLatestAt.getTime() + shift) : null;
        if (latest && latest > dates[last]) throw range('pickupDate');
        await authoring.updateLoadRow(tx, id, {
          pickupAt: dates[first],
          dropAt: dates[last],
          pickupLatestAt: latest,
          expiresAt: new Date(dates[first].getTime() + config.LOAD_EXPIRY_HOURS_AFTER_PICKUP * HOUR_MS),
        });
        await publish(tx, loadEvent('load.dates_extended', id, user.id, actingUser(user), data));
        await repo.bumpBoardLoads(tx, [id]);
      });
      return get(id, user.id);
    },
  };
}
