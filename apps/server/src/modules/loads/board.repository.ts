import { sql, type SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { COUNT_CAP, SHIPMENT_TYPE, type Load, type SearchLoadsQuery } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { type CursorKeyType, decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { citiesAround, queryRows } from '../../lib/sql.ts';
import { capped, LOAD_COLUMNS, LOAD_JOINS, ON_BOARD, toLoad, type LoadRow } from './loads.repository.ts';

/* The load board search (DESIGN §6): GET /loads and bench/search.bench.ts. */

/** What the board search needs; the shape of GET /loads' query. `now` only for tests. */
export type BoardQuery = Pick<
  SearchLoadsQuery,
  'pickupCityId' | 'radius' | 'dropCityId' | 'dropRadius' | 'equipmentType' | 'loadType' | 'pickupFrom' | 'pickupTo' | 'sort' | 'limit' | 'skip'
> & { cursor?: string; bookNow?: boolean; count?: boolean };

/**
 * From this radius up, a newest-first search walks the open loads newest first (loads_board_recent)
 * and keeps those picked up in a city of the circle, instead of reading every load of every city
 * in it and sorting them: at 1,000 km around Riyadh most open loads match, so the walk stops after
 * about the page, where the per-city path read and sorted ~700k rows (issue 10: 320 ms → ~3 ms).
 */
export const WIDE_RADIUS_KM = 500;

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

/**
 * The order a city's loads are walked in for the per-place top-N (deadhead: one city has one
 * distance, so its loads come in pickup order). Each has an index on (city, keys, id), or with
 * the equipment first: loads_board_city / loads_board_equipment (pickup), and migration 0122.
 */
const PLACE_ORDER: Record<BoardQuery['sort'], BoardSort> = { ...SORTS, deadhead: SORTS.pickup };

/**
 * Up to this many places in the circle, a search below WIDE_RADIUS_KM reads each place's top-N
 * (per-place walk); above it, it walks the sort's board index and keeps the circle's loads, up to
 * WALK_CAP index rows (capped walk), and falls back to the per-place walk when that did not fill
 * the page. Places are dense (a median 73 within 50 km, 671 within 200 km, 1,578 within 400 km of
 * a place in the reference data), so per-place alone reads places × page rows: 54,000 at 400 km.
 */
export const PER_PLACE_MAX = 150;
/** Index rows a capped walk reads at most before it gives up (then: per-place). */
export const WALK_CAP = 4_000;

/**
 * How a search finds its page (issue 24; all but `perCity` read a bounded number of rows, not
 * the circle's open loads):
 * - `plain`: no pickup city; the board indexes in the sort's order (migrations 0011, 0094);
 * - `nearest`: deadhead; the circle's places nearest first, each in pickup order up to the page:
 *   the outer order's first key is the places' own, so it stops after the nearest places;
 * - `perPlace`: each place's own index in the page's order, one page each, merged (migration 0122;
 *   with an equipment filter the indexes lead with the equipment: 0010, 0122 and, for price and
 *   rate per km, 0129);
 * - `walk`: the sort's board index, keeping the circle's loads (wide radius: uncapped, a circle of
 *   500 km and more holds a large share of the board; below: capped at WALK_CAP rows);
 * - `perCity`: every matching load of the circle, sorted. Unbounded, so no search takes it since
 *   migration 0129 (it was equipment + price or rate per km); kept as the plain statement the
 *   other paths are checked against (paging.test.ts).
 */
export type BoardPath = 'plain' | 'nearest' | 'perPlace' | 'walk' | 'perCity';

/** The path of `q` whose circle holds `places` places (unknown: 0). */
export function boardPathOf(q: BoardQuery, places = 0): BoardPath {
  if (q.pickupCityId == null) return 'plain';
  const sort = boardSortOf(q);
  if (sort === 'deadhead') return 'nearest';
  if ((q.radius ?? 0) >= WIDE_RADIUS_KM || places > PER_PLACE_MAX) return 'walk';
  return 'perPlace';
}

/** The sort the board actually uses (deadhead needs a pickup city; newest without one). */
const boardSortOf = (q: Pick<BoardQuery, 'sort' | 'pickupCityId'>) => (q.sort === 'deadhead' && q.pickupCityId == null ? 'newest' : q.sort);

/** How a board statement is built: the circles (circleOf), the path and plan (default: boardPathOf, boardPlanOf), `count`: with the capped total. */
export interface BoardSqlOptions {
  circle?: Circle;
  dropCircle?: Circle;
  path?: BoardPath;
  plan?: 'custom' | 'generic';
  count?: boolean;
}

/**
 * The filters every board statement applies to `loads l` but the pickup circle and the cursor:
 * open marketplace loads (the board's partial indexes carry the same `shipment_type = 1`,
 * migration 0082), equipment, load type, the pickup window (`windowAsFilter`: `+ interval '0'`,
 * not an index condition), Book Now, hidden shippers and the drop city or circle (`drop`, also
 * returned on its own: a capped walk keeps it outside its inner walk).
 */
function boardFilters(q: BoardQuery, hidden: readonly string[], dropCircle: Circle | undefined, windowAsFilter: boolean): { where: SQL[]; drop: SQL | null } {
  const where: SQL[] = [sql`${ON_BOARD('l.')} and l.shipment_type = ${sql.raw(String(SHIPMENT_TYPE.marketplace))}`];
  if (q.equipmentType) where.push(sql`l.equipment_type = ${q.equipmentType}`);
  if (q.loadType) where.push(sql`l.load_type = ${q.loadType}`);
  const pickupAt = sql.raw(windowAsFilter ? `(l.pickup_at + interval '0')` : 'l.pickup_at');
  if (q.pickupFrom) where.push(sql`${pickupAt} >= ${q.pickupFrom}::timestamptz`);
  if (q.pickupTo) where.push(sql`${pickupAt} <= ${q.pickupTo}::timestamptz`);
  // Book Now loads only (issue 19): a filter on the rows the board's indexes already narrowed
  if (q.bookNow) where.push(sql`l.book_now`);
  // issue 8: shippers hidden from the viewer by a block (either way); absent for everyone else,
  // so their statement (and its prepared name) stays as it was
  if (hidden.length) where.push(hiddenShippers(hidden));
  // The drop circle is a filter on the rows the pickup side's indexes give (they INCLUDE
  // drop_city_id), probed in a hash of its places built once (a hashed SubPlan: the coalesce keeps
  // the planner from turning the IN into a join). As a join, the planner drove the search from the
  // drop side: every open load delivering into the circle, read from the heap and sorted (114k
  // rows, 2.6 s for Riyadh 200 km → Jeddah 200 km at 1M loads, the home page's lane search).
  const drop = q.dropCityId == null ? null : q.dropRadius ? inCircle(sql`l.drop_city_id`, dropCircle!) : sql`l.drop_city_id = ${q.dropCityId}`;
  if (drop) where.push(drop);
  return { where, drop };
}

/**
 * The board's capped count (issue 10) as one statement `select … as total`: the matches of `q`'s
 * filters (no cursor, no sort), at most COUNT_CAP + 1 of them, read per place of the pickup
 * circle (loads_board_city / loads_board_equipment, index-only) or over the board's indexes: a
 * board of a million open loads costs no more to count than one of a thousand. Served by GET
 * /loads/count (issue 45: off the page's miss path, 14–5,305 buffers at 1M) or inside the page
 * statement with `?count=true`.
 */
export function boardCountSql(q: BoardQuery, hidden: readonly string[] = [], opts: Pick<BoardSqlOptions, 'circle' | 'dropCircle'> = {}): SQL {
  if (q.pickupCityId != null && !opts.circle) throw new Error('boardCountSql: a pickup city needs its circle (circleOf)');
  const { where } = boardFilters(q, hidden, opts.dropCircle, false);
  const from = opts.circle ? sql`${circleRows(opts.circle)} pc(id, dist_m) join loads l on l.pickup_city_id = pc.id` : sql`loads l`;
  return sql`select count(*)::int as total from (select 1 from ${from} where ${sql.join(where, sql` and `)} limit ${COUNT_CAP + 1}) m`;
}

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
 * nearest first, each only up to the page. `opts.plan`: the plan the statement is built for
 * (default boardPlanOf; bench:traffic's raw-SQL anchor builds every statement for a custom plan).
 */
export function boardSearchSql(q: BoardQuery, hidden: readonly string[] = [], opts: BoardSqlOptions = {}): SQL {
  const hasPickup = q.pickupCityId != null;
  const circle = opts.circle;
  if (hasPickup && !circle) throw new Error('boardSearchSql: a pickup city needs its circle (circleOf)');
  if (q.dropCityId != null && q.dropRadius && !opts.dropCircle) throw new Error('boardSearchSql: a drop radius needs its circle (circleOf)');
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
  const path = opts.path ?? boardPathOf(q, circle?.n);
  // A capped walk (generic plan: boardPlanOf) in another order than pickup's keeps the pickup
  // window a filter on the rows it walks (`+ interval '0'`: not an index condition), so its generic plan cannot trade the walk for a
  // range of loads_board_pickup and a sort of the whole window (issue 24: 5-7 ms custom against
  // 54-108 ms generic for a window of a few days at 1M loads)
  const windowAsFilter = path === 'walk' && (opts.plan ?? boardPlanOf(path, q)) === 'generic' && sortName !== 'pickup';
  const { where, drop } = boardFilters(q, hidden, opts.dropCircle, windowAsFilter);
  // the capped walk below keeps it outside, beside the circle: its cap then counts the index rows it reads
  const wide = hasPickup && (q.radius ?? 0) >= WIDE_RADIUS_KM;
  if (after) where.push(afterCursor(sort, after));
  const walk = q.limit + skip;
  const columns = sql`l.id, l.posted_at, l.pickup_at, l.price, l.rate_per_km, l.pickup_city_id, l.drop_city_id`;
  let from: SQL;
  if (path === 'nearest') {
    from = sql`(select * from ${circleRows(circle!)} c0(id, dist_m) order by dist_m, id) pc
      cross join lateral (select ${columns} from loads l
        where l.pickup_city_id = pc.id and ${sql.join(where, sql` and `)} order by l.pickup_at, l.id limit ${walk}) l`;
    where.splice(0, where.length, sql`true`);
  } else if (path === 'perPlace') {
    from = sql`${circleRows(circle!)} pc(id, dist_m)
      cross join lateral (select ${columns} from loads l
        where l.pickup_city_id = pc.id and ${sql.join(where, sql` and `)} order by ${orderBy(PLACE_ORDER[sortName], 'inner')} limit ${walk}) l`;
    where.splice(0, where.length, sql`true`);
  } else if (path === 'walk') {
    // walk the sort's index (loads_board_recent / _price / _rate / _pickup) and keep the circle's
    // loads; `+ 0`: not an index condition, so the walk cannot turn into per-city reads + a sort.
    // Below the wide radius the walk stops after WALK_CAP index rows (searchBoard then goes per place)
    const inPickup = inCircle(sql`l.pickup_city_id`, circle!);
    if (wide) {
      where.push(inPickup);
      from = sql`loads l`;
    } else {
      const inner = where.filter((w) => w !== drop);
      from = sql`(select ${columns} from loads l where ${sql.join(inner, sql` and `)} order by ${orderBy(sort, 'inner')} limit ${WALK_CAP}) l`;
      where.splice(0, where.length, inPickup, ...(drop ? [drop] : []));
    }
  } else {
    from = circle ? sql`${circleRows(circle)} pc(id, dist_m) join loads l on l.pickup_city_id = pc.id` : sql`loads l`;
  }
  // a walk reads no places' rows: its page's deadheads come from the circle the caller holds
  // (circleDistances, by pickup_city_id; issue 45: two cities read by primary key per row, 120 of
  // a walk's ~440 buffers, for the same doubles citiesAround computed)
  const dist = path !== 'walk' && hasPickup ? sql`pc.dist_m` : sql`null::float8`;
  const filter = sql.join(where, sql` and `);
  const cursorKey = sql.raw(`array[${sort.keys.map((k) => `${k.outer}::text`).join(', ')}]`);
  // the capped count (issue 10) only when asked (`?count=true`); else its own request (boardCountSql, issue 45)
  const total = opts.count ? sql`, (${boardCountSql(q, hidden, opts)}) as total` : sql``;
  return sql`select ${LOAD_COLUMNS}, p.dist_m, p.pickup_city_id as pickup_place, ${cursorKey} as cursor_key${total}
    from (
      select l.id, l.posted_at, l.pickup_at, l.price, l.rate_per_km, l.pickup_city_id, ${dist} as dist_m
      from ${from}
      where ${filter}
      order by ${orderBy(sort, 'inner')}
      limit ${q.limit} offset ${skip}
    ) p
    join loads l on l.id = p.id
    ${LOAD_JOINS}
    order by ${orderBy(sort, 'outer')}`;
}

/**
 * Loads not posted by any of `hidden` (issue 8: users blocked by or blocking the viewer): one
 * predicate with the ids as ONE uuid[] parameter (a PostgreSQL array literal), so a viewer's
 * statement text does not change with the number of blocks.
 */
const hiddenShippers = (hidden: readonly string[]) => sql`l.shipper_id <> all(${`{${hidden.join(',')}}`}::uuid[])`;

/**
 * A circle of places as the board statement takes it (issue 24): the ids of the cities within
 * the radius and their great-circle metres from the centre, nearest first (ties by id), each as
 * ONE PostgreSQL array literal (`{3,18,…}`, `{0,10234.5,…}`: float8's shortest exact text), so
 * the statement's text and its prepared name do not change with the circle. Read once per
 * `city:radius` through the cities GiST (citiesAround: the same test, in PostgreSQL, as before)
 * and remembered: the reference places never change while the server runs. Before, every board
 * statement found its circle twice (the page and the capped count: a GiST read and the
 * great-circle test of every candidate place, 2 × 7 ms on PGlite for 500 km).
 */
export interface Circle {
  /** places in the circle */
  n: number;
  ids: string;
  dists: string;
}

/**
 * The remembered circles' literals hold at most this many characters in all (≈ 4 MB: digits are
 * one byte each in V8; a 500 km circle is ≈ 2,000 places, ≈ 35 KB): the hub circles that most
 * searches ask for stay, a rare one is read again (one GiST read, ≈ 1 ms on PostgreSQL).
 */
export const CIRCLES_MAX_CHARS = 4_000_000;

/**
 * Circles remembered by `city:radius` within `maxChars` characters of literals, least recently
 * used out first (lru-cache, sized by `ids.length + dists.length`; a circle larger than the bound
 * is answered, not kept). Concurrent misses for one circle share one read (lru-cache's fetch). The server uses one
 * (circleOf); a test makes its own, so that no other file's app can change what it observes.
 */
export function createCircleCache(maxChars = CIRCLES_MAX_CHARS) {
  // lru-cache's fetch: concurrent misses for one key share one fetchMethod call
  const kept = new LRUCache<string, Circle, { db: DbOrTx; cityId: number; radiusKm: number }>({
    maxSize: maxChars,
    sizeCalculation: (c) => Math.max(1, c.ids.length + c.dists.length),
    fetchMethod: (_k, _stale, { context }) => readCircle(context.db, context.cityId, context.radiusKm),
  });
  return {
    /** The circle of `radiusKm` around `cityId` (no radius: the city alone, distance 0). */
    async circleOf(db: DbOrTx, cityId: number, radiusKm: number | null | undefined): Promise<Circle> {
      if (!radiusKm) return { n: 1, ids: `{${Number(cityId)}}`, dists: '{0}' };
      const c = await kept.fetch(`${cityId}:${radiusKm}`, { context: { db, cityId, radiusKm } });
      if (!c) throw new Error(`no circle read for ${cityId}:${radiusKm}`);
      return c;
    },
    /** circles held and their characters */
    stats: () => ({ circles: kept.size, chars: kept.calculatedSize }),
    /** the remembered keys, least recently used first */
    keys: () => [...kept.rkeys()],
  };
}

async function readCircle(db: DbOrTx, cityId: number, radiusKm: number): Promise<Circle> {
  const [r] = await queryRows<{ n: number; ids: string; dists: string }>(
    db,
    sql`select count(*)::int as n, coalesce(array_agg(pc.id order by pc.dist_m, pc.id)::text, '{}') as ids,
          coalesce(array_agg(pc.dist_m order by pc.dist_m, pc.id)::text, '{}') as dists
        from ${citiesAround(cityId, radiusKm)} pc`,
    // generic: the cities GiST whatever the centre and radius, planned once per connection
    // (PGlite 100k, 400 random circles of 50–500 km: mean 1.9 ms against 2.9 ms custom)
    'board_circle',
    'generic',
  );
  return { n: Number(r.n), ids: r.ids, dists: r.dists };
}

const circles = createCircleCache();
/** The circle of `radiusKm` around `cityId`, remembered by the server's one circle cache (createCircleCache). */
export const circleOf = (db: DbOrTx, cityId: number, radiusKm: number | null | undefined) => circles.circleOf(db, cityId, radiusKm);

/** Each circle's places as a map id → great-circle metres, parsed once per circle object. */
const parsedCircles = new WeakMap<Circle, Map<number, number>>();

/** The great-circle metres from the circle's centre to each of its places (its `dists`, exact doubles), by place id. */
export function circleDistances(c: Circle): Map<number, number> {
  let m = parsedCircles.get(c);
  if (!m) {
    const ids = c.ids.slice(1, -1).split(',');
    const dists = c.dists.slice(1, -1).split(',');
    m = new Map(c.n ? ids.map((id, i) => [Number(id), Number(dists[i])]) : []);
    parsedCircles.set(c, m);
  }
  return m;
}

/** How many places (cities of the reference data) lie within `radiusKm` of `cityId` (circleOf). */
export async function placesInCircle(db: DbOrTx, cityId: number, radiusKm: number): Promise<number> {
  return (await circleOf(db, cityId, radiusKm)).n;
}

/** SQL: the circle's places as rows `(id, dist_m)` (a table expression; alias it). */
export const circleRows = (c: Circle): SQL => sql`unnest(${c.ids}::int[], ${c.dists}::float8[])`;

/**
 * SQL: `col` is a place of the circle, probed in a hash of its ids built once per statement (a
 * hashed SubPlan; the coalesce keeps the planner from turning the IN into a join). Not an index
 * condition, and O(1) per row: `= any(array)` compares every row with every id of the circle
 * (a linear scan, as PostgreSQL hashes only a constant array, never a generic plan's parameter).
 */
export const inCircle = (col: SQL, c: Circle): SQL => sql`coalesce(${col} in (select unnest(${c.ids}::int[])), false)`;

/**
 * How each path's statement is planned (queryRows). `perPlace` and `nearest` walk each place's own
 * index whatever the values, so their generic plan is as good as a custom one and saves the
 * planning, planned once per connection instead of on every miss. At 1M loads, random searches
 * (pickup city by hub weight, 50–500 km, ± equipment, ± pickup window, any sort), page 1, cost on
 * average 6.6 ms generic against 8.1 ms custom (perPlace) and 5.7 against 7.9 ms (nearest),
 * planning included; cursor pages and drop cities are no worse generic. A `walk` runs its generic
 * plan too since its pickup window became a filter on the walked rows (boardSearchSql) and the
 * generic pool runs without parallel workers (db/client.ts): 80 random walks at 1M, mean plan +
 * execution 6.9 ms generic against 10.7 ms custom before (72 ms generic before: the window's
 * range of loads_board_pickup sorted whole, or a parallel walk) (issue 24; docs/load-board.md).
 */
const BOARD_PLAN: Record<BoardPath, 'custom' | 'generic'> = { plain: 'custom', nearest: 'generic', perPlace: 'generic', walk: 'generic', perCity: 'custom' };

/**
 * The plan of `q`'s statement on `path`: BOARD_PLAN, but an uncapped walk (a wide radius, ≥
 * WIDE_RADIUS_KM) keeps its custom plan: planned without its values, it left the sort's index
 * for some of them (30 random 500 km walks at 1M: mean 245 ms generic against 11.5 ms custom);
 * so does a walk with a drop city (bench:traffic's lane searches were 15% slower generic).
 */
export function boardPlanOf(path: BoardPath, q: Pick<BoardQuery, 'radius' | 'dropCityId'>): 'custom' | 'generic' {
  return path === 'walk' && ((q.radius ?? 0) >= WIDE_RADIUS_KM || q.dropCityId != null) ? 'custom' : BOARD_PLAN[path];
}

/**
 * Run the board search (the same function serves GET /loads and bench/search.bench.ts).
 * Returns the page's loads with deadheadKm (great-circle km from the searched pickup city to
 * the load's first pickup, 1 dp) when a pickup city is given, and the total: exact up to
 * COUNT_CAP, else COUNT_CAP with totalCapped. The statement is prepared (see queryRows), planned
 * for its values or once per connection by its path (BOARD_PLAN; plan_cache_mode, db/client.ts).
 */
/** The circles a board search reads: around its pickup city and, with a drop radius, its drop city (circleOf). */
export async function boardCircles(
  db: DbOrTx,
  q: Pick<BoardQuery, 'pickupCityId' | 'radius' | 'dropCityId' | 'dropRadius'>,
): Promise<{ circle?: Circle; dropCircle?: Circle }> {
  const [circle, dropCircle] = await Promise.all([
    q.pickupCityId != null ? circleOf(db, q.pickupCityId, q.radius) : undefined,
    q.dropCityId != null && q.dropRadius ? circleOf(db, q.dropCityId, q.dropRadius) : undefined,
  ]);
  return { circle, dropCircle };
}

export async function searchBoard(
  db: Db,
  q: BoardQuery,
  viewerId: string | null = null,
  hidden: readonly string[] = [],
): Promise<{ items: Load[]; total?: number; totalCapped?: boolean; nextCursor: string | null }> {
  type Row = LoadRow & { dist_m: number | null; pickup_place: number; total?: number; cursor_key: string[] };
  const { circle, dropCircle } = await boardCircles(db, q);
  const path = boardPathOf(q, circle?.n);
  const run = <T>(p: BoardPath, query: BoardQuery) =>
    queryRows<T>(db, boardSearchSql(query, hidden, { path: p, circle, dropCircle, count: query.count }), 'board', boardPlanOf(p, query));
  let rows = await run<Row>(path, q);
  // a capped walk that did not fill the page may have stopped at WALK_CAP: the places then tell
  if (path === 'walk' && rows.length < q.limit && (q.radius ?? 0) < WIDE_RADIUS_KM) {
    rows = await run<Row>('perPlace', q);
  } else if (path === 'walk') {
    const dists = circleDistances(circle!);
    for (const r of rows) r.dist_m = dists.get(Number(r.pickup_place)) ?? null;
  }
  const withDeadhead = q.pickupCityId != null;
  const last = rows.length === q.limit ? rows[rows.length - 1] : null;
  // the total only when asked (?count=true; issue 45): else GET /loads/count (countBoard) serves it
  let counted: { total?: number; totalCapped?: boolean } = {};
  if (q.count) counted = rows.length ? capped(Number(rows[0].total)) : await countBoard(db, q, hidden);
  return {
    items: rows.map((r) => toLoad(r, viewerId, withDeadhead ? Math.round(Number(r.dist_m ?? 0) / 100) / 10 : undefined)),
    ...counted,
    nextCursor: last ? encodeCursor(`board:${boardSortOf(q)}`, last.cursor_key, last.id) : null,
  };
}

/**
 * The board's capped count for `q`'s filters (boardCountSql; GET /loads/count, issue 45): the
 * total exact up to COUNT_CAP, else COUNT_CAP with totalCapped. Paging and sort do not change it.
 */
export async function countBoard(db: DbOrTx, q: BoardQuery, hidden: readonly string[] = []): Promise<{ total: number; totalCapped: boolean }> {
  const circles = await boardCircles(db, q);
  const [r] = await queryRows<{ total: number }>(db, boardCountSql(q, hidden, circles), 'board_count');
  return capped(Number(r?.total ?? 0));
}

// ---- backhauls (issue 19) ----

/** What a backhaul of load `loadId` starts from: its carrier and status, its last drop (city, names, time) and equipment. */
export async function backhaulAnchor(db: DbOrTx, loadId: string) {
  const [r] = await queryRows<{
    carrier_id: string | null;
    status: string;
    drop_city_id: number;
    drop_en: string;
    drop_ar: string;
    drop_at: string;
    equipment_type: string;
  }>(
    db,
    sql`select l.carrier_id, l.status, l.drop_city_id, c.name_en as drop_en, c.name_ar as drop_ar, to_json(l.drop_at) #>> '{}' as drop_at, l.equipment_type
        from loads l join cities c on c.id = l.drop_city_id where l.id = ${loadId}`,
  );
  return r ?? null;
}

/** A city's names (the anchor of a truck's backhauls). */
export async function cityNames(db: DbOrTx, cityId: number) {
  const [r] = await queryRows<{ name_en: string; name_ar: string }>(db, sql`select name_en, name_ar from cities where id = ${cityId}`);
  return r ?? null;
}

/** A backhaul candidate: the lane, date, weight, price, rate per km and deadhead (metres). */
export interface BackhaulRow {
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
 * Backhauls (issue 19; spec §2 backhauls, §7 /backHaulLoads): open marketplace loads whose first
 * pickup city is within `radiusKm` of city `cityId`, picked up from `after` to before `until`, optionally of
 * one equipment type, not posted by `viewerId` nor by a user hidden from it (blocks). Ranked by
 * deadhead (great-circle metres from the city to the pickup city), then rate per km (highest
 * first), then id; the first `limit` (≤ 50).
 * Plan: the circle's cities (cities GiST) nearest first, and for each, through a lateral join,
 * its best `limit` loads by rate per km read index-only from the board's partial btree
 * loads_board_city / loads_board_equipment (the pickup window a range; expiry, equipment,
 * rate and id are INCLUDEd). The outer order starts with the cities' own, so it stops after the
 * nearest cities that fill the page. The excluded shippers' open loads are read once (an
 * InitPlan over the owner index) and excluded by id, so the per-city read never visits the heap.
 * (A plain join of the circle to loads let the planner walk the whole index: 3–6 s at 700k open
 * loads.)
 */
export async function backhaulLoads(
  db: DbOrTx,
  p: { cityId: number; after: Date; until: Date; radiusKm: number; equipmentType?: string; viewerId: string; hidden: readonly string[]; limit: number },
): Promise<BackhaulRow[]> {
  const excluded = `{${[p.viewerId, ...p.hidden].join(',')}}`;
  const where: SQL[] = [
    sql`l.pickup_city_id = pc.id`,
    sql`${ON_BOARD('l.')} and l.shipment_type = ${sql.raw(String(SHIPMENT_TYPE.marketplace))}`,
    // without an equipment filter the window is a filter, not an index range (`+ interval '0'`):
    // the city is then walked in the ranking's order through loads_backhaul_city (0120) and left
    // after `limit` rows; as a range, the planner (costing an average city) read a hub's whole week
    // from loads_board_city and sorted it (7,936 rows for Riyadh at 1M loads)
    p.equipmentType
      ? sql`l.pickup_at >= ${p.after.toISOString()}::timestamptz and l.pickup_at < ${p.until.toISOString()}::timestamptz`
      : sql`l.pickup_at + interval '0' >= ${p.after.toISOString()}::timestamptz and l.pickup_at + interval '0' < ${p.until.toISOString()}::timestamptz`,
    sql`l.id <> all(array(select x.id from loads x where x.shipper_id = any(${excluded}::uuid[]) and x.status = 'posted' and x.deleted_at is null))`,
  ];
  if (p.equipmentType) where.push(sql`l.equipment_type = ${p.equipmentType}`);
  return queryRows<BackhaulRow>(
    db,
    sql`select l.id, l.reference_id, l.equipment_type, l.load_type, l.pickup_city_id, pcy.name_en as pickup_en, pcy.name_ar as pickup_ar,
          l.drop_city_id, dc.name_en as drop_en, dc.name_ar as drop_ar, to_json(l.pickup_at) #>> '{}' as pickup_at,
          l.total_weight_kg::float8 as total_weight_kg, l.price::text as price, l.rate_per_km::text as rate_per_km,
          l.distance_km::float8 as distance_km, p.dist_m, u.company_name as company
        from (
          select b.id, pc.dist_m, b.rate_per_km
          from (select * from ${citiesAround(p.cityId, p.radiusKm)} c0 order by dist_m, id) pc
          cross join lateral (
            select l.id, l.rate_per_km from loads l
            where ${sql.join(where, sql` and `)}
            order by l.rate_per_km desc, l.id
            limit ${p.limit}
          ) b
          order by pc.dist_m, b.rate_per_km desc, b.id
          limit ${p.limit}
        ) p
        join loads l on l.id = p.id
        join cities pcy on pcy.id = l.pickup_city_id
        join cities dc on dc.id = l.drop_city_id
        join users u on u.id = l.shipper_id
        order by p.dist_m, l.rate_per_km desc, l.id`,
    'backhauls',
  );
}
