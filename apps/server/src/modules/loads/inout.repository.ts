import { sql, type SQL } from 'drizzle-orm';
import { COUNT_CAP, SHIPMENT_TYPE, type InOutDirection, type Load } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { citiesAround, queryRows } from '../../lib/sql.ts';
import { LOAD_COLUMNS, ON_BOARD, toLoad, type LoadRow } from './loads.repository.ts';

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
 * Each city of the circle is read in that order only up to the page (a lateral walk of its index
 * range), then the cities' heads are merged: a hub's week of loads is never read and sorted whole.
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
  const m = matches(a, dir, hidden);
  const tag = `loadinout:${dir}`;
  if (cursor) {
    const c = decodeCursor(cursor, tag, ['timestamptz']);
    m.where.push(sql`${m.at} >= ${c.key[0]}::timestamptz and (${m.at}, l.id) > (${c.key[0]}::timestamptz, ${c.id}::uuid)`);
  }
  const rows = await queryRows<LoadRow & { k: string }>(
    db,
    sql`select ${LOAD_COLUMNS}, p.k
        from (select x.id, x.at, x.k from ${citiesAround(a.cityId, a.radius)} pc
              cross join lateral (select l.id, ${m.at} as at, ${m.at}::text as k from loads l
                where ${m.col} = pc.id and ${sql.join(m.where, sql` and `)} order by ${m.at}, l.id limit ${limit + 1}) x
              order by x.at, x.id limit ${limit + 1}) p
        join loads l on l.id = p.id
        join users u on u.id = l.shipper_id
        order by p.at, p.id`,
    'load_inout_page',
    'generic',
  );
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { items: page.map((r) => toLoad(r, viewerId)), nextCursor: more ? encodeCursor(tag, [last.k], last.id) : null };
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
