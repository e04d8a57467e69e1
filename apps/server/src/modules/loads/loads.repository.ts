import { sql, type SQL } from 'drizzle-orm';
import {
  ACTIVE_LOAD_STATUSES,
  COUNT_CAP,
  FLEET_LIMITS,
  loadOptionsFor,
  MY_LOADS_TABS,
  SHIPMENT_TYPE,
  type Load,
  type LoadOptionsView,
  type MyLoadsTab,
  type SearchLoadsQuery,
  type StopAddressInput,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { cargoLines, loadBookmarks, loadStops, loadVendors, loads } from '../../db/schema/index.ts';
import { type CursorKeyType, decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { inList, queryRows } from '../../lib/sql.ts';

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
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/**
 * Columns of a load as the API returns it (loadSchema), from `loads l join users u`: stops with
 * city names and cargo lines as JSON, pending-offer count. One round trip per page.
 */
const LOAD_COLUMNS = sql.raw(`
  l.id, l.reference_id, case when l.status = 'posted' and l.expires_at <= now() then 'expired' -- EXPIRED('l.'), inlined in this raw list
    -- a Bayan creation under way (or cut by a crash, until its job resumes it): pending Bayan (issue 22)
    when l.status = 'assigned' and exists (select 1 from bayan_trips b where b.load_id = l.id and b.status = 'pending') then 'pending_bayan'
    else l.status end as status,
  l.load_type, l.equipment_type, l.price::text as price, l.currency, l.distance_km::float8 as distance_km,
  l.rate_per_km::text as rate_per_km, l.total_weight_kg::float8 as total_weight_kg, l.comments,
  l.pickup_at, l.drop_at, l.posted_at, l.expires_at, l.created_at, l.shipper_id, u.company_name as shipper_company,
  l.carrier_id, l.booked_price::text as booked_price, l.deleted_at, l.shipment_type, l.delivered_at, l.payment_received_at,
  -- More Options (issue 7): a live Bayan trip (index bayan_trips_live) and whether the assigned
  -- vehicle needs one (3.5 t+); only for assigned shipments, so board rows read nothing more
  case when l.vehicle_id is null then false else exists (select 1 from bayan_trips b where b.load_id = l.id and b.status = 'active') end as has_bayan,
  case when l.vehicle_id is null then true else coalesce((select v.weight_kg >= ${FLEET_LIMITS.waslMinWeightKg} from vehicles v where v.id = l.vehicle_id), true) end as bayan_required,
  l.pickup_latest_at, l.pickup_hours_from, l.pickup_hours_to, l.drop_hours_from, l.drop_hours_to, l.payment_method, l.paid_by,
  l.payment_terms_days, l.detention_free_hours, l.detention_rate::text as detention_rate, l.delivery_type, l.delivery_to, l.tradable,
  case when l.shipment_type = 2 then (select coalesce(json_agg(lv.vendor_id), '[]'::json) from load_vendors lv where lv.load_id = l.id) else '[]'::json end as vendor_ids,
  (select count(*)::int from offers o where o.load_id = l.id and o.status = 'pending') as offers_count,
  (select coalesce(json_agg(json_build_object('id', s.id, 'index', s.idx, 'stopType', s.stop_type, 'cityId', s.city_id,
      'cityNameEn', c.name_en, 'cityNameAr', c.name_ar, 'districtId', s.district_id, 'lat', s.lat, 'lng', s.lng,
      'date', s.date, 'address', s.address, 'addressDetails', s.address_details) order by s.idx), '[]'::json)
     from load_stops s join cities c on c.id = s.city_id where s.load_id = l.id) as stops,
  (select coalesce(json_agg(json_build_object('id', g.id, 'goodsType', g.goods_type, 'lengthCm', g.length_cm, 'widthCm', g.width_cm,
      'heightCm', g.height_cm, 'quantity', g.quantity, 'weightPerItemKg', g.weight_per_item_kg, 'stackable', g.stackable,
      'adr', g.adr, 'conditions', g.conditions) order by g.idx), '[]'::json)
     from cargo_lines g where g.load_id = l.id) as cargo`);

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
  delivery_type: Load['deliveryType'];
  delivery_to: string | null;
  tradable: boolean;
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
    deliveryType: r.delivery_type,
    deliveryTo: r.delivery_to,
    tradable: r.tradable,
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
  return queryRows<LoadRow>(db, sql`select ${LOAD_COLUMNS} from loads l join users u on u.id = l.shipper_id where l.id = any(${uuidArray(ids)}::uuid[])`);
}

export async function findLoad(db: DbOrTx, id: string): Promise<LoadRow | null> {
  return (await findLoads(db, [id]))[0] ?? null;
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
  }>(
    db,
    sql`select id, shipper_id, carrier_id, status, ${EXPIRED('')} as expired, deleted_at is not null as deleted,
          equipment_type, pickup_city_id, drop_city_id, shipment_type
        from loads where id = ${id}${suffix}`,
  );
  return rows[0] ?? null;
}

export type LoadState = NonNullable<Awaited<ReturnType<typeof loadState>>>;

export interface CityRef {
  id: number;
  lat: number;
  lng: number;
}
export async function findCities(db: DbOrTx, ids: number[]): Promise<Map<number, CityRef>> {
  const uniq = [...new Set(ids)];
  const rows = await queryRows<CityRef>(db, sql`select id, lat, lng from cities where id = any(${`{${uniq.join(',')}}`}::int[])`);
  return new Map(rows.map((r) => [r.id, r]));
}

/** District id → its city id, for the districts of `ids` that exist. */
export async function districtCities(db: DbOrTx, ids: number[]): Promise<Map<number, number>> {
  const rows = await queryRows<{ id: string | number; city_id: number }>(
    db,
    sql`select id, city_id from districts where id = any(${`{${[...new Set(ids)].join(',')}}`}::bigint[])`,
  );
  return new Map(rows.map((r) => [Number(r.id), Number(r.city_id)]));
}

export async function equipmentExists(db: DbOrTx, code: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from equipment_types where code = ${code}`);
  return rows.length > 0;
}

/** Goods type codes (of `codes`) that do not exist. */
export async function unknownGoodsTypes(db: DbOrTx, codes: string[]): Promise<string[]> {
  const uniq = [...new Set(codes)];
  const rows = await queryRows<{ code: string }>(
    db,
    sql`select code from goods_types where code = any(${`{${uniq.map((c) => `"${c.replace(/["\\]/g, '')}"`).join(',')}}`}::text[])`,
  );
  const known = new Set(rows.map((r) => r.code));
  return uniq.filter((c) => !known.has(c));
}

export async function nextReference(db: DbOrTx): Promise<string> {
  const [r] = await queryRows<{ n: string | number }>(db, sql`select nextval('load_reference_seq') as n`);
  return `LD-${String(r.n).padStart(6, '0')}`;
}

export type NewLoad = typeof loads.$inferInsert;
export type NewStop = Omit<typeof loadStops.$inferInsert, 'loadId'>;
export type NewCargo = Omit<typeof cargoLines.$inferInsert, 'loadId'>;

/** Insert a load with its stops and cargo lines (call inside a transaction). */
export async function insertLoad(tx: DbOrTx, load: NewLoad, stops: NewStop[], cargo: NewCargo[]) {
  await tx.insert(loads).values(load);
  await tx.insert(loadStops).values(stops.map((s) => ({ ...s, loadId: load.id })));
  await tx.insert(cargoLines).values(cargo.map((c) => ({ ...c, loadId: load.id })));
}

/**
 * Insert many complete loads at once, 200 rows per statement (the demo board; call inside a
 * transaction). Stops and cargo lines carry their loadId.
 */
export async function insertLoadsBulk(
  tx: DbOrTx,
  rows: { loads: NewLoad[]; stops: (typeof loadStops.$inferInsert)[]; cargo: (typeof cargoLines.$inferInsert)[] },
) {
  for (let i = 0; i < rows.loads.length; i += 200) await tx.insert(loads).values(rows.loads.slice(i, i + 200));
  for (let i = 0; i < rows.stops.length; i += 200) await tx.insert(loadStops).values(rows.stops.slice(i, i + 200));
  for (let i = 0; i < rows.cargo.length; i += 200) await tx.insert(cargoLines).values(rows.cargo.slice(i, i + 200));
}
export type NewStopRow = typeof loadStops.$inferInsert;
export type NewCargoRow = typeof cargoLines.$inferInsert;

/** `count` new load reference numbers (LD-000123) in one round trip. */
export async function nextReferenceIds(db: DbOrTx, count: number): Promise<string[]> {
  const rows = await queryRows<{ n: number }>(db, sql`select nextval('load_reference_seq')::int as n from generate_series(1, ${count})`);
  return rows.map((r) => `LD-${String(r.n).padStart(6, '0')}`);
}

/** Whether any of `shipperIds` has a load (deleted ones included). */
export async function shippersHaveLoads(db: DbOrTx, shipperIds: string[]): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from loads where shipper_id in ${inList(shipperIds)} limit 1`);
  return rows.length > 0;
}

/** The earliest pickup among the posted or expired loads of `shipperIds`, or null. */
export async function earliestOpenPickup(db: DbOrTx, shipperIds: string[]): Promise<Date | null> {
  const [r] = await queryRows<{ min: Date | string | null }>(
    db,
    sql`select min(pickup_at) as min from loads where shipper_id in ${inList(shipperIds)} and status in ('posted', 'expired')`,
  );
  return r?.min ? new Date(r.min) : null;
}

/**
 * Move every date of the loads of `shipperIds` (stops included) forward by `days`; creation,
 * posting and booking times never pass now. Expired loads whose new expiry is in the future go
 * back on the board. (The demo board's nightly refresh; call inside a transaction.)
 */
export async function shiftLoadDates(tx: DbOrTx, shipperIds: string[], days: number): Promise<void> {
  const by = sql`make_interval(days => ${days})`;
  const owners = inList(shipperIds);
  await tx.execute(sql`update loads set pickup_at = pickup_at + ${by}, drop_at = drop_at + ${by}, expires_at = expires_at + ${by},
      posted_at = least(posted_at + ${by}, now()), booked_at = least(booked_at + ${by}, now()), created_at = least(created_at + ${by}, now()), updated_at = now()
    where shipper_id in ${owners}`);
  await tx.execute(sql`update load_stops s set date = s.date + ${by} from loads l where l.id = s.load_id and l.shipper_id in ${owners}`);
  await tx.execute(sql`update loads set status = 'posted' where shipper_id in ${owners} and status = 'expired' and expires_at > now() and deleted_at is null`);
}

/** Replace a load's stops or cargo lines (call inside a transaction). */
export async function replaceStops(tx: DbOrTx, loadId: string, stops: NewStop[]) {
  await tx.execute(sql`delete from load_stops where load_id = ${loadId}`);
  await tx.insert(loadStops).values(stops.map((s) => ({ ...s, loadId })));
}
export async function replaceCargo(tx: DbOrTx, loadId: string, cargo: NewCargo[]) {
  await tx.execute(sql`delete from cargo_lines where load_id = ${loadId}`);
  await tx.insert(cargoLines).values(cargo.map((c) => ({ ...c, loadId })));
}

/** Move one stop to a new date (repost with new dates). */
export async function setStopDate(tx: DbOrTx, stopId: string, date: Date): Promise<void> {
  await tx.execute(sql`update load_stops set date = ${date.toISOString()}::timestamptz where id = ${stopId}`);
}

/** Stops and cargo of a load as insertable rows (duplicate, repost). */
export async function stopsAndCargo(db: DbOrTx, loadId: string) {
  const stops = await db
    .select()
    .from(loadStops)
    .where(sql`${loadStops.loadId} = ${loadId}`)
    .orderBy(loadStops.idx);
  const cargo = await db
    .select()
    .from(cargoLines)
    .where(sql`${cargoLines.loadId} = ${loadId}`)
    .orderBy(cargoLines.idx);
  return { stops, cargo };
}

export async function rawLoad(db: DbOrTx, id: string) {
  const rows = await db
    .select()
    .from(loads)
    .where(sql`${loads.id} = ${id}`);
  return rows[0] ?? null;
}

export async function updateLoadRow(tx: DbOrTx, id: string, set: Partial<NewLoad>) {
  await tx
    .update(loads)
    .set({ ...set, updatedAt: new Date() })
    .where(sql`${loads.id} = ${id}`);
}

/** Fields a lifecycle transition may set beside the status (assignment, delivery, payment). */
export type TransitionSet = Partial<
  Pick<NewLoad, 'vehicleId' | 'driverId' | 'trailerId' | 'assignedAt' | 'deliveredAt' | 'paymentReceivedAt' | 'deletedAt' | 'carrierId'>
>;

/**
 * Move a load to `to` only if it is in one of `from` (the conditional update that decides a
 * race between two transitions); false when its status changed meanwhile.
 */
export async function transitionRow(tx: DbOrTx, id: string, from: readonly string[], to: string, set: TransitionSet = {}): Promise<boolean> {
  const rows = await tx
    .update(loads)
    .set({ ...set, status: to as NewLoad['status'], updatedAt: new Date() })
    .where(sql`${loads.id} = ${id} and ${loads.status} in ${inList([...from])}`)
    .returning({ id: loads.id });
  return rows.length > 0;
}

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

// ---------------------------------------------------------------------------------------------
// The load board search (DESIGN §6)

/** What the board search needs; the shape of GET /loads' query. `now` only for tests. */
export type BoardQuery = Pick<
  SearchLoadsQuery,
  'pickupCityId' | 'radius' | 'dropCityId' | 'dropRadius' | 'equipmentType' | 'loadType' | 'pickupFrom' | 'pickupTo' | 'sort' | 'limit' | 'skip'
> & { cursor?: string };

/** Great-circle metres from city `o` to city `c` (haversine on the sphere of earth(), 6378168 m). */
const GREAT_CIRCLE_M = sql.raw(`12756336 * asin(least(1, sqrt(
  power(sin(radians(c.lat - o.lat) / 2), 2) + cos(radians(o.lat)) * cos(radians(c.lat)) * power(sin(radians(c.lng - o.lng) / 2), 2))))`);

/**
 * From this radius up, a newest-first search walks the open loads newest first (loads_board_recent)
 * and keeps those picked up in a city of the circle, instead of reading every load of every city
 * in it and sorting them: at 1,000 km around Riyadh most open loads match, so the walk stops after
 * about the page, where the per-city path read and sorted ~700k rows (issue 10: 320 ms → ~3 ms).
 */
export const WIDE_RADIUS_KM = 500;

/**
 * Cities inside `radiusKm` of city `cityId` with their great-circle distance in metres, through
 * the cities GiST on ll_to_earth(lat, lng): earth_box is the index-backed bounding cube, then
 * the exact great-circle test. Without a radius: that city only (distance 0).
 */
function citiesAround(cityId: number, radiusKm: number | undefined): SQL {
  if (!radiusKm) return sql`(select o.id, 0::float8 as dist_m from cities o where o.id = ${cityId})`;
  const r = radiusKm * 1000;
  // The exact test is the haversine formula on plain doubles: the same great circle as
  // earth_distance (sphere of earth() = 6378168 m) but without two ll_to_earth SQL-function
  // calls per candidate city, which cost more than the rest of the search on PostgreSQL 15.
  return sql`(select c.id, d.m as dist_m
      from cities o
      join cities c on earth_box(ll_to_earth(o.lat, o.lng), ${r}::float8) @> ll_to_earth(c.lat, c.lng)
      cross join lateral (select ${GREAT_CIRCLE_M} as m) d
      where o.id = ${cityId} and d.m <= ${r}::float8)`;
}

/**
 * A board ordering: its keys (first to last, then the load id as the last tie-break), all in
 * one direction so that a keyset cursor is one row comparison. `inner` names a key in the page
 * query (alias l, pc), `outer` in its result (alias p), `type` casts it back from a cursor.
 */
interface BoardSort {
  dir: 'asc' | 'desc';
  keys: { inner: string; outer: string; type: CursorKeyType }[];
}
const key = (col: string, type: CursorKeyType, inner = `l.${col}`) => ({ inner, outer: `p.${col}`, type });
const SORTS: Record<BoardQuery['sort'], BoardSort> = {
  newest: { dir: 'desc', keys: [key('posted_at', 'timestamptz')] },
  pickup: { dir: 'asc', keys: [key('pickup_at', 'timestamptz')] },
  price: { dir: 'desc', keys: [key('price', 'numeric')] },
  ratePerKm: { dir: 'desc', keys: [key('rate_per_km', 'numeric')] },
  // nearest first, then the earliest pickup (the order loads_board_city gives within a city)
  deadhead: { dir: 'asc', keys: [key('dist_m', 'float8', 'pc.dist_m'), key('pickup_at', 'timestamptz')] },
};
const orderBy = (s: BoardSort, side: 'inner' | 'outer') =>
  sql.raw([...s.keys.map((k) => k[side]), side === 'inner' ? 'l.id' : 'p.id'].map((c) => `${c} ${s.dir}`).join(', '));

/**
 * After the cursor's row in the sort's order: `(k1, …, id) < (v1, …, id)` for a descending sort
 * (`>` ascending), plus `k1 <= v1` (`>=`) that an index walk in that order takes as its start.
 */
function afterCursor(s: BoardSort, c: { key: string[]; id: string }): SQL {
  const op = sql.raw(s.dir === 'desc' ? '<' : '>');
  const bound = sql.raw(s.dir === 'desc' ? '<=' : '>=');
  const vals = c.key.map((v, i) => sql`${v}::${sql.raw(s.keys[i].type)}`);
  const cols = s.keys.map((k) => sql.raw(k.inner));
  return sql`${cols[0]} ${bound} ${vals[0]} and (${sql.join([...cols, sql.raw('l.id')], sql`, `)}) ${op} (${sql.join([...vals, sql`${c.id}::uuid`], sql`, `)})`;
}

/** The sort the board actually uses (deadhead needs a pickup city; newest without one). */
const boardSortOf = (q: Pick<BoardQuery, 'sort' | 'pickupCityId'>) => (q.sort === 'deadhead' && q.pickupCityId == null ? 'newest' : q.sort);

/**
 * The board search as one SQL statement: open loads (status posted, expires_at in the future)
 * matching the filters, one page in the chosen order, each with its deadhead distance and the
 * capped total, hydrated with stops and cargo. The pickup-radius path joins the cities in the
 * circle (GiST) to the covering btrees loads_board_equipment / loads_board_city (migration 0010)
 * so that only the loads of those cities are read, index-only.
 * The total counts at most COUNT_CAP + 1 matches (an uncorrelated subquery with a LIMIT, run
 * once): a board of a million open loads costs no more to count than one of a thousand
 * (issue 10; an exact `count(*) over ()` read every match, 320 ms at 1M).
 * Sorts: newest (posted_at desc), pickup (earliest first), price and ratePerKm (highest first),
 * deadhead (nearest first, then earliest pickup; newest without a pickup city); ties by id.
 * Paging: `skip` (≤ SKIP_MAX) or `cursor` (keyset after the previous page's last row: reads only
 * the page at any depth). A wide radius (≥ WIDE_RADIUS_KM) walks an index in the sort's order
 * (migration 0094) and keeps the loads of the circle's cities, or for deadhead reads the cities
 * nearest first, each only up to the page.
 */
export function boardSearchSql(q: BoardQuery, hidden: readonly string[] = []): SQL {
  const hasPickup = q.pickupCityId != null;
  const sortName = boardSortOf(q);
  const sort = SORTS[sortName];
  const after = q.cursor
    ? decodeCursor(
        q.cursor,
        `board:${sortName}`,
        sort.keys.map((k) => k.type),
      )
    : null;
  const skip = after ? 0 : q.skip;
  // the public board: marketplace shipments only (vendor and own-vehicle ones never show; the
  // board's partial indexes carry the same `shipment_type = 1`, migration 0082)
  const where: SQL[] = [sql`${ON_BOARD('l.')} and l.shipment_type = ${sql.raw(String(SHIPMENT_TYPE.marketplace))}`];
  if (q.equipmentType) where.push(sql`l.equipment_type = ${q.equipmentType}`);
  if (q.loadType) where.push(sql`l.load_type = ${q.loadType}`);
  if (q.pickupFrom) where.push(sql`l.pickup_at >= ${q.pickupFrom}::timestamptz`);
  if (q.pickupTo) where.push(sql`l.pickup_at <= ${q.pickupTo}::timestamptz`);
  // issue 8: shippers hidden from the viewer by a block (either way); absent for everyone else,
  // so their statement (and its prepared name) stays as it was
  if (hidden.length) where.push(hiddenShippers(hidden));
  if (q.dropCityId != null) {
    where.push(q.dropRadius ? sql`l.drop_city_id in (select id from ${citiesAround(q.dropCityId, q.dropRadius)} dc)` : sql`l.drop_city_id = ${q.dropCityId}`);
  }
  const wide = hasPickup && (q.radius ?? 0) >= WIDE_RADIUS_KM;
  // the count always takes the per-city path, before the cursor: it stops at COUNT_CAP + 1 rows in any order
  const countFrom = hasPickup ? sql`${citiesAround(q.pickupCityId!, q.radius)} pc join loads l on l.pickup_city_id = pc.id` : sql`loads l`;
  const countFilter = sql.join(where, sql` and `);
  if (after) where.push(afterCursor(sort, after));
  const walk = q.limit + skip;
  let from: SQL;
  if (wide && sortName === 'deadhead') {
    // the circle's cities nearest first, each read in pickup order up to the page: the outer
    // order's first key is the cities' own, so the page stops after the nearest cities
    from = sql`(select * from ${citiesAround(q.pickupCityId!, q.radius)} c0 order by dist_m, id) pc
      cross join lateral (select l.id, l.posted_at, l.pickup_at, l.price, l.rate_per_km from loads l
        where l.pickup_city_id = pc.id and ${sql.join(where, sql` and `)} order by l.pickup_at, l.id limit ${walk}) l`;
    where.splice(0, where.length, sql`true`);
  } else if (wide) {
    // walk the sort's index (loads_board_recent / _price / _rate / _pickup) and keep the circle's
    // loads; `+ 0`: not an index condition, so the walk cannot turn into per-city reads + a sort
    where.push(sql`l.pickup_city_id + 0 = any(array(select id from ${citiesAround(q.pickupCityId!, q.radius)} pc))`);
    from = sql`loads l`;
  } else {
    from = hasPickup ? sql`${citiesAround(q.pickupCityId!, q.radius)} pc join loads l on l.pickup_city_id = pc.id` : sql`loads l`;
  }
  // the wide walk computes the deadhead for the page's rows only
  const dist =
    wide && sortName !== 'deadhead'
      ? sql`(select ${GREAT_CIRCLE_M} from cities o, cities c where o.id = ${q.pickupCityId} and c.id = l.pickup_city_id)`
      : hasPickup
        ? sql`pc.dist_m`
        : sql`null::float8`;
  const filter = sql.join(where, sql` and `);
  const cursorKey = sql.raw(`array[${sort.keys.map((k) => `${k.outer}::text`).join(', ')}]`);
  return sql`select ${LOAD_COLUMNS}, p.dist_m, ${cursorKey} as cursor_key,
      (select count(*)::int from (select 1 from ${countFrom} where ${countFilter} limit ${COUNT_CAP + 1}) m) as total
    from (
      select l.id, l.posted_at, l.pickup_at, l.price, l.rate_per_km, ${dist} as dist_m
      from ${from}
      where ${filter}
      order by ${orderBy(sort, 'inner')}
      limit ${q.limit} offset ${skip}
    ) p
    join loads l on l.id = p.id
    join users u on u.id = l.shipper_id
    order by ${orderBy(sort, 'outer')}`;
}

/**
 * Loads not posted by any of `hidden` (issue 8: users blocked by or blocking the viewer): one
 * predicate with the ids as ONE uuid[] parameter (a PostgreSQL array literal), so a viewer's
 * statement text does not change with the number of blocks.
 */
const hiddenShippers = (hidden: readonly string[]) => sql`l.shipper_id <> all(${`{${hidden.join(',')}}`}::uuid[])`;

/** A count of at most COUNT_CAP + 1 → the API's `{ total, totalCapped }`. */
const capped = (n: number) => ({ total: Math.min(n, COUNT_CAP), totalCapped: n > COUNT_CAP });

/**
 * Run the board search (the same function serves GET /loads and bench/search.bench.ts).
 * Returns the page's loads with deadheadKm (great-circle km from the searched pickup city to
 * the load's first pickup, 1 dp) when a pickup city is given, and the total: exact up to
 * COUNT_CAP, else COUNT_CAP with totalCapped. The statement is prepared (see queryRows) and
 * always planned for its values (plan_cache_mode, db/client.ts).
 */
export async function searchBoard(
  db: Db,
  q: BoardQuery,
  viewerId: string | null = null,
  hidden: readonly string[] = [],
): Promise<{ items: Load[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const rows = await queryRows<LoadRow & { dist_m: number | null; total: number; cursor_key: string[] }>(db, boardSearchSql(q, hidden), 'board');
  let n = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && (q.skip > 0 || q.cursor)) {
    const c = await queryRows<{ total: number }>(db, boardSearchSql({ ...q, skip: 0, cursor: undefined, limit: 1 }, hidden), 'board');
    n = c.length ? Number(c[0].total) : 0;
  }
  const withDeadhead = q.pickupCityId != null;
  const last = rows.length === q.limit ? rows[rows.length - 1] : null;
  return {
    items: rows.map((r) => toLoad(r, viewerId, withDeadhead ? Math.round(Number(r.dist_m ?? 0) / 100) / 10 : undefined)),
    ...capped(n),
    nextCursor: last ? encodeCursor(`board:${boardSortOf(q)}`, last.cursor_key, last.id) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// My loads

/** The sort key of my loads (the expression of the indexes loads_owner_tab / loads_carrier_tab). */
const MY_KEY = sql.raw('coalesce(l.posted_at, l.created_at)');

/**
 * A tab of my loads as a union of branches, each a plain range of one owner index (migration
 * 0070, 0082): (shipper_id | carrier_id, status) walked newest first, my pending offers, my
 * bookmarks, or the shipments offered to me as a vendor. Every branch yields (id, k) with k the
 * sort key. A tab's page reads at most `limit + skip` entries per branch and its count at most
 * COUNT_CAP + 1, whatever the size of the owner or of the table (issue 10: the old
 * `or l.id in (select … from offers)` read all loads).
 */
function tabBranches(me: string, tab: MyLoadsTab): SQL[] {
  const branch = (w: SQL) => sql`(select l.id, ${MY_KEY} as k from loads l where ${w})`;
  const mine = (who: 'shipper_id' | 'carrier_id', status: string, extra?: SQL) =>
    branch(sql`l.${sql.raw(who)} = ${me} and l.status = ${status} and l.deleted_at is null${extra ? sql` and ${extra}` : sql``}`);
  const both = (status: string) => [mine('shipper_id', status), mine('carrier_id', status)];
  const withOffers = (who: 'shipper_id' | 'carrier_id') =>
    branch(
      sql`l.id in (select o.load_id from offers o where o.${sql.raw(who)} = ${me} and o.status = 'pending') and ${ON_BOARD('l.')} and l.deleted_at is null`,
    );
  // a cancelled load carries deleted_at: loads_owner_cancelled / loads_carrier_cancelled (0082)
  const cancelled = (['shipper_id', 'carrier_id'] as const).map((who) => branch(sql`l.${sql.raw(who)} = ${me} and l.status = 'cancelled'`));
  switch (tab) {
    case 'posted':
      return [mine('shipper_id', 'posted', sql`l.expires_at > now()`)];
    case 'unposted':
      return [mine('shipper_id', 'unposted')];
    case 'offers':
      return [withOffers('shipper_id'), withOffers('carrier_id')];
    case 'active':
      return ACTIVE_LOAD_STATUSES.flatMap(both);
    case 'finished':
      return [...both('completed'), ...cancelled, ...both('expired'), pastExpiry(me)];
    case 'unassigned':
    case 'assigned':
    case 'pending_bayan':
    case 'completed':
      return both(tab);
    case 'cancelled':
      return cancelled;
    case 'expired':
      return [mine('shipper_id', 'expired'), pastExpiry(me)];
    case 'bookmarks':
      return [sql`(select bm.load_id as id, bm.created_at as k from load_bookmarks bm where bm.user_id = ${me} order by bm.created_at desc)`];
    case 'customers':
      // driven from my rows of load_vendors (index load_vendors_user): `l.id in (…)` got a generic
      // plan that hashed them against a parallel scan of every load (720 ms at 1M loads)
      return [
        sql`(select l.id, ${MY_KEY} as k from (select distinct lv.load_id from load_vendors lv where lv.user_id = ${me}) v
             join loads l on l.id = v.load_id where ${ON_BOARD('l.')} and l.deleted_at is null)`,
      ];
  }
}

/**
 * Posted loads of mine past their expiry that the expiry job has not flipped yet (the
 * "finished" and "expired" tabs): a range of loads_owner_expiry, ordered by expiry so that the
 * planner cannot walk all of my posted loads instead (a subquery with ORDER BY is not flattened).
 */
const pastExpiry = (me: string) =>
  sql`(select l.id, ${MY_KEY} as k from loads l
       where l.shipper_id = ${me} and l.status = 'posted' and l.deleted_at is null and l.expires_at <= now() order by l.expires_at)`;

/**
 * One tab of my loads (spec §2 "My shipments"), newest first (coalesce(posted_at, created_at)
 * desc, id desc; bookmarks: newest bookmark first), with every tab's count: exact up to
 * COUNT_CAP, then COUNT_CAP and capped. Two statements (page, counts), each reading only the
 * owner's index entries; then one read of my bookmarks among the page. Both are named prepared
 * statements with a generic plan (queryRows 'generic': planning the 26-branch count cost more
 * than running it; every branch is an owner-index range whatever the values). Paging: `skip`
 * (≤ SKIP_MAX: each branch reads skip + limit entries) or `cursor` (after the previous page's
 * last (k, id): each branch starts there and reads at most `limit`).
 */
export async function myLoads(db: Db, me: string, tab: MyLoadsTab, limit: number, skip: number, cursor?: string) {
  const after = cursor ? decodeCursor(cursor, `mine:${tab}`, ['timestamptz']) : null;
  const offset = after ? 0 : skip;
  const walk = limit + offset;
  const branches = (t: MyLoadsTab, each: (from: SQL) => SQL) =>
    sql.join(
      tabBranches(me, t).map((f, i) => sql`(${each(sql`${f} b${sql.raw(String(i))}`)})`),
      sql` union `,
    );
  const start = after ? sql` where k <= ${after.key[0]}::timestamptz and (k, id) < (${after.key[0]}::timestamptz, ${after.id}::uuid)` : sql``;
  const page = branches(tab, (f) => sql`select id, k from ${f}${start} order by k desc, id desc limit ${walk}`);
  const count = (t: MyLoadsTab) => sql`(select count(*)::int from (${branches(t, (f) => sql`select id from ${f} limit ${COUNT_CAP + 1}`)}) m) as ${sql.raw(t)}`;
  const [rows, [c]] = await Promise.all([
    queryRows<LoadRow & { k: string }>(
      db,
      sql`select ${LOAD_COLUMNS}, p.k::text as k
          from (select id, k from (${page}) b order by k desc, id desc limit ${limit} offset ${offset}) p
          join loads l on l.id = p.id join users u on u.id = l.shipper_id
          order by p.k desc, p.id desc`,
      'my_loads',
      'generic',
    ),
    queryRows<Record<MyLoadsTab, number>>(db, sql`select ${sql.join(MY_LOADS_TABS.map(count), sql`, `)}`, 'my_counts', 'generic'),
  ]);
  const marked =
    tab === 'bookmarks'
      ? new Set(rows.map((r) => r.id))
      : await bookmarkedAmong(
          db,
          me,
          rows.map((r) => r.id),
        );
  const counts = {} as Record<MyLoadsTab, number>;
  const countsCapped = {} as Record<MyLoadsTab, boolean>;
  for (const t of MY_LOADS_TABS) {
    const x = capped(Number(c[t]));
    counts[t] = x.total;
    countsCapped[t] = x.totalCapped;
  }
  const last = rows.length === limit ? rows[rows.length - 1] : null;
  return {
    items: rows.map((r) => toLoad(r, me, undefined, marked.has(r.id))),
    total: counts[tab],
    totalCapped: countsCapped[tab],
    nextCursor: last ? encodeCursor(`mine:${tab}`, [last.k], last.id) : null,
    counts,
    countsCapped,
  };
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

/**
 * Expire posted loads past `expires_at` (the expiry job): the rows turn `expired`, which takes
 * them out of the board's partial indexes. At most `limit` per call; SKIP LOCKED so a load being
 * booked right now is left for the next tick. Returns the expired loads.
 */
export async function expireDue(tx: DbOrTx, limit: number): Promise<{ id: string; shipper_id: string }[]> {
  return queryRows<{ id: string; shipper_id: string }>(
    tx,
    sql`update loads set status = 'expired', updated_at = now()
        where id in (select id from loads where ${EXPIRED('')} and status = 'posted' and deleted_at is null
                     order by expires_at limit ${limit} for update skip locked)
        returning id, shipper_id`,
  );
}

/**
 * Book a load: the conditional update that decides a race. Only an open load (posted, not
 * expired, not deleted) turns booked (`unassigned`: no truck yet, lifecycle.ts); false means someone else booked it (or it closed).
 */
export async function bookLoad(tx: DbOrTx, loadId: string, carrierId: string, price: string): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`update loads set status = 'unassigned', carrier_id = ${carrierId}, booked_price = ${price}, booked_at = now(), updated_at = now()
        where id = ${loadId} and ${ON_BOARD('')} and deleted_at is null returning id`,
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// The board version (migration 0070; the search cache keys on it)

/**
 * Bump the board version. Call it in the transaction of every write that takes a load off the
 * board or changes what the board shows (book, cancel, unpost, repost, edit, expire), as that
 * transaction's LAST statement: the row lock is then held only until commit, and a transaction
 * holding it never waits for another lock (no deadlock cycle through this row).
 */
export async function bumpBoardVersion(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`update board_version set v = v + 1 where id = 1`);
}

/** The current board version: one primary-key read of one row. */
export async function boardVersion(db: DbOrTx): Promise<number> {
  const [r] = await queryRows<{ v: string | number }>(db, sql`select v from board_version where id = 1`, 'board_version');
  return Number(r.v);
}
