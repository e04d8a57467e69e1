import { sql, type SQL } from 'drizzle-orm';
import { COUNT_CAP, SHIPMENT_TYPE, TRUCK_WINDOW_MAX_DAYS, type InOutDirection, type SearchTrucksQuery, type TruckStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { trucks } from '../../db/schema/index.ts';
import { type CursorKeyType, decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { citiesAround, queryRows } from '../../lib/sql.ts';

/* Truck posts (issue 19): rows, the truck board search and matching with loads. The status
 * column is written only by lifecycle.repository.ts (through lifecycle.ts transition()). */

export type NewTruck = typeof trucks.$inferInsert;
/** Columns an edit may set (never the status). */
export type TruckEdit = Partial<Omit<NewTruck, 'id' | 'referenceId' | 'ownerId' | 'status' | 'createdAt'>>;

/** `TRK-000123`: the next truck reference. */
export async function nextReference(db: DbOrTx): Promise<string> {
  const [r] = await queryRows<{ n: number }>(db, sql`select nextval('truck_reference_seq')::int as n`);
  return `TRK-${String(r.n).padStart(6, '0')}`;
}

export async function insertTruck(tx: DbOrTx, row: NewTruck): Promise<void> {
  await tx.insert(trucks).values(row);
}

export async function updateTruck(tx: DbOrTx, id: string, set: TruckEdit): Promise<void> {
  await tx
    .update(trucks)
    .set({ ...set, updatedAt: new Date() })
    .where(sql`${trucks.id} = ${id}`);
}

export interface TruckState {
  id: string;
  owner_id: string;
  reference_id: string;
  status: TruckStatus;
  /** posted, but its window has ended (the job has not flipped it yet) */
  ended: boolean;
  available_from: Date;
  available_to: Date;
}

/** A truck's state, locked FOR UPDATE when `lock`. */
export async function truckState(db: DbOrTx, id: string, lock = false): Promise<TruckState | null> {
  const [r] = await queryRows<Omit<TruckState, 'available_from' | 'available_to'> & { available_from: string; available_to: string }>(
    db,
    sql`select id, owner_id, reference_id, status, available_to <= now() as ended, available_from, available_to
        from trucks where id = ${id}${lock ? sql` for update` : sql``}`,
  );
  return r ? { ...r, available_from: new Date(r.available_from), available_to: new Date(r.available_to) } : null;
}

/** The full row of a truck (duplicate). */
export async function truckRow(db: DbOrTx, id: string) {
  const [r] = await db
    .select()
    .from(trucks)
    .where(sql`${trucks.id} = ${id}`);
  return r ?? null;
}

// ---- reference checks (read-only reads of the reference and fleet tables) ----

export async function existingCities(db: DbOrTx, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await queryRows<{ id: number }>(db, sql`select id from cities where id = any(${`{${ids.join(',')}}`}::int[])`);
  return new Set(rows.map((r) => Number(r.id)));
}
export async function existingRegions(db: DbOrTx, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await queryRows<{ id: number }>(db, sql`select id from regions where id = any(${`{${ids.join(',')}}`}::int[])`);
  return new Set(rows.map((r) => Number(r.id)));
}
export async function equipmentExists(db: DbOrTx, code: string): Promise<boolean> {
  return (await queryRows(db, sql`select 1 from equipment_types where code = ${code}`)).length > 0;
}
/** Is `vehicleId` an active vehicle of `ownerId`? */
export async function ownVehicle(db: DbOrTx, ownerId: string, vehicleId: string): Promise<{ trailer_id: string | null } | null> {
  const [r] = await queryRows<{ trailer_id: string | null }>(
    db,
    sql`select trailer_id from vehicles where id = ${vehicleId} and owner_id = ${ownerId} and state = 'active'`,
  );
  return r ?? null;
}
export async function ownTrailer(db: DbOrTx, ownerId: string, trailerId: string): Promise<boolean> {
  return (await queryRows(db, sql`select 1 from trailers where id = ${trailerId} and owner_id = ${ownerId} and state = 'active'`)).length > 0;
}

// ---- reading trucks as the API shows them ----

export interface TruckRow {
  id: string;
  reference_id: string;
  owner_id: string;
  status: TruckStatus;
  load_type: 'FTL' | 'LTL';
  equipment_type: string;
  available_from: string;
  available_to: string;
  origin_city_id: number;
  origin_en: string;
  origin_ar: string;
  origin_lat: number;
  origin_lng: number;
  origin_radius_km: number | null;
  anywhere: boolean;
  dest_cities: { id: number; nameEn: string; nameAr: string }[] | null;
  dest_regions: { id: number; nameEn: string; nameAr: string }[] | null;
  min_rate: string;
  rate_basis: 'trip' | 'km';
  capacity_kg: number;
  pallets: number | null;
  space_cm: number | null;
  comments: string | null;
  vehicle_id: string | null;
  plate_digits: string | null;
  plate_letters: string | null;
  vehicle_type: string | null;
  wasl_status: string | null;
  trailer_id: string | null;
  trailer_number: string | null;
  trailer_type: string | null;
  company: string;
  owner_status: number;
  posted_at: string | null;
  created_at: string;
}

/** The trucks of `ids` with their cities, vehicle, trailer and owner (any order; the caller orders). */
export async function hydrate(db: DbOrTx, ids: string[]): Promise<Map<string, TruckRow>> {
  if (!ids.length) return new Map();
  const rows = await queryRows<TruckRow>(
    db,
    sql`select t.id, t.reference_id, t.owner_id, t.status, t.load_type, t.equipment_type,
          to_json(t.available_from) #>> '{}' as available_from, to_json(t.available_to) #>> '{}' as available_to,
          t.origin_city_id, oc.name_en as origin_en, oc.name_ar as origin_ar, oc.lat as origin_lat, oc.lng as origin_lng,
          t.origin_radius_km, t.anywhere,
          (select json_agg(json_build_object('id', c.id, 'nameEn', c.name_en, 'nameAr', c.name_ar) order by array_position(t.destination_city_ids, c.id))
             from cities c where c.id = any(t.destination_city_ids)) as dest_cities,
          (select json_agg(json_build_object('id', r.id, 'nameEn', r.name_en, 'nameAr', r.name_ar) order by array_position(t.destination_region_ids, r.id))
             from regions r where r.id = any(t.destination_region_ids)) as dest_regions,
          t.min_rate::text as min_rate, t.rate_basis, t.capacity_kg::float8 as capacity_kg, t.pallets, t.space_cm, t.comments,
          v.id as vehicle_id, v.plate_digits, v.plate_letters, v.vehicle_type, v.wasl_status,
          tr.id as trailer_id, tr.trailer_number, tr.trailer_type,
          u.company_name as company, u.status as owner_status,
          to_json(t.posted_at) #>> '{}' as posted_at, to_json(t.created_at) #>> '{}' as created_at
        from trucks t
        join cities oc on oc.id = t.origin_city_id
        join users u on u.id = t.owner_id
        left join vehicles v on v.id = t.vehicle_id
        left join trailers tr on tr.id = coalesce(t.trailer_id, v.trailer_id)
        where t.id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

// ---- keyset paging ----

interface TruckSort {
  keys: { col: string; type: CursorKeyType }[];
}
/** Orderings (all ascending, then id): deadhead (nearest origin, then earliest), date, rate (lowest minimum rate). */
const SORTS: Record<SearchTrucksQuery['sort'] | 'mine', TruckSort & { dir: 'asc' | 'desc' }> = {
  deadhead: {
    dir: 'asc',
    keys: [
      { col: 'dist_m', type: 'float8' },
      { col: 'available_from', type: 'timestamptz' },
    ],
  },
  date: { dir: 'asc', keys: [{ col: 'available_from', type: 'timestamptz' }] },
  rate: { dir: 'asc', keys: [{ col: 'min_rate', type: 'numeric' }] },
  mine: { dir: 'desc', keys: [{ col: 'created_at', type: 'timestamptz' }] },
};

function afterCursor(sortName: keyof typeof SORTS, cursor: string, cols: Record<string, SQL>): SQL {
  const s = SORTS[sortName];
  const c = decodeCursor(
    cursor,
    `trucks:${sortName}`,
    s.keys.map((k) => k.type),
  );
  const op = sql.raw(s.dir === 'desc' ? '<' : '>');
  const vals = c.key.map((v, i) => sql`${v}::${sql.raw(s.keys[i].type)}`);
  return sql`(${sql.join([...s.keys.map((k) => cols[k.col]), sql.raw('t.id')], sql`, `)}) ${op} (${sql.join([...vals, sql`${c.id}::uuid`], sql`, `)})`;
}
const orderBy = (sortName: keyof typeof SORTS, cols: Record<string, SQL>) => {
  const s = SORTS[sortName];
  return sql.join(
    [...s.keys.map((k) => cols[k.col]), sql.raw('t.id')].map((c) => sql`${c} ${sql.raw(s.dir)}`),
    sql`, `,
  );
};
const cursorOf = (sortName: keyof typeof SORTS, row: { id: string; cursor_key: string[] }) => encodeCursor(`trucks:${sortName}`, row.cursor_key, row.id);

/** A truck goes to city `cityIdSql` (region `regionIdSql`): anywhere, that city, or its region named. */
const goesTo = (cityIdSql: SQL, regionIdSql: SQL) =>
  sql`(t.anywhere or ${cityIdSql} = any(t.destination_city_ids) or ${regionIdSql} = any(t.destination_region_ids))`;

/** On the truck board: posted and its window not yet over. */
const ON_BOARD = sql.raw(`t.status = 'posted' and t.available_to > now()`);

/**
 * The truck board search (GET /searchTrucks): ids of one page in the sort's order with their
 * deadhead (m) and cursor keys. With an origin city the circle's cities (GiST) are joined to the
 * partial indexes trucks_board_city / trucks_board_equipment, one range per city; the date
 * filter bounds available_from on both sides (a window is at most TRUCK_WINDOW_MAX_DAYS long), so
 * it is a range of those indexes too. Reads limit + 1 rows to know whether a next page exists;
 * never counts the whole set.
 */
export async function searchTruckIds(db: DbOrTx, q: SearchTrucksQuery): Promise<{ ids: { id: string; dist_m: number | null }[]; nextCursor: string | null }> {
  const hasOrigin = q.originCityId != null;
  const sortName = q.sort === 'deadhead' && !hasOrigin ? 'date' : q.sort;
  const cols: Record<string, SQL> = {
    dist_m: hasOrigin ? sql.raw('pc.dist_m') : sql.raw('0::float8'),
    available_from: sql.raw('t.available_from'),
    min_rate: sql.raw('t.min_rate'),
  };
  const where: SQL[] = [ON_BOARD];
  if (q.equipmentType) where.push(sql`t.equipment_type = ${q.equipmentType}`);
  if (q.loadType) where.push(sql`t.load_type = ${q.loadType}`);
  if (q.minCapacityKg) where.push(sql`t.capacity_kg >= ${q.minCapacityKg}`);
  if (q.date) {
    const from = new Date(q.date);
    const dayEnd = new Date(from.getTime() + 86_400_000);
    const earliest = new Date(from.getTime() - TRUCK_WINDOW_MAX_DAYS * 86_400_000);
    where.push(
      sql`t.available_from < ${dayEnd.toISOString()}::timestamptz and t.available_from >= ${earliest.toISOString()}::timestamptz and t.available_to >= ${from.toISOString()}::timestamptz`,
    );
  }
  if (q.destinationCityId != null) {
    where.push(goesTo(sql`${q.destinationCityId}::int`, sql`(select region_id from cities where id = ${q.destinationCityId})`));
  }
  if (q.cursor) where.push(afterCursor(sortName, q.cursor, cols));
  const from = hasOrigin ? sql`${citiesAround(q.originCityId!, q.radius)} pc join trucks t on t.origin_city_id = pc.id` : sql`trucks t`;
  const s = SORTS[sortName];
  const cursorKey = sql.join(
    s.keys.map((k) => sql`${cols[k.col]}::text`),
    sql`, `,
  );
  const rows = await queryRows<{ id: string; dist_m: number | null; cursor_key: string[] }>(
    db,
    sql`select t.id, ${hasOrigin ? sql.raw('pc.dist_m') : sql.raw('null::float8')} as dist_m, array[${cursorKey}] as cursor_key
        from ${from}
        where ${sql.join(where, sql` and `)}
        order by ${orderBy(sortName, cols)}
        limit ${q.limit + 1}`,
    'trucks_search',
  );
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  return {
    ids: page.map((r) => ({ id: r.id, dist_m: r.dist_m == null ? null : Number(r.dist_m) })),
    nextCursor: more ? cursorOf(sortName, page[page.length - 1]) : null,
  };
}

/** My trucks (newest first), by tab: all (but deleted), posted (still open), unposted, expired (incl. posted past their window). */
export async function myTruckIds(
  db: DbOrTx,
  ownerId: string,
  tab: 'all' | 'posted' | 'unposted' | 'expired',
  limit: number,
  cursor?: string,
): Promise<{ ids: string[]; nextCursor: string | null }> {
  const cols: Record<string, SQL> = { created_at: sql.raw('t.created_at') };
  const where: SQL[] = [sql`t.owner_id = ${ownerId}`, sql`t.status <> 'deleted'`];
  if (tab === 'posted') where.push(ON_BOARD);
  if (tab === 'unposted') where.push(sql`t.status = 'unposted'`);
  if (tab === 'expired') where.push(sql`(t.status = 'expired' or (t.status = 'posted' and t.available_to <= now()))`);
  if (cursor) where.push(afterCursor('mine', cursor, cols));
  const rows = await queryRows<{ id: string; cursor_key: string[] }>(
    db,
    sql`select t.id, array[t.created_at::text] as cursor_key from trucks t where ${sql.join(where, sql` and `)}
        order by ${orderBy('mine', cols)} limit ${limit + 1}`,
  );
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { ids: page.map((r) => r.id), nextCursor: more ? cursorOf('mine', page[page.length - 1]) : null };
}

// ---- matching both ways ----

/** The load a shipper asks matches for (its owner, lane, first pickup, weight, equipment). */
export async function loadForMatching(db: DbOrTx, loadId: string) {
  const [r] = await queryRows<{ id: string; shipper_id: string; status: string; open: boolean }>(
    db,
    sql`select id, shipper_id, status, (status = 'posted' and expires_at > now() and deleted_at is null) as open from loads where id = ${loadId}`,
  );
  return r ?? null;
}

/**
 * Posted trucks that can take load `loadId`: origin within `radiusKm` of its first pickup, the
 * pickup (window) inside the truck's availability, same equipment, enough capacity, going to its
 * drop (anywhere, the city or its region); not the shipper's own. Ranked by deadhead, then the
 * truck's rate per km on this load (its minimum rate per km, or per trip / the load's distance).
 */
export async function matchingTruckIds(db: DbOrTx, loadId: string, radiusKm: number, limit: number) {
  return queryRows<{ id: string; dist_m: number; rate_km: string | null }>(
    db,
    sql`select t.id, pc.dist_m,
          (case when t.rate_basis = 'km' then t.min_rate else round(t.min_rate / nullif(l.distance_km, 0), 2) end)::text as rate_km
        from loads l
        join cities dc on dc.id = l.drop_city_id
        cross join lateral ${citiesAround(sql`l.pickup_city_id`, radiusKm)} pc
        join trucks t on t.origin_city_id = pc.id
        where l.id = ${loadId} and ${ON_BOARD}
          and t.equipment_type = l.equipment_type
          and t.available_from <= coalesce(l.pickup_latest_at, l.pickup_at) and t.available_to >= l.pickup_at
          and t.capacity_kg >= l.total_weight_kg
          and ${goesTo(sql`l.drop_city_id`, sql`dc.region_id`)}
          and t.owner_id <> l.shipper_id
        order by pc.dist_m, (case when t.rate_basis = 'km' then t.min_rate else t.min_rate / nullif(l.distance_km, 0) end), t.id
        limit ${limit}`,
  );
}

export interface MatchingLoadRow {
  id: string;
  reference_id: string;
  equipment_type: string;
  load_type: 'FTL' | 'LTL';
  pickup_city_id: number;
  pickup_en: string;
  pickup_ar: string;
  drop_city_id: number;
  drop_en: string;
  drop_ar: string;
  pickup_at: string;
  total_weight_kg: number;
  price: string;
  rate_per_km: string;
  distance_km: number;
  dist_m: number;
  company: string;
}

/**
 * Open marketplace loads truck `truckId` can take: first pickup within `radiusKm` of its origin
 * (through the load board's per-city index loads_board_city), picked up inside its window, same
 * equipment, within its capacity, dropping where it goes; not its owner's own. Ranked by
 * deadhead, then the best rate per km.
 */
export async function matchingLoads(db: DbOrTx, truckId: string, radiusKm: number, limit: number): Promise<MatchingLoadRow[]> {
  return queryRows<MatchingLoadRow>(
    db,
    sql`select l.id, l.reference_id, l.equipment_type, l.load_type, l.pickup_city_id, pcy.name_en as pickup_en, pcy.name_ar as pickup_ar,
          l.drop_city_id, dc.name_en as drop_en, dc.name_ar as drop_ar, to_json(l.pickup_at) #>> '{}' as pickup_at,
          l.total_weight_kg::float8 as total_weight_kg, l.price::text as price, l.rate_per_km::text as rate_per_km,
          l.distance_km::float8 as distance_km, pc.dist_m, u.company_name as company
        from trucks t
        cross join lateral ${citiesAround(sql`t.origin_city_id`, radiusKm)} pc
        join loads l on l.pickup_city_id = pc.id
        join cities pcy on pcy.id = l.pickup_city_id
        join cities dc on dc.id = l.drop_city_id
        join users u on u.id = l.shipper_id
        where t.id = ${truckId}
          and l.status = 'posted' and l.expires_at > now() and l.deleted_at is null
          and l.shipment_type = ${sql.raw(String(SHIPMENT_TYPE.marketplace))}
          and l.equipment_type = t.equipment_type
          and l.pickup_at <= t.available_to and coalesce(l.pickup_latest_at, l.pickup_at) >= t.available_from
          and l.total_weight_kg <= t.capacity_kg
          and ${goesTo(sql`l.drop_city_id`, sql`dc.region_id`)}
          and l.shipper_id <> t.owner_id
        order by pc.dist_m, l.rate_per_km desc, l.id
        limit ${limit}`,
  );
}

// ---- truck in/out (issue 19; spec §2 truck in/out, §7 /truckInOutLogs) ----

/** A circle (city + radius km; none: the city only) and a window [from, to]. */
export interface TruckArea {
  cityId: number;
  radius?: number | null;
  from: Date;
  to: Date;
}

/**
 * Posted trucks on the board whose availability overlaps the window (free some time in it).
 * out: origin in the circle — trucks_board_city, one (origin_city_id, available_from) range per
 * city of the circle, bounded below by from − TRUCK_WINDOW_MAX_DAYS (a window is never longer).
 * in: going to a city of the circle or to a region one of its cities is in (a truck going
 * "anywhere" is not arriving) — the GIN indexes trucks_inbound_city / trucks_inbound_region
 * (migration 0108) on the destination arrays, ORed, with the circle as one array each.
 */
function truckInOut(a: TruckArea, dir: InOutDirection): { from: SQL; where: SQL[] } {
  const earliest = new Date(a.from.getTime() - TRUCK_WINDOW_MAX_DAYS * 86_400_000);
  const where: SQL[] = [
    ON_BOARD,
    sql`t.available_from <= ${a.to.toISOString()}::timestamptz`,
    sql`t.available_from >= ${earliest.toISOString()}::timestamptz`,
    sql`t.available_to >= ${a.from.toISOString()}::timestamptz`,
  ];
  if (dir === 'out') return { from: sql`${citiesAround(a.cityId, a.radius)} pc join trucks t on t.origin_city_id = pc.id`, where };
  const circle = citiesAround(a.cityId, a.radius);
  where.push(
    sql`(t.destination_city_ids && array(select pc.id from ${circle} pc)
         or t.destination_region_ids && array(select distinct c.region_id from ${circle} pc join cities c on c.id = pc.id))`,
  );
  return { from: sql`trucks t`, where };
}

/** How many trucks match each direction, each counting at most COUNT_CAP + 1 rows. */
export async function truckInOutCounts(db: DbOrTx, a: TruckArea): Promise<Record<InOutDirection, number>> {
  const count = (dir: InOutDirection) => {
    const m = truckInOut(a, dir);
    return sql`(select count(*)::int from (select 1 from ${m.from} where ${sql.join(m.where, sql` and `)} limit ${COUNT_CAP + 1}) m)`;
  };
  const [r] = await queryRows<{ n_in: number; n_out: number }>(db, sql`select ${count('in')} as n_in, ${count('out')} as n_out`, 'truck_inout_count');
  return { in: Number(r.n_in), out: Number(r.n_out) };
}

/** One page of truck ids in availability order (available_from, then id); keyset cursor. */
export async function truckInOutIds(
  db: DbOrTx,
  a: TruckArea,
  dir: InOutDirection,
  limit: number,
  cursor?: string,
): Promise<{ ids: string[]; nextCursor: string | null }> {
  const m = truckInOut(a, dir);
  const tag = `truckinout:${dir}`;
  if (cursor) {
    const c = decodeCursor(cursor, tag, ['timestamptz']);
    m.where.push(sql`(t.available_from, t.id) > (${c.key[0]}::timestamptz, ${c.id}::uuid)`);
  }
  // out: each city of the circle read in availability order only up to the page (a lateral walk
  // of its trucks_board_city range), the cities' heads merged; in: one bitmap read of the GIN indexes
  const pageSql = (from: SQL, where: SQL[]) =>
    sql`select t.id, t.available_from, t.available_from::text as k from ${from} where ${sql.join(where, sql` and `)} order by t.available_from, t.id limit ${limit + 1}`;
  const rows = await queryRows<{ id: string; k: string }>(
    db,
    dir === 'out'
      ? sql`select x.id, x.k from ${citiesAround(a.cityId, a.radius)} pc
            cross join lateral (${pageSql(sql`trucks t`, [sql`t.origin_city_id = pc.id`, ...m.where])}) x
            order by x.available_from, x.id limit ${limit + 1}`
      : pageSql(m.from, m.where),
    'truck_inout_page',
  );
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { ids: page.map((r) => r.id), nextCursor: more ? encodeCursor(tag, [last.k], last.id) : null };
}

/** Trucks whose origin is in the circle posted since `since` (not deleted): trucks_posted_city. */
export async function trucksPostedInArea(db: DbOrTx, cityId: number, radius: number | null | undefined, since: Date): Promise<number> {
  const [r] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${citiesAround(cityId, radius)} pc join trucks t on t.origin_city_id = pc.id
        where t.status <> 'deleted' and t.posted_at >= ${since.toISOString()}::timestamptz`,
    'truck_posted_area',
  );
  return Number(r.n);
}
