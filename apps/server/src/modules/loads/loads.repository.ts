import { sql, type SQL } from 'drizzle-orm';
import { COUNT_CAP, FLEET_LIMITS, loadOptionsFor, PROFILE_STATUS, SHIPMENT_TYPE, type Load, type LoadOptionsView, type StopAddressInput } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { loadBookmarks, loadVendors } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';
import { CARD_CARGO_SQL, CARD_OFFERS_SQL, CARD_STOPS_SQL } from '../../db/load-cards.ts';
import { bumpPlaceVersions, placeVersion, placesSql, type BoardPlace } from '../../db/place-versions.ts';

/**
 * The loads module's row shape and the reads every part of it shares (issue 18 split the module
 * along its seams): the API's Load from its row (`LOAD_COLUMNS`, `toLoad`), a load's state, the
 * trip modules' view, bookmarks, vendor audiences and the board version. The other parts:
 * authoring.repository.ts (create, edit, duplicate, demo dates), board.repository.ts (the board
 * search), my-loads.repository.ts (my loads' tabs), lifecycle.repository.ts (the status).
 */

/**
 * THE definition of an expired load (issue 6: one SQL rule): posted and past its expiry —
 * whether or not the expiry job has already turned the row's status to 'expired'. `a` is the
 * table alias with its dot ('l.') or ''.
 */
export const EXPIRED = (a: 'l.' | '') => sql.raw(`(${a}status = 'expired' or (${a}status = 'posted' and ${a}expires_at <= now()))`);

/**
 * The complement: a load on the board (open for offers and booking) — posted and not yet past
 * its expiry. The board's partial indexes are built on `status = 'posted'` with `expires_at` as
 * their range key, so queries keep exactly this form.
 */
export const ON_BOARD = (a: 'l.' | '') => sql.raw(`(${a}status = 'posted' and ${a}expires_at > now())`);

/** Postgres array literal of uuids (they need no quoting), so statements keep one text. */
export const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/**
 * Columns of a load as the API returns it (loadSchema) but its stops, cargo and offer count: the
 * load's own row, the shipper's users row (company name, verification), its account record's
 * days to pay and the few flags read only for some loads (Bayan, re-post, vendors).
 */
const LOAD_OWN_COLUMNS = `
  l.id, l.reference_id, case when l.status = 'posted' and l.expires_at <= now() then 'expired' -- EXPIRED('l.'), inlined in this raw list
    -- a Bayan creation under way (or cut by a crash, until its job resumes it): pending Bayan (issue 22)
    when l.status = 'assigned' and exists (select 1 from bayan_trips b where b.load_id = l.id and b.status = 'pending') then 'pending_bayan'
    else l.status end as status,
  l.load_type, l.equipment_type, l.price::text as price, l.currency, l.distance_km::float8 as distance_km,
  l.rate_per_km::text as rate_per_km, l.total_weight_kg::float8 as total_weight_kg, l.comments,
  l.pickup_at, l.drop_at, l.posted_at, l.expires_at, l.created_at, l.shipper_id, u.company_name as shipper_company,
  -- the verification badge of the board (issue 23): a column of the users row every load query already joins
  u.status = ${PROFILE_STATUS.approved} as shipper_verified,
  -- the shipper's measured days-to-pay (issue 23; migration 0126): one primary-key read of its record per row shown
  (select ar.days_to_pay::float8 from account_records ar where ar.account_id = l.shipper_id) as shipper_days_to_pay,
  l.carrier_id, l.booked_price::text as booked_price, l.deleted_at, l.shipment_type, l.delivered_at, l.payment_received_at,
  -- More Options (issue 7): a live Bayan trip (index bayan_trips_live) and whether the assigned
  -- vehicle needs one (3.5 t+); only for assigned shipments, so board rows read nothing more
  case when l.vehicle_id is null then false else exists (select 1 from bayan_trips b where b.load_id = l.id and b.status = 'active') end as has_bayan,
  case when l.vehicle_id is null then true else coalesce((select v.weight_kg >= ${FLEET_LIMITS.waslMinWeightKg} from vehicles v where v.id = l.vehicle_id), true) end as bayan_required,
  l.pickup_latest_at, l.pickup_hours_from, l.pickup_hours_to, l.drop_hours_from, l.drop_hours_to, l.payment_method, l.paid_by,
  l.payment_terms_days, l.detention_free_hours, l.detention_rate::text as detention_rate, l.detention_cap::text as detention_cap, l.delivery_type, l.delivery_to, l.tradable,
  l.payment_protection, l.book_now, l.book_now_for,
  -- re-post detection (issue 19): a later load re-posts this one (index loads_reposted_from)
  exists (select 1 from loads rp where rp.reposted_from = l.id) as repost_flagged,
  case when l.shipment_type = 2 then (select coalesce(json_agg(lv.vendor_id), '[]'::json) from load_vendors lv where lv.load_id = l.id) else '[]'::json end as vendor_ids,
`;

/**
 * Columns of a load as the API returns it (loadSchema), from `loads l` and LOAD_JOINS: its own
 * row and its board card (issue 45: stops with city names and cargo lines as JSON, the pending
 * offers), read by primary key. One round trip per page.
 */
export const LOAD_COLUMNS = sql.raw(`${LOAD_OWN_COLUMNS}
  lc.offers_count, lc.stops, lc.cargo`);

/** The joins LOAD_COLUMNS reads from, after `loads l`: the shipper and the board card (both by primary key). */
export const LOAD_JOINS = sql.raw('join users u on u.id = l.shipper_id join load_cards lc on lc.load_id = l.id');

/**
 * LOAD_COLUMNS as they were before the board card (issue 45), from `loads l join users u`: the
 * stops, cargo and offer count by correlated subqueries over the source rows. The reference the
 * card tests compare the card-based Load with (load-cards.test.ts); not read by any request.
 */
export const LOAD_COLUMNS_REFERENCE = sql.raw(`${LOAD_OWN_COLUMNS}
  ${CARD_OFFERS_SQL} as offers_count, ${CARD_STOPS_SQL} as stops, ${CARD_CARGO_SQL} as cargo`);

export interface LoadRow {
  id: string;
  reference_id: string;
  status: Load['status'];
  load_type: Load['loadType'];
  equipment_type: string;
  /** numeric(12,2)::text, e.g. "1500.00" (exact). */
  price: string;
  currency: string;
  distance_km: number;
  rate_per_km: string;
  total_weight_kg: number;
  comments: string | null;
  pickup_at: Date | string;
  drop_at: Date | string;
  posted_at: Date | string | null;
  expires_at: Date | string | null;
  created_at: Date | string;
  shipper_id: string;
  shipper_company: string;
  shipper_verified: boolean;
  shipper_days_to_pay: number | null;
  carrier_id: string | null;
  booked_price: string | null;
  deleted_at: Date | string | null;
  shipment_type: number;
  delivered_at: Date | string | null;
  payment_received_at: Date | string | null;
  has_bayan: boolean;
  bayan_required: boolean;
  pickup_latest_at: Date | string | null;
  pickup_hours_from: string | null;
  pickup_hours_to: string | null;
  drop_hours_from: string | null;
  drop_hours_to: string | null;
  payment_method: Load['paymentMethod'];
  paid_by: Load['paidBy'];
  payment_terms_days: number | null;
  detention_free_hours: number | null;
  detention_rate: string | null;
  detention_cap: string | null;
  delivery_type: Load['deliveryType'];
  delivery_to: string | null;
  tradable: boolean;
  payment_protection: boolean;
  book_now: boolean;
  book_now_for: Load['bookNowFor'];
  repost_flagged: boolean;
  vendor_ids: string[];
  offers_count: number;
  stops: {
    id: string;
    index: number;
    stopType: number;
    cityId: number;
    cityNameEn: string;
    cityNameAr: string;
    districtId: number | null;
    lat: number;
    lng: number;
    date: string;
    address: string | null;
    addressDetails: StopAddressInput | null;
  }[];
  cargo: {
    id: string;
    goodsType: string;
    lengthCm: number | string;
    widthCm: number | string;
    heightCm: number | string;
    quantity: number;
    weightPerItemKg: number | string;
    stackable: boolean;
    adr: boolean;
    conditions: string | null;
  }[];
}

const iso = (v: Date | string) => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null) => (v == null ? null : iso(v));

/** The viewer's role on a load for More Options (lifecycle.ts LoadOptionsView). */
export function viewerRole(r: Pick<LoadRow, 'shipper_id' | 'carrier_id' | 'shipment_type'>, viewerId: string | null): LoadOptionsView['role'] {
  if (viewerId == null) return 'other';
  if (r.shipper_id === viewerId) return r.shipment_type === SHIPMENT_TYPE.ownVehicle ? 'owner_carrier' : 'owner';
  return r.carrier_id === viewerId ? 'carrier' : 'other';
}

const hours = (from: string | null, to: string | null) => (from && to ? { from, to } : null);

/**
 * A row of LOAD_COLUMNS → the API's Load. `viewerId` sets isMine, the More Options
 * (`loadOptionsFor`: a live Bayan trip, Bayan required by the assigned vehicle's weight, delivered
 * and payment received, all from the row) and, for the owner, the chosen vendors. `bookmarked`: the
 * viewer's bookmark (false on board pages, which are cached for all viewers).
 */
export function toLoad(r: LoadRow, viewerId: string | null, deadheadKm?: number, bookmarked = false): Load {
  const role = viewerRole(r, viewerId);
  const owner = role === 'owner' || role === 'owner_carrier';
  return {
    id: r.id,
    referenceId: r.reference_id,
    status: r.status,
    loadType: r.load_type,
    equipmentType: r.equipment_type,
    priceSar: r.price,
    currency: r.currency,
    distanceKm: Number(r.distance_km),
    ratePerKmSar: r.rate_per_km,
    totalWeightKg: Number(r.total_weight_kg),
    comments: r.comments,
    stops: r.stops.map((s) => ({ ...s, districtId: s.districtId == null ? null : Number(s.districtId), date: iso(s.date) })),
    cargo: r.cargo.map((c) => ({
      ...c,
      lengthCm: Number(c.lengthCm),
      widthCm: Number(c.widthCm),
      heightCm: Number(c.heightCm),
      weightPerItemKg: Number(c.weightPerItemKg),
    })),
    pickupAt: iso(r.pickup_at),
    dropAt: iso(r.drop_at),
    postedAt: isoOrNull(r.posted_at),
    expiresAt: isoOrNull(r.expires_at),
    createdAt: iso(r.created_at),
    shipperId: r.shipper_id,
    shipperCompany: r.shipper_company,
    shipperVerified: r.shipper_verified === true,
    shipperDaysToPay: r.shipper_days_to_pay ?? null,
    carrierId: r.carrier_id,
    bookedPriceSar: r.booked_price,
    deliveredAt: r.delivered_at == null ? null : iso(r.delivered_at),
    offersCount: r.offers_count,
    ...(deadheadKm !== undefined ? { deadheadKm } : {}),
    isMine: viewerId != null && viewerId === r.shipper_id,
    pickupLatest: isoOrNull(r.pickup_latest_at),
    pickupHours: hours(r.pickup_hours_from, r.pickup_hours_to),
    dropHours: hours(r.drop_hours_from, r.drop_hours_to),
    paymentMethod: r.payment_method,
    paidBy: r.paid_by,
    paymentTermsDays: r.payment_terms_days == null ? null : Number(r.payment_terms_days),
    detentionFreeHours: r.detention_free_hours == null ? null : Number(r.detention_free_hours),
    detentionRateSar: r.detention_rate,
    detentionCapSar: r.detention_cap,
    deliveryType: r.delivery_type,
    deliveryTo: r.delivery_to,
    tradable: r.tradable,
    paymentProtection: r.payment_protection,
    bookNow: r.book_now,
    bookNowFor: r.book_now ? r.book_now_for : null,
    // the original shipper's flag; nobody else learns it from the load
    repostFlagged: owner && r.repost_flagged,
    shipmentType: Number(r.shipment_type),
    vendorIds: owner ? r.vendor_ids : [],
    bookmarked,
    options: loadOptionsFor({
      status: r.status,
      role,
      hasBayan: r.has_bayan,
      bayanRequired: r.bayan_required,
      delivered: r.delivered_at != null,
      paymentReceived: r.payment_received_at != null,
    }),
  };
}

/** Full loads by id (any status, deleted included), in no particular order. */
export async function findLoads(db: DbOrTx, ids: string[]): Promise<LoadRow[]> {
  if (ids.length === 0) return [];
  return queryRows<LoadRow>(db, sql`select ${LOAD_COLUMNS} from loads l ${LOAD_JOINS} where l.id = any(${uuidArray(ids)}::uuid[])`);
}

export async function findLoad(db: DbOrTx, id: string): Promise<LoadRow | null> {
  return (await findLoads(db, [id]))[0] ?? null;
}

/**
 * One load's row for its details (GET /loads/:id) with whether `viewerId` bookmarked it: one
 * round trip, a named statement with its generic plan (planned once per connection; issue 45:
 * planning the details statement for its values read ~65 of its ~80 buffers).
 */
export async function findLoadFor(db: DbOrTx, id: string, viewerId: string | null): Promise<(LoadRow & { bookmarked: boolean }) | null> {
  const [r] = await queryRows<LoadRow & { bookmarked: boolean }>(
    db,
    sql`select ${LOAD_COLUMNS}, exists (select 1 from load_bookmarks b where b.user_id = ${viewerId}::uuid and b.load_id = l.id) as bookmarked
        from loads l ${LOAD_JOINS} where l.id = ${id}::uuid`,
    'load_details',
    'generic',
  );
  return r ?? null;
}

/** The raw state of one load, locked FOR UPDATE when inside a transaction that will change it. */
export async function loadState(db: DbOrTx, id: string, lock: 'update' | 'share' | 'none' = 'none') {
  const suffix = lock === 'update' ? sql` for update` : lock === 'share' ? sql` for share` : sql``;
  const rows = await queryRows<{
    id: string;
    shipper_id: string;
    carrier_id: string | null;
    status: string;
    expired: boolean;
    deleted: boolean;
    equipment_type: string;
    pickup_city_id: number;
    drop_city_id: number;
    shipment_type: number;
    book_now: boolean;
    book_now_for: 'verified' | 'vendors' | null;
    price: string;
  }>(
    db,
    sql`select id, shipper_id, carrier_id, status, ${EXPIRED('')} as expired, deleted_at is not null as deleted,
          equipment_type, pickup_city_id, drop_city_id, shipment_type, book_now, book_now_for, price::text as price
        from loads where id = ${id}${suffix}`,
  );
  return rows[0] ?? null;
}

export type LoadState = NonNullable<Awaited<ReturnType<typeof loadState>>>;

/** A count of at most COUNT_CAP + 1 → the API's `{ total, totalCapped }`. */
export const capped = (n: number) => ({ total: Math.min(n, COUNT_CAP), totalCapped: n > COUNT_CAP });

/** A booked shipment as the trip modules (assignment, Bayan, driver trip) need it. */
export interface TripLoadRow {
  id: string;
  reference_id: string;
  shipper_id: string;
  carrier_id: string | null;
  status: string;
  shipment_type: number;
  vehicle_id: string | null;
  driver_id: string | null;
  trailer_id: string | null;
  total_weight_kg: string;
  price: string;
  booked_price: string | null;
  goods: string | null;
  assigned_at: Date | string | null;
  delivered_at: Date | string | null;
  payment_received_at: Date | string | null;
}
export async function tripLoad(db: DbOrTx, id: string, lock: boolean): Promise<TripLoadRow | null> {
  const rows = await queryRows<TripLoadRow>(
    db,
    sql`select id, reference_id, shipper_id, carrier_id, status, shipment_type, vehicle_id, driver_id, trailer_id,
          total_weight_kg::text as total_weight_kg, price::text as price, booked_price::text as booked_price,
          (select c.goods_type from cargo_lines c where c.load_id = loads.id order by c.idx limit 1) as goods,
          assigned_at, delivered_at, payment_received_at
        from loads where id = ${id} and deleted_at is null${lock ? sql` for update` : sql``}`,
  );
  return rows[0] ?? null;
}

/** The stop windows of a shipment (the fact-based record's on-time rule, docs/account-record.md). */
export interface StopWindowsRow {
  pickup_at: Date | string;
  pickup_latest_at: Date | string | null;
  pickup_hours_to: string | null;
  drop_at: Date | string;
  drop_hours_to: string | null;
}
/** The first pickup's and last drop's windows of a load (deleted ones too: the record counts what happened). */
export async function stopWindows(db: DbOrTx, id: string): Promise<StopWindowsRow | null> {
  const [r] = await queryRows<StopWindowsRow>(db, sql`select pickup_at, pickup_latest_at, pickup_hours_to, drop_at, drop_hours_to from loads where id = ${id}`);
  return r ?? null;
}

/** A load's lane: first pickup city, last drop city and its route distance in km (the dashboards, issue 20). */
export async function laneOf(
  db: DbOrTx,
  id: string,
): Promise<{ pickup_city_id: number; drop_city_id: number; distance_km: string | number; price: string | number } | null> {
  const [r] = await queryRows<{ pickup_city_id: number; drop_city_id: number; distance_km: string | number; price: string | number }>(
    db,
    sql`select pickup_city_id, drop_city_id, distance_km, price from loads where id = ${id}`,
  );
  return r ?? null;
}

// ---------------------------------------------------------------------------------------------
// Bookmarks and vendor audiences (migration 0082)

/** Which of `loadIds` `userId` bookmarked. */
export async function bookmarkedAmong(db: DbOrTx, userId: string, loadIds: string[]): Promise<Set<string>> {
  if (loadIds.length === 0) return new Set();
  const rows = await queryRows<{ load_id: string }>(
    db,
    sql`select load_id from load_bookmarks where user_id = ${userId} and load_id = any(${uuidArray(loadIds)}::uuid[])`,
  );
  return new Set(rows.map((r) => r.load_id));
}

/** Bookmark a load (idempotent: a second bookmark is a no-op). */
export async function addBookmark(db: DbOrTx, userId: string, loadId: string): Promise<void> {
  await db.insert(loadBookmarks).values({ userId, loadId }).onConflictDoNothing();
}

export async function removeBookmark(db: DbOrTx, userId: string, loadId: string): Promise<void> {
  await db.execute(sql`delete from load_bookmarks where user_id = ${userId} and load_id = ${loadId}`);
}

/** Replace the vendors (and their accounts) a load is offered to; [] clears them. */
export async function setLoadVendors(tx: DbOrTx, loadId: string, rows: { vendorId: string; userId: string }[]): Promise<void> {
  await tx.execute(sql`delete from load_vendors where load_id = ${loadId}`);
  if (rows.length) await tx.insert(loadVendors).values(rows.map((r) => ({ loadId, vendorId: r.vendorId, userId: r.userId })));
}

/** Copy a vendor shipment's audience to its duplicate. */
export async function copyLoadVendors(tx: DbOrTx, fromId: string, toId: string): Promise<void> {
  await tx.execute(sql`insert into load_vendors (load_id, vendor_id, user_id) select ${toId}, vendor_id, user_id from load_vendors where load_id = ${fromId}`);
}

/** Whether `userId` is among the accounts a vendor shipment is offered to. */
export async function isLoadVendor(db: DbOrTx, loadId: string, userId: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from load_vendors where load_id = ${loadId} and user_id = ${userId} limit 1`);
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Re-post detection (issue 19; migration 0105)

/**
 * The load `posterId` won (its booked carrier, another shipper's, not cancelled, booked since
 * `bookedSince`) on the lane pickupCityId → dropCityId whose pickup window [pickup_at,
 * pickup_latest_at] touches [dayStart, dayEnd) — the new load's pickup days. The oldest booking
 * wins. Index loads_carrier (carrier_id, status).
 */
export async function wonLoadOnLane(
  db: DbOrTx,
  q: { posterId: string; pickupCityId: number; dropCityId: number; dayStart: Date; dayEnd: Date; bookedSince: Date; exceptId: string },
): Promise<{ id: string; shipper_id: string; reference_id: string } | null> {
  const rows = await queryRows<{ id: string; shipper_id: string; reference_id: string }>(
    db,
    sql`select l.id, l.shipper_id, l.reference_id from loads l
        where l.carrier_id = ${q.posterId} and l.status not in ('cancelled', 'posted', 'unposted', 'expired')
          and l.shipper_id <> ${q.posterId} and l.id <> ${q.exceptId} and l.deleted_at is null
          and l.pickup_city_id = ${q.pickupCityId} and l.drop_city_id = ${q.dropCityId}
          and l.booked_at >= ${q.bookedSince}
          and l.pickup_at < ${q.dayEnd} and coalesce(l.pickup_latest_at, l.pickup_at) >= ${q.dayStart}
        order by l.booked_at, l.id
        limit 1`,
  );
  return rows[0] ?? null;
}

/** Flagged re-posts for the operator's report, newest first (index loads_reposts_recent). */
export async function repostReport(db: DbOrTx, limit: number) {
  return queryRows<{
    reference_id: string;
    created_at: Date | string;
    status: string;
    poster_company: string;
    poster_phone: string;
    original_reference_id: string;
    original_shipper_company: string;
    from_en: string;
    to_en: string;
    pickup_at: Date | string;
  }>(
    db,
    sql`select n.reference_id, n.created_at, n.status, pu.company_name as poster_company, pu.phone as poster_phone,
          o.reference_id as original_reference_id, su.company_name as original_shipper_company,
          pc.name_en as from_en, dc.name_en as to_en, n.pickup_at
        from loads n
        join loads o on o.id = n.reposted_from
        join users pu on pu.id = n.shipper_id
        join users su on su.id = o.shipper_id
        join cities pc on pc.id = n.pickup_city_id
        join cities dc on dc.id = n.drop_city_id
        where n.reposted_from is not null
        order by n.created_at desc, n.id desc
        limit ${limit}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Board versions per pickup place and equipment (migration 0102, issue 24; the search cache keys on them)

export type { BoardPlace } from '../../db/place-versions.ts';

/** Bump the load board's places (`(pickup_city_id, equipment)` rows): see bumpPlaceVersions, the LAST statement of the write's transaction. */
const bumpPlaces = (tx: DbOrTx, places: SQL) => bumpPlaceVersions(tx, 'board_versions', places);

/**
 * Bump the places of `loadIds` as they are now in this transaction, plus `before` (the places an
 * edit moved them from). See bumpPlaces: the LAST statement of the write's transaction.
 */
export async function bumpBoardLoads(tx: DbOrTx, loadIds: string[], before: BoardPlace[] = []): Promise<void> {
  if (!loadIds.length && !before.length) return;
  await bumpPlaces(tx, sql`select pickup_city_id, equipment_type from loads where id = any(${uuidArray(loadIds)}::uuid[]) union ${placesSql(before)}`);
}

/** Bump the places of every load of `shipperIds` (the demo refresh moves all their dates). */
export async function bumpBoardShippers(tx: DbOrTx, shipperIds: string[]): Promise<void> {
  if (!shipperIds.length) return;
  await bumpPlaces(tx, sql`select distinct pickup_city_id, equipment_type from loads where shipper_id = any(${uuidArray(shipperIds)}::uuid[])`);
}

/** The version of the load board's places a search covers (its pickup city and radius, its equipment): see placeVersion. */
export const boardPageVersion = (db: DbOrTx, q: { pickupCityId?: number; radius?: number; equipmentType?: string }): Promise<number> =>
  placeVersion(db, 'board_versions', { cityId: q.pickupCityId, radius: q.radius, equipment: q.equipmentType });

/** What the lane rate index (modules/rates) records of a booked load: one row, deleted loads too. */
export interface RateFactsRow {
  shipper_id: string;
  carrier_id: string | null;
  status: string;
  load_type: 'FTL' | 'LTL';
  equipment_type: string;
  shipment_type: number;
  distance_km: number;
  total_weight_kg: number | null;
  price: string;
  booked_price: string | null;
  booked_at: Date | string | null;
  book_now: boolean;
  pickup_city_id: number;
  pickup_region_id: number;
  drop_city_id: number;
  drop_region_id: number;
  has_vendors: boolean;
  offer_price: string | null;
  offer_original_price: string | null;
  offer_last_by: 'carrier' | 'shipper' | null;
  tender_awarded: boolean;
}
/** The rate facts of a load: its lane (cities and regions), terms, booking and how it was booked (accepted offer, awarded tender, vendor audience). */
export async function rateFacts(db: DbOrTx, id: string): Promise<RateFactsRow | null> {
  const [r] = await queryRows<RateFactsRow>(
    db,
    sql`select l.shipper_id, l.carrier_id, l.status, l.load_type, l.equipment_type, l.shipment_type::int as shipment_type,
               l.distance_km::float8 as distance_km, l.total_weight_kg::float8 as total_weight_kg, l.price::text as price,
               l.booked_price::text as booked_price, l.booked_at, l.book_now,
               l.pickup_city_id, pc.region_id as pickup_region_id, l.drop_city_id, dc.region_id as drop_region_id,
               exists (select 1 from load_vendors v where v.load_id = l.id) as has_vendors,
               o.price::text as offer_price, o.original_price::text as offer_original_price, o.last_offer_by as offer_last_by,
               exists (select 1 from tenders t where t.load_id = l.id and t.status = 'awarded') as tender_awarded
        from loads l
        join cities pc on pc.id = l.pickup_city_id
        join cities dc on dc.id = l.drop_city_id
        left join offers o on o.load_id = l.id and o.status = 'accepted'
        where l.id = ${id}`,
  );
  return r ?? null;
}
