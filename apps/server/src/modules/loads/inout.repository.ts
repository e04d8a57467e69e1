import { sql, type SQL } from 'drizzle-orm';
import { COUNT_CAP, SHIPMENT_TYPE, type InOutDirection, type Load } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { citiesAround, queryRows } from '../../lib/sql.ts';
import { PER_PLACE_MAX, WALK_CAP, placesInCircle } from './board.repository.ts';
import { LOAD_COLUMNS, LOAD_JOINS, ON_BOARD, toLoad, type LoadRow } from './loads.repository.ts';

/* Shipment in/out (issue 19; spec §2 shipment in/out, §7 /loadInOutLogs): open marketplace loads
 * picking up in / delivering to a city's circle in a window, and the loads posted there lately
 * (the load-to-truck ratio). Read by the trucks module through the loads service (its port). */

/** A circle (city + radius km, none: the city only) and a window [from, to]. */
export interface AreaWindow {
  cityId: number;
  radius?: number | null;
  from: Date;
  to: Date;
}

const MARKETPLACE = sql.raw(`l.shipment_type = ${SHIPMENT_TYPE.marketplace}`);

/**
 * out: first pickup in the circle (loads_board_city: one (pickup_city_id, pickup_at) range per
 * city) with the pickup in the window; in: last drop in the circle (loads_board_drop_at,
 * migration 0108) with the delivery (drop_at) in the window. Open loads only (posted, not expired,
 * marketplace); `hidden`: shippers blocked either way by the viewer (issue 8).
 */
function matches(a: AreaWindow, dir: InOutDirection, hidden: readonly string[]): { from: SQL; where: SQL[]; at: SQL; col: SQL } {
  const col = dir === 'out' ? sql.raw('l.pickup_city_id') : sql.raw('l.drop_city_id');
  const at = dir === 'out' ? sql.raw('l.pickup_at') : sql.raw('l.drop_at');
  const where: SQL[] = [ON_BOARD('l.'), MARKETPLACE, sql`${at} >= ${a.from.toISOString()}::timestamptz`, sql`${at} <= ${a.to.toISOString()}::timestamptz`];
  if (hidden.length) where.push(sql`l.shipper_id <> all(${`{${hidden.join(',')}}`}::uuid[])`);
  return { from: sql`${citiesAround(a.cityId, a.radius)} pc join loads l on ${col} = pc.id`, where, at, col };
}

/** How many open loads match each direction, each counting at most COUNT_CAP + 1 rows. */
export async function inOutCounts(db: DbOrTx, a: AreaWindow, hidden: readonly string[] = []): Promise<Record<InOutDirection, number>> {
  const count = (dir: InOutDirection) => {
    const m = matches(a, dir, hidden);
    return sql`(select count(*)::int from (select 1 from ${m.from} where ${sql.join(m.where, sql` and `)} limit ${COUNT_CAP + 1}) m)`;
  };
  const [r] = await queryRows<{ n_in: number; n_out: number }>(db, sql`select ${count('in')} as n_in, ${count('out')} as n_out`, 'load_inout_count', 'generic');
  return { in: Number(r.n_in), out: Number(r.n_out) };
}

/**
 * One page of the log in date order (pickup for out, delivery for in), then id; keyset cursor.
 * Two ways to find it, chosen by the number of places in the circle (as the load board's
 * per-place and capped walk, board.repository.ts):
 * - up to PER_PLACE_MAX places, each place is read in that order only up to the page (a lateral
 *   walk of its index range: loads_board_city, loads_board_drop_at), then the heads are merged:
 *   a hub's week of loads is never read and sorted whole;
 * - above it (a dense circle: ~850–970 places within 100 km of some towns of Makkah and Asir),
 *   per place costs one index descent a place, most of them empty (18–23 ms at 1M loads), so the
 *   board's date-ordered index is walked instead (loads_board_pickup, loads_board_drop_time:
 *   migration 0131), keeping the circle's loads, at most WALK_CAP index rows; a walk that did not
 *   fill the page (a sparse circle, or the window's end) is answered per place after all.
 */
export async function inOutPage(
  db: DbOrTx,
  a: AreaWindow,
  dir: InOutDirection,
  limit: number,
  cursor: string | undefined,
  viewerId: string | null,
  hidden: readonly string[] = [],
): Promise<{ items: Load[]; nextCursor: string | null }> {
  const tag = `loadinout:${dir}`;
  const after = cursor ? decodeCursor(cursor, tag, ['timestamptz']) : null;
  const places = a.radius ? await placesInCircle(db, a.cityId, a.radius) : 1;
  const q = { a, dir, limit, after, hidden };
  let rows = places > PER_PLACE_MAX ? await inOutRows(db, { ...q, path: 'walk' }) : [];
  if (rows.length <= limit) rows = await inOutRows(db, { ...q, path: 'perPlace' });
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { items: page.map((r) => toLoad(r, viewerId)), nextCursor: more ? encodeCursor(tag, [last.k], last.id) : null };
}

/** inOutPage's two ways: each place's index up to the page, or the date-ordered walk of a dense circle. */
export type InOutPath = 'perPlace' | 'walk';

/** One statement of inOutPage: up to `limit + 1` rows of the log after `after` (a decoded cursor), by `path`. */
export interface InOutRowsQuery {
  a: AreaWindow;
  dir: InOutDirection;
  limit: number;
  after: { key: string[]; id: string } | null;
  hidden: readonly string[];
  path: InOutPath;
}

/** The rows of `q`, hydrated (exported for bench:trucks' plans and tests). */
export async function inOutRows(db: DbOrTx, q: InOutRowsQuery): Promise<(LoadRow & { k: string })[]> {
  return queryRows<LoadRow & { k: string }>(db, inOutRowsSql(q), q.path === 'walk' ? 'load_inout_walk' : 'load_inout_page', 'generic');
}

/** The statement of inOutRows (its generic plan is checked in test/inout.test.ts). */
export function inOutRowsSql({ a, dir, limit, after, hidden, path }: InOutRowsQuery): SQL {
  const m = matches(a, dir, hidden);
  if (after) m.where.push(sql`${m.at} >= ${after.key[0]}::timestamptz and (${m.at}, l.id) > (${after.key[0]}::timestamptz, ${after.id}::uuid)`);
  const filter = sql.join(m.where, sql` and `);
  // walk: the date-ordered index from the window's start (or the cursor), the circle's array
  // compared with each row (`+ 0`: never an index condition, so it stays one ordered walk; a
  // linear `= any`, not a hash: the board's inCircle was measured neutral here, docs/load-board.md)
  const ids =
    path === 'walk'
      ? sql`select x.id, x.at, x.k from (select l.id, ${m.at} as at, ${m.at}::text as k, ${m.col} as place from loads l
              where ${filter} order by ${m.at}, l.id limit ${WALK_CAP}) x
            where x.place + 0 = any(array(select id from ${citiesAround(a.cityId, a.radius)} pc))
            order by x.at, x.id limit ${limit + 1}`
      : sql`select x.id, x.at, x.k from ${citiesAround(a.cityId, a.radius)} pc
              cross join lateral (select l.id, ${m.at} as at, ${m.at}::text as k from loads l
                where ${m.col} = pc.id and ${filter} order by ${m.at}, l.id limit ${limit + 1}) x
              order by x.at, x.id limit ${limit + 1}`;
  return sql`select ${LOAD_COLUMNS}, p.k
      from (${ids}) p
      join loads l on l.id = p.id
      ${LOAD_JOINS}
      order by p.at, p.id`;
}

/** Marketplace loads whose first pickup is in the circle, posted since `since` (not deleted): loads_posted_city. */
export async function postedInArea(db: DbOrTx, cityId: number, radius: number | null | undefined, since: Date): Promise<number> {
  const [r] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${citiesAround(cityId, radius)} pc join loads l on l.pickup_city_id = pc.id
        where ${MARKETPLACE} and l.posted_at is not null and l.deleted_at is null and l.posted_at >= ${since.toISOString()}::timestamptz`,
    'load_posted_area',
    'generic',
  );
  return Number(r.n);
}
