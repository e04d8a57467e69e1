import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';
import { queryRows } from '../lib/sql.ts';

/*
 * Versions per place and equipment (migrations 0102 and 0130; issues 24 and 19): how many board
 * writes touched posts whose place (a load's pickup city, a truck's origin city) is a city
 * (kind 0), lies in a grid cell (kinds 1–3) or anywhere (kind 9), for one equipment type or ''
 * for all. A result cache keys a page on the SUM of the rows its search covers: the counters only
 * grow, so the sum changes exactly when one of them does (docs/load-board.md, "Result cache").
 * Two tables of one shape: `board_versions` (the load board) and `truck_board_versions` (the
 * truck board).
 */

/** The tables of place versions: one per board. */
export type PlaceVersionTable = 'board_versions' | 'truck_board_versions';

/** A post's place: the city (a load's pickup, a truck's origin) and the equipment, to bump the old ones too when an edit moves it. */
export interface BoardPlace {
  cityId: number;
  equipment: string;
}

/** SQL: `places` as rows `(city_id, eq)` (one bound JSON parameter), for a `union` in bumpPlaceVersions' query. */
export const placesSql = (places: BoardPlace[]): SQL =>
  sql`select city_id, eq from jsonb_to_recordset(${JSON.stringify(places.map((b) => ({ city_id: b.cityId, eq: b.equipment })))}::jsonb) as b(city_id int, eq text)`;

/** Grid cell sizes in degrees of kinds 1, 2, 3 (kind 0: a city, 9: the whole board). */
export const BOARD_CELL_DEG = { 1: 0.5, 2: 2, 3: 8 } as const;

/**
 * Which rows a radius search covers: the finest grid whose cells over the circle's bounding box
 * stay few (at most ~60 rows to sum, whatever the radius), or the whole board beyond 2,000 km.
 */
export function boardCellKind(radiusKm: number): 1 | 2 | 3 | 9 {
  if (radiusKm <= 150) return 1;
  if (radiusKm <= 600) return 2;
  if (radiusKm <= 2000) return 3;
  return 9;
}

/**
 * Bump the version of every place in `places` (an SQL query of rows `(city_id, equipment)`): its
 * city, its cells at every grid size and the whole board, each for '' (every equipment) and for
 * its equipment. Call it in the transaction of every write that changes what the board shows, ONCE
 * and as that transaction's last statement: the rows' locks are then held only until commit, and
 * they are taken in primary-key order (the insert's ORDER BY), so two writers bumping overlapping
 * places never wait on each other in a cycle.
 */
export async function bumpPlaceVersions(tx: DbOrTx, table: PlaceVersionTable, places: SQL): Promise<void> {
  const t = sql.identifier(table);
  await tx.execute(sql`insert into ${t} (kind, equipment, y, x, v)
    select distinct k.kind, e.equipment,
        case when k.kind in (1, 2, 3) then floor(c.lat / k.size)::int else 0 end as y,
        case k.kind when 0 then c.id when 9 then 0 else floor(c.lng / k.size)::int end as x,
        1::bigint
      from (${places}) p(city_id, eq)
      join cities c on c.id = p.city_id
      cross join (values (0, 0::float8), (1, ${BOARD_CELL_DEG[1]}::float8), (2, ${BOARD_CELL_DEG[2]}::float8), (3, ${BOARD_CELL_DEG[3]}::float8), (9, 0::float8)) k(kind, size)
      cross join lateral (values (''), (p.eq)) e(equipment)
      order by 1, 2, 3, 4
    on conflict (kind, equipment, y, x) do update set v = ${t}.v + 1`);
}

/**
 * The version of the places a search covers, for equipment `equipment` ('' or absent = any): the
 * sum of their counters.
 * - no city: the whole board (kind 9);
 * - a city without radius: that city (kind 0);
 * - a radius: the cells of boardCellKind(radius) over the circle's bounding box (kind 9 beyond).
 *   The box is conservative: latitude ± r / 111 km (a degree is 111.32 km on the search's sphere)
 *   plus 1%, longitude ± that over cos(the box's latitude farthest from the equator). Every city
 *   whose great-circle distance is within r lies in it (cities are in Saudi Arabia and its
 *   neighbours: the box never crosses ±180° or a pole). One index range read of O(cells) rows.
 */
export async function placeVersion(
  db: DbOrTx,
  table: PlaceVersionTable,
  q: { cityId?: number | null; radius?: number | null; equipment?: string | null },
): Promise<number> {
  const t = sql.identifier(table);
  const eq = q.equipment ?? '';
  const kind = q.cityId == null ? 9 : q.radius ? boardCellKind(q.radius) : 0;
  let query: SQL;
  if (kind === 9) query = sql`select coalesce(sum(v), 0)::text as v from ${t} where kind = 9 and equipment = ${eq} and y = 0 and x = 0`;
  else if (kind === 0) query = sql`select coalesce(sum(v), 0)::text as v from ${t} where kind = 0 and equipment = ${eq} and y = 0 and x = ${q.cityId}`;
  else {
    const size = BOARD_CELL_DEG[kind];
    const dLat = (q.radius! / 111) * 1.01;
    query = sql`select coalesce(sum(b.v), 0)::text as v
      from cities o
      cross join lateral (select ${dLat}::float8 / cos(radians(least(89.0, abs(o.lat) + ${dLat}::float8))) as d) lng
      join ${t} b on b.kind = ${kind} and b.equipment = ${eq}
        and b.y between floor((o.lat - ${dLat}::float8) / ${size}::float8)::int and floor((o.lat + ${dLat}::float8) / ${size}::float8)::int
        and b.x between floor((o.lng - lng.d) / ${size}::float8)::int and floor((o.lng + lng.d) / ${size}::float8)::int
      where o.id = ${q.cityId}`;
  }
  // read before every search, hit or miss: primary-key ranges whatever the values, so the generic plan, made once per connection
  const [r] = await queryRows<{ v: string }>(db, query, table === 'board_versions' ? 'board_version' : 'truck_board_version', 'generic');
  return Number(r.v);
}
