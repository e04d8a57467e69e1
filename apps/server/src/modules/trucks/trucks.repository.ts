import { sql, type SQL } from 'drizzle-orm';
import { COUNT_CAP, SHIPMENT_TYPE, TRUCK_WINDOW_MAX_DAYS, type InOutDirection, type SearchTrucksQuery, type TruckStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { trucks } from '../../db/schema/index.ts';
import { type CursorKeyType, decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { citiesAround, queryRows } from '../../lib/sql.ts';
import { bumpPlaceVersions, placesSql, placeVersion, type BoardPlace } from '../../db/place-versions.ts';

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
  await syncTruckSide(tx, row.id, null);
}

/**
 * An edit (never the status) of a truck the caller has locked (truckState with `lock`), whose
 * board place was `was` (its origin city and equipment then): the side rows follow, and the truck
 * board's places, old and new, are bumped.
 */
export async function updateTruck(tx: DbOrTx, id: string, set: TruckEdit, was: BoardPlace): Promise<void> {
  const before = await postedKey(tx, id);
  await tx
    .update(trucks)
    .set({ ...set, updatedAt: new Date() })
    .where(sql`${trucks.id} = ${id}`);
  await syncTruckSide(tx, id, before);
  await bumpTruckBoard(tx, [id], [was]);
}

/**
 * Bump the truck board's versions (migration 0130) of the origin places of `truckIds` as they are
 * now in this transaction, plus `before` (the places an edit moved them from): once per
 * transaction, as its last write (db/place-versions.ts bumpPlaceVersions). Every write that
 * changes what the truck board shows calls it: edits here, status changes in lifecycle.ts.
 */
export async function bumpTruckBoard(tx: DbOrTx, truckIds: string[], before: BoardPlace[] = []): Promise<void> {
  if (!truckIds.length && !before.length) return;
  await bumpPlaceVersions(
    tx,
    'truck_board_versions',
    sql`select origin_city_id, equipment_type from trucks where id = any(${`{${truckIds.join(',')}}`}::uuid[]) union ${placesSql(before)}`,
  );
}

/** The version of the truck board's places a search covers (its origin city and radius, its equipment; db/place-versions.ts). */
export const truckBoardVersion = (db: DbOrTx, q: Pick<SearchTrucksQuery, 'originCityId' | 'radius' | 'equipmentType'>): Promise<number> =>
  placeVersion(db, 'truck_board_versions', { cityId: q.originCityId, radius: q.radius, equipment: q.equipmentType });

// ---- side tables (migration 0119): kept in the transaction that changes the truck ----

/** Hours of trucks_posted_hourly: posted_at truncated to the hour (UTC). */
const HOUR_OF = (col: string) => sql.raw(`date_bin('1 hour', ${col}, timestamptz '2000-01-01 00:00:00+00')`);
const HOUR_MS = 3_600_000;

/**
 * A truck's share of trucks_posted_hourly: its origin city and the hour of its posted_at while
 * it is not deleted and has been posted; null otherwise. Locks the row (FOR UPDATE), so the
 * change that follows and its side rows are the only ones in flight for this truck.
 */
export async function postedKey(tx: DbOrTx, id: string): Promise<{ city: number; hour: string } | null> {
  const [r] = await queryRows<{ city: number; hour: string }>(
    tx,
    sql`select origin_city_id as city, ${HOUR_OF('posted_at')}::text as hour from trucks
        where id = ${id} and status <> 'deleted' and posted_at is not null for update`,
  );
  return r ? { city: Number(r.city), hour: r.hour } : null;
}

/**
 * Bring truck `id`'s side rows in line with its row, after a write in the same transaction
 * (`before`: its postedKey before the write). truck_destinations: one row per destination city
 * (place = id) and region (place = −id) while the truck is posted and not going "anywhere", with
 * its window. trucks_posted_hourly: −1 in the old (city, hour), +1 in the new one, when they
 * differ (an upsert: parallel posts to one city and hour add up exactly).
 */
export async function syncTruckSide(tx: DbOrTx, id: string, before: { city: number; hour: string } | null): Promise<void> {
  await tx.execute(sql`delete from truck_destinations where truck_id = ${id}`);
  await tx.execute(
    sql`insert into truck_destinations (truck_id, place, available_from, available_to)
        select t.id, p.place, t.available_from, t.available_to from trucks t
        cross join lateral (select unnest(t.destination_city_ids) as place union select -unnest(t.destination_region_ids)) p
        where t.id = ${id} and t.status = 'posted' and not t.anywhere`,
  );
  const after = await postedKey(tx, id);
  if (before && after && before.city === after.city && before.hour === after.hour) return;
  if (before) {
    await tx.execute(sql`update trucks_posted_hourly set n = n - 1 where city_id = ${before.city} and hour = ${before.hour}::timestamptz`);
  }
  if (after) {
    await tx.execute(
      sql`insert into trucks_posted_hourly (city_id, hour, n) values (${after.city}, ${after.hour}::timestamptz, 1)
          on conflict (city_id, hour) do update set n = trucks_posted_hourly.n + 1`,
    );
  }
}

/** Hours older than `keepHours` leave trucks_posted_hourly (the expiry job; the ratio reads the last 24 h). */
export async function pruneHourly(tx: DbOrTx, keepHours: number): Promise<void> {
  await tx.execute(sql`delete from trucks_posted_hourly where hour < ${new Date(Date.now() - keepHours * HOUR_MS).toISOString()}::timestamptz`);
}

/** Rebuild both side tables from `trucks` (after a bulk load that bypassed the repository: the bench). */
export async function rebuildTruckSide(db: DbOrTx): Promise<void> {
  await db.execute(sql`delete from truck_destinations`);
  await db.execute(sql`delete from trucks_posted_hourly`);
  await db.execute(
    sql`insert into truck_destinations (truck_id, place, available_from, available_to)
        select t.id, p.place, t.available_from, t.available_to from trucks t
        cross join lateral (select unnest(t.destination_city_ids) as place union select -unnest(t.destination_region_ids)) p
        where t.status = 'posted' and not t.anywhere`,
  );
  await db.execute(
    sql`insert into trucks_posted_hourly (city_id, hour, n)
        select origin_city_id, ${HOUR_OF('posted_at')}, count(*)::int from trucks
        where status <> 'deleted' and posted_at is not null group by 1, 2`,
  );
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
  /** where the truck board lists it: origin city and equipment */
  place: BoardPlace;
}

/** A truck's state, locked FOR UPDATE when `lock`. */
export async function truckState(db: DbOrTx, id: string, lock = false): Promise<TruckState | null> {
  type Row = Omit<TruckState, 'available_from' | 'available_to' | 'place'> & {
    available_from: string;
    available_to: string;
    origin_city_id: number;
    equipment_type: string;
  };
  const [r] = await queryRows<Row>(
    db,
    sql`select id, owner_id, reference_id, status, available_to <= now() as ended, available_from, available_to, origin_city_id, equipment_type
        from trucks where id = ${id}${lock ? sql` for update` : sql``}`,
  );
  if (!r) return null;
  const { origin_city_id, equipment_type, ...rest } = r;
  return {
    ...rest,
    available_from: new Date(r.available_from),
    available_to: new Date(r.available_to),
    place: { cityId: Number(origin_city_id), equipment: equipment_type },
  };
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
    // a page of primary keys whatever the ids: the generic plan, made once per connection (planning it was half its cost)
    'truck_hydrate',
    'generic',
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
  const { query, sortName, plan } = searchTrucksSql(q);
  const rows = await queryRows<{ id: string; dist_m: number | null; cursor_key: string[] }>(db, query, 'trucks_search', plan);
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  return {
    ids: page.map((r) => ({ id: r.id, dist_m: r.dist_m == null ? null : Number(r.dist_m) })),
    nextCursor: more ? cursorOf(sortName, page[page.length - 1]) : null,
  };
}

/**
 * The truck board's filters on `trucks t` but the origin circle and the cursor (GET /searchTrucks
 * and its count): on the board, equipment, load type, minimum capacity, the date (available some
 * time in the 24 h from it; a window is at most TRUCK_WINDOW_MAX_DAYS long, so it bounds
 * available_from on both sides) and the destination (anywhere, that city or its region).
 */
function truckBoardFilters(q: SearchTrucksQuery): SQL[] {
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
  return where;
}

/**
 * The truck board's capped count for `q`'s filters (GET /searchTrucks/count; issue 45: off the
 * page, as GET /loads/count): at most COUNT_CAP + 1 matches, read per city of the origin circle
 * (trucks_board_city / trucks_board_equipment) or over the board's index; paging and sort do not
 * change it. → `{ total ≤ COUNT_CAP, totalCapped }` ("1,000+").
 */
export async function countTruckBoard(db: DbOrTx, q: SearchTrucksQuery): Promise<{ total: number; totalCapped: boolean }> {
  const from = q.originCityId != null ? sql`${citiesAround(q.originCityId, q.radius)} pc join trucks t on t.origin_city_id = pc.id` : sql`trucks t`;
  const [r] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from ${from} where ${sql.join(truckBoardFilters(q), sql` and `)} limit ${COUNT_CAP + 1}) m`,
  );
  const n = Number(r?.n ?? 0);
  return { total: Math.min(n, COUNT_CAP), totalCapped: n > COUNT_CAP };
}

/**
 * The statement of searchTruckIds, its sort and how it is planned: nearest first walks each
 * city's index in the page's order whatever the values (migration 0132 put the id in
 * trucks_board_equipment's key), so its generic plan is as good as a custom one and is planned
 * once per connection (test/trucks.test.ts explains it); the other sorts plan for their values.
 */
export function searchTrucksSql(q: SearchTrucksQuery): { query: SQL; sortName: keyof typeof SORTS; plan: 'custom' | 'generic' } {
  const hasOrigin = q.originCityId != null;
  const sortName = q.sort === 'deadhead' && !hasOrigin ? 'date' : q.sort;
  const cols: Record<string, SQL> = {
    dist_m: hasOrigin ? sql.raw('pc.dist_m') : sql.raw('0::float8'),
    available_from: sql.raw('t.available_from'),
    min_rate: sql.raw('t.min_rate'),
  };
  const where = truckBoardFilters(q);
  if (q.cursor) where.push(afterCursor(sortName, q.cursor, cols));
  const from = hasOrigin ? sql`${citiesAround(q.originCityId!, q.radius)} pc join trucks t on t.origin_city_id = pc.id` : sql`trucks t`;
  const s = SORTS[sortName];
  const cursorKey = sql.join(
    s.keys.map((k) => sql`${cols[k.col]}::text`),
    sql`, `,
  );
  // nearest first: the circle's cities in distance order, each city's trucks read in the page's
  // order only up to the page (a lateral walk of trucks_board_equipment / trucks_inout_origin),
  // so the outer sort stops after the nearest cities that fill the page instead of sorting the
  // whole circle's matches (303 cities within 200 km of Riyadh)
  const nearest = sortName === 'deadhead' && hasOrigin;
  const query = nearest
    ? sql`select x.id, pc.dist_m, array[pc.dist_m::text, x.available_from::text] as cursor_key
          from (select * from ${citiesAround(q.originCityId!, q.radius)} c0 order by dist_m, id) pc
          cross join lateral (select t.id, t.available_from from trucks t
            where t.origin_city_id = pc.id and ${sql.join(where, sql` and `)}
            order by t.available_from, t.id limit ${q.limit + 1}) x
          order by pc.dist_m, x.available_from, x.id
          limit ${q.limit + 1}`
    : sql`select t.id, ${hasOrigin ? sql.raw('pc.dist_m') : sql.raw('null::float8')} as dist_m, array[${cursorKey}] as cursor_key
          from ${from}
          where ${sql.join(where, sql` and `)}
          order by ${orderBy(sortName, cols)}
          limit ${q.limit + 1}`;
  return { query, sortName, plan: nearest ? 'generic' : 'custom' };
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
 * The places a circle's trucks arrive at (truck_destinations.place): its cities (id) and the
 * regions they are in (−id). One GiST read of the circle, as an array (an InitPlan).
 */
const placesOf = (a: TruckArea) =>
  sql`array(select distinct v.place from ${citiesAround(a.cityId, a.radius)} pc join cities c on c.id = pc.id
        cross join lateral (values (pc.id), (-c.region_id)) v(place) where v.place is not null)`;

/**
 * Posted trucks on the board whose availability overlaps the window (free some time in it),
 * bounded by the window: available_from from `from − TRUCK_WINDOW_MAX_DAYS` (a window is never
 * longer) to `to`. `t` is the row source: out — trucks (origin in the circle: trucks_board_city /
 * trucks_inout_origin, one range per city); in — truck_destinations (going to a city of the circle
 * or a region one of its cities is in; a truck going "anywhere" has no rows: it is not arriving),
 * one range of truck_destinations_place per place. Both carry available_from/available_to.
 */
function windowWhere(a: TruckArea, alias: string): SQL[] {
  const earliest = new Date(a.from.getTime() - TRUCK_WINDOW_MAX_DAYS * 86_400_000);
  const x = sql.raw(alias);
  return [
    sql`${x}.available_to > now()`,
    sql`${x}.available_from <= ${a.to.toISOString()}::timestamptz`,
    sql`${x}.available_from >= ${earliest.toISOString()}::timestamptz`,
    sql`${x}.available_to >= ${a.from.toISOString()}::timestamptz`,
  ];
}

/**
 * How many trucks match each direction, each counting at most COUNT_CAP + 1 trucks. A truck going
 * to several places of the circle counts once: at its first place of the circle (the
 * `not exists` probes the primary key (truck_id, place)).
 */
export async function truckInOutCounts(db: DbOrTx, a: TruckArea): Promise<Record<InOutDirection, number>> {
  const out = sql`(select count(*)::int from (select 1 from ${citiesAround(a.cityId, a.radius)} pc join trucks t on t.origin_city_id = pc.id
                    where t.status = 'posted' and ${sql.join(windowWhere(a, 't'), sql` and `)} limit ${COUNT_CAP + 1}) m)`;
  const inn = sql`(with pl as (select ${placesOf(a)} as places)
                   select count(*)::int from (select 1 from pl cross join lateral unnest(pl.places) p(place)
                     join truck_destinations d on d.place = p.place
                     where ${sql.join(windowWhere(a, 'd'), sql` and `)}
                       and not exists (select 1 from truck_destinations d2 where d2.truck_id = d.truck_id and d2.place < d.place and d2.place = any(pl.places))
                     limit ${COUNT_CAP + 1}) m)`;
  const [r] = await queryRows<{ n_in: number; n_out: number }>(db, sql`select ${inn} as n_in, ${out} as n_out`, 'truck_inout_count', 'generic');
  return { in: Number(r.n_in), out: Number(r.n_out) };
}

/**
 * One page of truck ids in availability order (available_from, then id); keyset cursor. Each
 * place of the circle (out: each city, trucks_inout_origin; in: each city and region,
 * truck_destinations_place) is read in that order only up to the page, the heads merged (in: a
 * truck going to two places of the circle once).
 */
export async function truckInOutIds(
  db: DbOrTx,
  a: TruckArea,
  dir: InOutDirection,
  limit: number,
  cursor?: string,
): Promise<{ ids: string[]; nextCursor: string | null }> {
  const tag = `truckinout:${dir}`;
  const alias = dir === 'out' ? 't' : 'd';
  const idCol = sql.raw(dir === 'out' ? 't.id' : 'd.truck_id');
  const where = windowWhere(a, alias);
  if (cursor) {
    const c = decodeCursor(cursor, tag, ['timestamptz']);
    where.push(
      sql`${sql.raw(alias)}.available_from >= ${c.key[0]}::timestamptz and (${sql.raw(alias)}.available_from, ${idCol}) > (${c.key[0]}::timestamptz, ${c.id}::uuid)`,
    );
  }
  const head = (source: SQL, key: SQL) =>
    sql`select ${idCol} as id, ${sql.raw(alias)}.available_from, ${sql.raw(alias)}.available_from::text as k from ${source}
        where ${key} and ${sql.join(where, sql` and `)} order by ${sql.raw(alias)}.available_from, ${idCol} limit ${limit + 1}`;
  const rows = await queryRows<{ id: string; k: string }>(
    db,
    dir === 'out'
      ? sql`select x.id, x.k from ${citiesAround(a.cityId, a.radius)} pc
            cross join lateral (${head(sql`trucks t`, sql`t.origin_city_id = pc.id and t.status = 'posted'`)}) x
            order by x.available_from, x.id limit ${limit + 1}`
      : sql`select distinct x.id, x.k, x.available_from from unnest(${placesOf(a)}) p(place)
            cross join lateral (${head(sql`truck_destinations d`, sql`d.place = p.place`)}) x
            order by x.available_from, x.id limit ${limit + 1}`,
    'truck_inout_page',
    'generic',
  );
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { ids: page.map((r) => r.id), nextCursor: more ? encodeCursor(tag, [last.k], last.id) : null };
}

/**
 * Trucks whose origin is in the circle posted since `since` (not deleted; by their current
 * posted_at): the whole hours after `since`'s hour from trucks_posted_hourly, plus the posts of
 * `since`'s own hour from `since` on, counted from trucks_posted_city (at most an hour of posts).
 */
export async function trucksPostedInArea(db: DbOrTx, cityId: number, radius: number | null | undefined, since: Date): Promise<number> {
  const hour = new Date(Math.floor(since.getTime() / HOUR_MS) * HOUR_MS);
  const next = new Date(hour.getTime() + HOUR_MS);
  const [r] = await queryRows<{ n: number }>(
    db,
    sql`select coalesce((select sum(h.n) from ${citiesAround(cityId, radius)} pc join trucks_posted_hourly h on h.city_id = pc.id
                          where h.hour >= ${next.toISOString()}::timestamptz), 0)::int
             + (select count(*) from ${citiesAround(cityId, radius)} pc join trucks t on t.origin_city_id = pc.id
                where t.status <> 'deleted' and t.posted_at >= ${since.toISOString()}::timestamptz and t.posted_at < ${next.toISOString()}::timestamptz)::int as n`,
    'truck_posted_area',
    'generic',
  );
  return Number(r.n);
}
