/**
 * The load board at scale (issues 2 and 10, DESIGN §6): `npm run bench:search -- --scale 1m`.
 *
 * Options: `--scale 100k|1m` (or N=<loads>; default 100k), ENGINE pglite|postgres|both (default:
 * postgres when reachable at BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test, plus
 * pglite below 1M), DURATION seconds of HTTP load per run (default 10), CONNECTIONS (default 10),
 * RUNS serial SQL repetitions (default 200), PLAN=1 to print whole plans, ONLY=<scenario,…>,
 * KEEP_DB=1 to keep and reuse the seeded database (PostgreSQL: masar_bench_<n>; PGlite: a
 * directory under the temp dir) — seeding 1M loads takes minutes.
 *
 * Data: N loads over real Saudi cities (pickups weighted like real traffic: Riyadh, Jeddah,
 * Dammam, Makkah, Madinah … above the rest), 15 equipment types, 80% open (posted, not expired),
 * then unposted, assigned, completed, cancelled and expired; pickups from 10 days ago to 30 days
 * ahead (open loads: from 20 hours ago, so that they are still before their expiry); one stop
 * each end and one cargo line. Owners: one shipper with 10,000 loads, 100 shippers sharing 10% of
 * the loads, and one with every other load (the "most loads" owner: 890,000 at 1M).
 *
 * Scenarios, each through the same code the API runs: SQL p50/p95 (serial, the repository
 * function, prepared like production), HTTP p50/p95 with 1 connection, their ratio, req/s with
 * 1 and CONNECTIONS connections (autocannon in a worker thread, the server in this process), the
 * production plan (on PostgreSQL the prepared statement EXPLAINed after 6 executions in a session
 * of the app's own pool: the plan its 7th and later executions use) and this process's RSS.
 * Prints figures; never asserts timings.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { FILL_ALL_LOAD_CARDS } from '../apps/server/src/db/load-cards.ts';
import { loadReferenceData } from '../apps/server/src/db/seed/reference.ts';
import { boardCircles, boardPathOf, boardSearchSql, searchBoard, type BoardQuery } from '../apps/server/src/modules/loads/board.repository.ts';
import { myLoads } from '../apps/server/src/modules/loads/my-loads.repository.ts';
import { listTrips } from '../apps/server/src/modules/bayan/bayan.repository.ts';
import { encodeCursor } from '../apps/server/src/lib/cursor.ts';
import type { MyLoadsTab } from '@masar/shared';
import { preparedName } from '../apps/server/src/lib/sql.ts';
import { benchApp, enginesToRun, pgUrl, type Engine, qs } from './lib.ts';

interface LoadResult {
  latencies: number[];
  total: number;
  non2xx: number;
  errors: number;
  seconds: number;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const fmt = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '–');
const log = (s: string) => process.stderr.write(`${s}\n`);

/** Hubs and their weight in the generated traffic (city ids of the reference data); every other city counts 1. */
export const HUB_WEIGHTS: Record<number, number> = {
  3: 600, // Riyadh
  18: 450, // Jeddah
  13: 300, // Dammam
  6: 120, // Makkah
  14: 120, // Madinah
  1061: 60, // Al Kharj
  31: 80, // Jubail
  1: 60,
  15: 60,
  11: 80,
  10: 60,
  17: 60,
  3417: 40,
  483: 60,
  5: 60,
  62: 60,
  67: 40,
};
export const EQUIPMENT = [
  'pickup',
  'dyna',
  'lorry',
  'reefer_truck',
  'flatbed_trailer',
  'curtain_trailer',
  'sided_trailer',
  'box_trailer',
  'reefer_trailer',
  'lowbed',
  'container_20',
  'container_40',
  'tanker',
  'tipper',
  'car_carrier',
];

/** The board's sorts, as the API takes them. */
export const BOARD_SORTS = ['newest', 'pickup', 'price', 'ratePerKm', 'deadhead'] as const;
const DISTINCT_RADII = [50, 100, 150, 200, 300, 500];
/** One element of `a`, uniformly at random. */
export const pick = <T>(a: readonly T[]) => a[Math.floor(Math.random() * a.length)];
/** The ISO instant `d` days from now. */
const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

/**
 * A random board search of bench:traffic's `distinct` distribution (also bench:miss): the pickup
 * city drawn from `weighted` (city ids, repeated by weight), 50–500 km, an equipment type half
 * the time, a pickup window of 1–7 days within the next 20 a third of the time, any sort, page 1.
 */
export function randomDistinctSearch(weighted: number[]): BoardQuery {
  const q: BoardQuery = {
    pickupCityId: pick(weighted),
    radius: pick(DISTINCT_RADII),
    equipmentType: Math.random() < 0.5 ? pick(EQUIPMENT) : undefined,
    sort: pick(BOARD_SORTS),
    limit: 20,
    skip: 0,
  };
  if (Math.random() < 1 / 3) {
    const from = Math.floor(Math.random() * 20);
    Object.assign(q, { pickupFrom: days(from), pickupTo: days(from + 1 + Math.floor(Math.random() * 7)) });
  }
  return q;
}
const uid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const OWNER_MOST = uid(1);
const OWNER_10K = uid(2);
const CARRIER = uid(3);
const OTHER_SHIPPERS = 100;

/** Seeds `n` loads as described above (exported for bench/expiry.bench.ts). */
export async function seed(database: Database, n: number) {
  await migrate(database);
  await loadReferenceData(database.db);
  const users = [OWNER_MOST, OWNER_10K, CARRIER, ...Array.from({ length: OTHER_SHIPPERS }, (_, i) => uid(100 + i))];
  for (const [i, id] of users.entries()) {
    await database.query(
      `insert into users (id, account_type, first_name, last_name, company_name, email, phone, password_hash, status, is_first_time_approved)
       values ($1, $2, 'Bench', 'User', $3, $4, $5, 'x', 2, true) on conflict do nothing`,
      [id, id === CARRIER ? 2 : 1, `Bench Freight ${i}`, `bench${i}@masar.sa`, `+9665009${String(i).padStart(5, '0')}`],
    );
  }
  const cases = Object.entries(HUB_WEIGHTS)
    .map(([id, w]) => `when ${Number(id)} then ${w}`)
    .join(' ');
  await database.exec(`drop table if exists bench_cities;
    create table bench_cities as
      select (row_number() over (order by c.id, k) - 1)::int as idx, c.id, c.lat, c.lng
      from cities c cross join lateral generate_series(1, case c.id ${cases} else 1 end) k;
    create index on bench_cities (idx);`);
  const [{ w }] = await database.query<{ w: number }>('select count(*)::int as w from bench_cities');
  const eq = `(array[${EQUIPMENT.map((e) => `'${e}'`).join(',')}])`;
  // Bulk load without the secondary indexes, then build each once from sorted input: maintaining
  // loads' 30-odd indexes row by row made a 1M seed take about 100 minutes. Constraint indexes
  // (primary keys, uniques) stay, so the seed still checks them.
  const secondary = await database.query<{ name: string; def: string }>(
    `select i.indexname as name, i.indexdef as def from pg_indexes i
      where i.schemaname = 'public' and i.tablename in ('loads', 'load_stops', 'cargo_lines')
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  );
  for (const { name } of secondary) await database.exec(`drop index "${name}"`);
  // 10% of the loads to 100 shippers (1,000 each at 1M), 10,000 to one, the rest to the "most" owner
  const others = Math.floor(n / 10);
  const batch = 100_000;
  for (let start = 1; start <= n; start += batch) {
    const end = Math.min(n, start + batch - 1);
    // h: 0–79 open, 80–84 unposted, 85–89 assigned, 90–94 completed, 95–97 cancelled, 98–99 expired
    await database.exec(`
      insert into loads (id, reference_id, shipper_id, status, load_type, equipment_type, price, distance_km, rate_per_km, total_weight_kg,
        pickup_city_id, pickup_lat, pickup_lng, pickup_at, drop_city_id, drop_lat, drop_lng, drop_at, posted_at, expires_at,
        carrier_id, booked_price, booked_at, created_at, deleted_at)
      select gen_random_uuid(), 'BX-' || g, o.owner, s.status, case when g % 10 = 0 then 'LTL' else 'FTL' end,
        ${eq}[1 + abs(hashint8(g * 3 + 1)) % ${EQUIPMENT.length}], d.price, d.km, round(d.price / d.km, 2), 20000,
        pc.id, pc.lat, pc.lng, d.pickup_at, dc.id, dc.lat, dc.lng, d.pickup_at + interval '1 day',
        case when s.status = 'unposted' then null else least(now(), d.pickup_at) - (abs(hashint8(g * 5 + 2)) % 14400) * interval '1 minute' end,
        d.pickup_at + interval '24 hours',
        case when s.status in ('assigned', 'completed') then '${CARRIER}'::uuid end,
        case when s.status in ('assigned', 'completed') then d.price end,
        case when s.status in ('assigned', 'completed') then least(now(), d.pickup_at) end,
        least(now(), d.pickup_at) - interval '11 days',
        case when s.status = 'cancelled' then least(now(), d.pickup_at) end
      from generate_series(${start}::bigint, ${end}::bigint) g
      cross join lateral (select abs(hashint8(g * 7 + 3)) % 100 as h) x
      cross join lateral (select case when x.h < 80 then 'posted' when x.h < 85 then 'unposted' when x.h < 90 then 'assigned'
                                      when x.h < 95 then 'completed' when x.h < 98 then 'cancelled' else 'expired' end as status) s
      cross join lateral (select case when g <= 10000 then '${OWNER_10K}'::uuid
                                      when g <= 10000 + ${others} then ('00000000-0000-7000-8000-' || lpad((100 + g % ${OTHER_SHIPPERS})::text, 12, '0'))::uuid
                                      else '${OWNER_MOST}'::uuid end as owner) o
      join bench_cities pc on pc.idx = abs(hashint8(g)) % ${w}
      join bench_cities dc on dc.idx = abs(hashint8(g * 11 + 5)) % ${w}
      cross join lateral (select greatest(50, round((earth_distance(ll_to_earth(pc.lat, pc.lng), ll_to_earth(dc.lat, dc.lng)) / 1000 * 1.2)::numeric, 1)) as km,
                                 case when s.status = 'posted' then now() - interval '20 hours' + (abs(hashint8(g * 13 + 4)) % 44000) * interval '1 minute'
                                      when s.status = 'expired' then now() - interval '10 days' + (abs(hashint8(g * 13 + 4)) % 12000) * interval '1 minute'
                                      else now() - interval '10 days' + (abs(hashint8(g * 13 + 4)) % 57600) * interval '1 minute' end as pickup_at,
                                 (800 + abs(hashint8(g * 17 + 6)) % 9000)::numeric as price) d;`);
    log(`  loads ${end.toLocaleString('en')}`);
  }
  // stops and cargo for every load (the API hydrates each result with them)
  await database.exec(`
    insert into load_stops (id, load_id, idx, stop_type, city_id, lat, lng, date)
      select gen_random_uuid(), l.id, 0, 1, l.pickup_city_id, l.pickup_lat, l.pickup_lng, l.pickup_at from loads l;
    insert into load_stops (id, load_id, idx, stop_type, city_id, lat, lng, date)
      select gen_random_uuid(), l.id, 1, 2, l.drop_city_id, l.drop_lat, l.drop_lng, l.drop_at from loads l;
    insert into cargo_lines (id, load_id, idx, goods_type, length_cm, width_cm, height_cm, quantity, weight_per_item_kg)
      select gen_random_uuid(), l.id, 0, 'general_cargo', 120, 100, 150, 20, 1000 from loads l;`);
  await database.exec('drop table bench_cities');
  const t0 = performance.now();
  // one simple-query string per index, so the setting and the build share a pooled connection
  for (const { def } of secondary) await database.exec(`set maintenance_work_mem = '512MB'; ${def}; reset maintenance_work_mem`);
  log(`  ${secondary.length} indexes built in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  // the board cards (issue 45), set-based, once the stops' and cargo lines' load_id indexes exist
  await database.exec(FILL_ALL_LOAD_CARDS);
  await database.exec(`create table if not exists bench_meta (n int not null); delete from bench_meta; insert into bench_meta values (${n})`);
  for (const t of ['loads', 'load_stops', 'cargo_lines', 'load_cards', 'cities', 'users', 'offers']) await database.exec(`vacuum analyze ${t}`);
}

/**
 * What the issue 7 tabs and the Bayan list need beyond the loads (idempotent: run on a fresh or
 * a reused database): the carrier bookmarks 10,000 open loads, 10,000 open loads are offered to
 * the carrier as a vendor (customers tab), and the carrier has a Bayan trip for each of its
 * booked loads (assigned and completed: 100,000 at 1M) on one vehicle and driver.
 */
async function topUp(database: Database) {
  const [{ n }] = await database.query<{ n: number }>('select count(*)::int as n from bayan_trips');
  if (n > 0) return;
  log('  top-up: bookmarks, vendor shipments, Bayan trips');
  const vendor = uid(900);
  const vehicle = uid(901);
  const driver = uid(902);
  await database.exec(`
    insert into load_bookmarks (user_id, load_id, created_at)
      select '${CARRIER}', id, now() - (row_number() over ()) * interval '1 minute' from loads
      where status = 'posted' and shipper_id = '${OWNER_MOST}' limit 10000 on conflict do nothing;
    insert into vendors (id, owner_id, user_type, company_name, vendor_name, phone, email)
      values ('${vendor}', '${OWNER_10K}', 'carrier', 'Bench Carrier', 'Bench Carrier', '+966500000003', 'bench2@masar.sa') on conflict do nothing;
    insert into load_vendors (load_id, vendor_id, user_id)
      select id, '${vendor}', '${CARRIER}' from loads where status = 'posted' and shipper_id = '${OWNER_10K}' on conflict do nothing;
    insert into drivers (id, owner_id, salutation, first_name, last_name, nationality, date_of_birth, phone, licence_number, driver_id_number)
      values ('${driver}', '${CARRIER}', 'Mr', 'Bench', 'Driver', 'SA', '1990-01-01', '+966500000099', 'L1', '1000000001') on conflict do nothing;
    insert into vehicles (id, owner_id, vehicle_type, year, make, model, colour, plate_type, plate_digits, plate_letters, sequence_number, weight_kg, driver_id)
      values ('${vehicle}', '${CARRIER}', 'flatbed_trailer', 2022, 'Volvo', 'FH', 'white', 1, '1234', 'ابح', '123456789', 20000, '${driver}') on conflict do nothing;
    insert into bayan_trips (id, load_id, carrier_id, shipper_id, vehicle_id, driver_id, status, trip_id, waybill_number, request, created_at)
      select gen_random_uuid(), l.id, l.carrier_id, l.shipper_id, '${vehicle}', '${driver}',
             case when l.status = 'completed' then 'closed' else 'active' end, 'T-' || l.reference_id, 'W-' || l.reference_id, '{}', coalesce(l.booked_at, now())
      from loads l where l.carrier_id = '${CARRIER}' and l.status in ('assigned', 'completed');`);
  for (const t of ['load_bookmarks', 'load_vendors', 'bayan_trips', 'vendors', 'vehicles', 'drivers']) await database.exec(`vacuum analyze ${t}`);
}

/**
 * The seeded database of `n` loads (reused with KEEP_DB when it holds exactly that), migrated:
 * PostgreSQL database `masar_bench_<n>` (BENCH_DB_NAME names another seeded with this seed, e.g.
 * bench:trucks' `masar_bench_trucks_1000000`) or a PGlite directory. Exported for
 * bench/traffic.bench.ts.
 */
export async function openBench(engine: Engine, n: number): Promise<{ database: Database; seedS: number; cleanup: () => Promise<void> }> {
  const keep = !!process.env.KEEP_DB;
  const name = process.env.BENCH_DB_NAME ?? `masar_bench_${n}`;
  let database: Database;
  let cleanup: () => Promise<void>;
  if (engine === 'postgres') {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    let reuse = false;
    const u = new URL(pgUrl);
    u.pathname = `/${name}`;
    if (exists && keep) {
      const c = new pg.Client({ connectionString: u.toString() });
      await c.connect();
      reuse = await c
        .query<{ n: number }>('select n from bench_meta')
        .then((r) => r.rows[0]?.n === n)
        .catch(() => false);
      await c.end();
    }
    if (!reuse) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      const su = new pg.Client({ connectionString: u.toString() });
      await su.connect();
      // earthdistance needs a superuser (STACK.md gotcha 5)
      await su.query('create extension if not exists cube; create extension if not exists earthdistance;');
      await su.end();
    }
    await admin.end();
    database = await openDatabase({ databaseUrl: u.toString(), poolMax: 10, idleMs: 0 });
    cleanup = async () => {
      await database.close();
      if (keep) return;
      const a = new pg.Client({ connectionString: pgUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    };
    if (reuse) {
      const applied = await migrate(database);
      // one statement per call: VACUUM cannot run in the implicit transaction of a multi-statement query
      if (applied.length) for (const t of ['loads', 'offers', 'load_cards']) await database.exec(`vacuum analyze ${t}`);
      log(`[postgres] reusing ${name}${applied.length ? ` (applied ${applied.join(', ')})` : ''}`);
      return { database, seedS: NaN, cleanup };
    }
  } else {
    const dir = keep ? join(tmpdir(), `masar-bench-pglite-${n}`) : mkdtempSync(join(tmpdir(), 'masar-bench-'));
    mkdirSync(dir, { recursive: true });
    database = await openDatabase({ dataDir: dir });
    cleanup = async () => {
      await database.close();
      if (!keep) rmSync(dir, { recursive: true, force: true });
    };
    const seeded = await database
      .query<{ n: number }>('select n from bench_meta')
      .then((r) => r[0]?.n === n)
      .catch(() => false);
    if (seeded) {
      const applied = await migrate(database);
      // one statement per call: VACUUM cannot run in the implicit transaction of a multi-statement query
      if (applied.length) for (const t of ['loads', 'offers', 'load_cards']) await database.exec(`vacuum analyze ${t}`);
      log(`[pglite] reusing ${dir}`);
      return { database, seedS: NaN, cleanup };
    }
    if (keep) {
      // a kept directory without bench_meta is a seed that stopped part-way (rows in, secondary
      // indexes dropped): start again from an empty directory, as PostgreSQL starts from a new database
      await database.close();
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      database = await openDatabase({ dataDir: dir });
    }
  }
  log(`[${engine}] seeding ${n.toLocaleString('en')} loads…`);
  const t0 = performance.now();
  await seed(database, n);
  const seedS = (performance.now() - t0) / 1000;
  log(`[${engine}] seeded in ${fmt(seedS, 1)} s`);
  return { database, seedS, cleanup };
}

interface Scenario {
  key: string;
  label: string;
  /** The HTTP path and query under /api/v1. */
  path: string;
  /** The user whose token the request carries (a guest when null). */
  as: string | null;
  /** One run of the repository code the route runs. */
  sql: (db: Database) => Promise<unknown>;
  /** The statement to EXPLAIN (prepared as production does when prepareAs is set). */
  plan: SQL | null;
  prepareAs: string | null;
}

/** The keyset cursor of the row at `depth` in a newest-first order (the 100,000th load…), as the API would hand it out. */
async function cursorAt(database: Database, tag: string, sql: string, depth: number): Promise<string | undefined> {
  const [r] = await database.query<{ k: string; id: string }>(`${sql} offset ${depth - 1} limit 1`);
  return r ? encodeCursor(tag, [r.k], r.id) : undefined;
}

async function scenarios(database: Database): Promise<Scenario[]> {
  const radius: BoardQuery = {
    pickupCityId: 3,
    radius: 200,
    equipmentType: 'flatbed_trailer',
    pickupFrom: days(0),
    pickupTo: days(7),
    sort: 'newest',
    limit: 20,
    skip: 0,
  };
  const board: BoardQuery = { sort: 'newest', limit: 20, skip: 0 };
  const wide: BoardQuery = { pickupCityId: 3, radius: 1000, sort: 'newest', limit: 20, skip: 0 };
  // the plan of the path searchBoard takes for the circle (issue 24: it depends on the places in it)
  const circles = new Map<string, Awaited<ReturnType<typeof boardCircles>>>();
  for (const q of [radius, wide, { pickupCityId: 13, radius: 500 }]) circles.set(`${q.pickupCityId}:${q.radius}`, await boardCircles(database.db, q));
  const boardScenario = (key: string, label: string, q: BoardQuery): Scenario => ({
    key,
    label,
    path: `/loads?${qs(q)}`,
    as: null,
    sql: (d) => searchBoard(d.db, q),
    plan: (() => {
      const c = circles.get(`${q.pickupCityId}:${q.radius}`) ?? {};
      return boardSearchSql(q, [], { path: boardPathOf(q, c.circle?.n), ...c });
    })(),
    prepareAs: 'board',
  });
  const mine = (key: string, label: string, owner: string, tab: MyLoadsTab = 'posted', cursor?: string): Scenario => ({
    key,
    label,
    path: `/my-loads?${qs({ tab, limit: 20, cursor })}`,
    as: owner,
    sql: (d) => myLoads(d.db, owner, tab, 20, 0, cursor),
    plan: null,
    prepareAs: null,
  });
  const boardDeep = await cursorAt(
    database,
    'board:newest',
    `select posted_at::text as k, id from loads where status = 'posted' and shipment_type = 1 and expires_at > now() order by posted_at desc, id desc`,
    100_000,
  );
  const mineDeep = await cursorAt(
    database,
    'mine:posted',
    `select coalesce(posted_at, created_at)::text as k, id from loads
     where shipper_id = '${OWNER_MOST}' and status = 'posted' and deleted_at is null and expires_at > now() order by 1 desc, id desc`,
    100_000,
  );
  return [
    boardScenario('radius', 'radius 200 km Riyadh + flatbed_trailer + 7 days, newest 20', radius),
    boardScenario('board', 'unfiltered board, newest 20', board),
    boardScenario('wide', 'radius 1,000 km Riyadh, newest 20', wide),
    boardScenario('widePrice', 'radius 1,000 km Riyadh, highest price 20', { ...wide, sort: 'price' }),
    boardScenario('wideRate', 'radius 1,000 km Riyadh, highest rate per km 20', { ...wide, sort: 'ratePerKm' }),
    boardScenario('widePickup', 'radius 1,000 km Riyadh, earliest pickup 20', { ...wide, sort: 'pickup' }),
    boardScenario('wideDeadhead', 'radius 1,000 km Riyadh, nearest (deadhead) 20', { ...wide, sort: 'deadhead' }),
    boardScenario('wide500Price', 'radius 500 km Dammam + reefer_trailer, highest price 20', {
      pickupCityId: 13,
      radius: 500,
      equipmentType: 'reefer_trailer',
      sort: 'price',
      limit: 20,
      skip: 0,
    }),
    boardScenario('boardDeep', 'unfiltered board, newest 20 after the 100,000th (cursor)', { ...board, cursor: boardDeep }),
    boardScenario('boardSkip1000', 'unfiltered board, newest 20 at skip 1,000 (the cap)', { ...board, skip: 1000 }),
    mine('mine10k', 'my loads (posted tab + tab counts), owner with 10,000 loads', OWNER_10K),
    mine('mineMost', 'my loads (posted tab + tab counts), owner with the most loads', OWNER_MOST),
    mine('mineDeep', 'my loads, owner with the most loads, posted after the 100,000th (cursor)', OWNER_MOST, 'posted', mineDeep),
    mine('mineActive', 'my loads, active tab, carrier with 50,000 booked', CARRIER, 'active'),
    mine('mineFinished', 'my loads, finished tab, owner with the most loads', OWNER_MOST, 'finished'),
    mine('mineAssigned', 'my loads, assigned (status) tab, carrier', CARRIER, 'assigned'),
    mine('mineBookmarks', 'my loads, bookmarks tab (10,000 bookmarks)', CARRIER, 'bookmarks'),
    mine('mineCustomers', 'my loads, customers tab (10,000 vendor shipments)', CARRIER, 'customers'),
    {
      key: 'bayanList',
      label: 'Bayan list, carrier with 100,000 trips, newest 20',
      path: '/bayan/list?limit=20',
      as: CARRIER,
      sql: (d) => listTrips(d.db, CARRIER, {}, 21),
      plan: null,
      prepareAs: null,
    },
  ];
}

/** The plan production runs: on PostgreSQL the named prepared statement after 6 executions in one pooled session. */
async function productionPlan(database: Database, s: Scenario): Promise<string> {
  if (!s.plan) return '';
  const q = new PgDialect().sqlToQuery(s.plan);
  const explain = `explain (analyze, buffers, costs off)`;
  if (database.engine === 'pglite' || !s.prepareAs) {
    const rows = await database.query<{ 'QUERY PLAN': string }>(`${explain} ${q.sql}`, q.params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  try {
    const name = preparedName(s.prepareAs, q.sql);
    for (let i = 0; i < 6; i++) await client.query({ name, text: q.sql, values: q.params });
    // EXPLAIN EXECUTE takes no bind parameters: the same values as literals
    const args = q.params.map((v) => (v == null ? 'null' : client.escapeLiteral(String(v as string | number)))).join(', ');
    const r = await client.query<{ 'QUERY PLAN': string }>(`${explain} execute ${name}(${args})`);
    const mode = await client.query<{ plan_cache_mode: string }>('show plan_cache_mode');
    return `(prepared ${name}, 7th execution, plan_cache_mode=${mode.rows[0].plan_cache_mode})\n${r.rows.map((x) => x['QUERY PLAN']).join('\n')}`;
  } finally {
    client.release();
  }
}

/** One line: the access paths a plan takes on loads, and its execution time. */
function planSummary(plan: string): string {
  const paths = [...plan.matchAll(/(Index Only Scan|Index Scan|Bitmap Heap Scan|Seq Scan)(?: Backward)? (?:using (\S+) )?on (\w+)/g)]
    .map((m) => `${m[1].replace(' Scan', '')}${m[2] ? ` ${m[2]}` : ''} on ${m[3]}`)
    .filter((v, i, a) => a.indexOf(v) === i);
  const exec = /Execution Time: ([\d.]+)/.exec(plan)?.[1];
  const sort = /Sort Method: ([^\n]+)/.exec(plan)?.[1];
  return `${paths.join('; ')}${sort ? `; sort ${sort.trim()}` : ''}${exec ? `; ${exec} ms` : ''}`;
}

interface Row {
  engine: Engine;
  scenario: Scenario;
  matches: string;
  sqlP50: number;
  sqlP95: number;
  httpP50: number;
  httpP95: number;
  rps1: number;
  rpsN: number;
  pN: number;
  non2xx: number;
  rssMb: number;
  plan: string;
}

async function benchEngine(engine: Engine, n: number, only: Set<string> | null) {
  const { database, seedS, cleanup } = await openBench(engine, n);
  const rows: Row[] = [];
  try {
    await topUp(database);
    const { app, origin, tokenFor } = await benchApp(database);
    const base = `${origin}/api/v1`;
    const guest = await fetch(`${base}/guest/signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'bench', deviceType: 3 }),
    });
    const guestToken = ((await guest.json()) as { data: { token: { accessToken: string } } }).data.token.accessToken;
    const duration = Number(process.env.DURATION ?? 10);
    const connections = Number(process.env.CONNECTIONS ?? 10);
    const runs = Number(process.env.RUNS ?? 200);
    for (const s of await scenarios(database)) {
      if (only && !only.has(s.key)) continue;
      const token = s.as ? await tokenFor(s.as) : guestToken;
      const url = `${base}${s.path}`;
      const check = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      const body = (await check.json()) as { data: { items: unknown[]; total?: number; totalCapped?: boolean } };
      if (check.status !== 200) throw new Error(`GET ${s.path} answered ${check.status}: ${JSON.stringify(body)}`);
      // the Bayan list counts nothing: its page size instead
      const matches = body.data.total === undefined ? `(${body.data.items.length})` : `${body.data.total}${body.data.totalCapped ? '+' : ''}`;
      const plan = s.plan ? await productionPlan(database, s) : '';
      if (process.env.PLAN && plan) log(plan);
      for (let i = 0; i < 10; i++) await s.sql(database);
      const raw: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await s.sql(database);
        raw.push(performance.now() - t);
      }
      raw.sort((a, b) => a - b);
      const hammer = (c: number) =>
        new Promise<LoadResult>((resolve, reject) => {
          const w = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: { url, token, connections: c, duration } });
          w.once('message', resolve);
          w.once('error', reject);
        });
      log(`[${engine}] ${s.key}: HTTP 1 connection, then ${connections}, ${duration} s each…`);
      const one = await hammer(1);
      const many = await hammer(connections);
      const lat = one.latencies.sort((a, b) => a - b);
      rows.push({
        engine,
        scenario: s,
        matches,
        sqlP50: pct(raw, 50),
        sqlP95: pct(raw, 95),
        httpP50: pct(lat, 50),
        httpP95: pct(lat, 95),
        rps1: one.latencies.length / duration,
        rpsN: many.latencies.length / duration,
        pN: pct(
          many.latencies.sort((a, b) => a - b),
          95,
        ),
        non2xx: one.non2xx + one.errors + many.non2xx + many.errors,
        rssMb: process.memoryUsage().rss / 1048576,
        plan,
      });
    }
    await app.close();
  } finally {
    await cleanup();
  }
  return { rows, seedS };
}

async function main() {
  const argv = process.argv.slice(2);
  const scaleArg = argv[argv.indexOf('--scale') + 1];
  const scale = argv.includes('--scale') ? scaleArg : undefined;
  const n = scale ? ({ '100k': 100_000, '1m': 1_000_000, '10k': 10_000 } as Record<string, number>)[scale.toLowerCase()] : Number(process.env.N ?? 100_000);
  if (!n) throw new Error(`--scale takes 10k, 100k or 1m (got ${scale})`);
  const only = process.env.ONLY ? new Set(process.env.ONLY.split(',')) : null;
  let engines = await enginesToRun();
  if (!process.env.ENGINE && n >= 1_000_000) engines = engines.filter((e) => e === 'postgres');
  const c = Number(process.env.CONNECTIONS ?? 10);
  const out: Row[] = [];
  for (const e of engines.reverse()) {
    const { rows, seedS } = await benchEngine(e, n, only);
    log(`[${e}] seed ${Number.isFinite(seedS) ? `${fmt(seedS, 1)} s` : 'reused'}`);
    out.push(...rows);
  }
  const head = [
    'engine',
    'scenario',
    'total',
    'SQL p50/p95 ms',
    'HTTP p50/p95 ms (1 conn)',
    'HTTP/SQL p50',
    'req/s 1 conn',
    `req/s ${c} conn (p95 ms)`,
    'non-2xx',
    'RSS MB',
  ];
  const body = out.map((r) => [
    r.engine,
    r.scenario.key,
    r.matches,
    `${fmt(r.sqlP50)} / ${fmt(r.sqlP95)}`,
    `${fmt(r.httpP50)} / ${fmt(r.httpP95)}`,
    `${fmt(r.httpP50 / r.sqlP50, 2)}×`,
    fmt(r.rps1, 0),
    `${fmt(r.rpsN, 0)} (${fmt(r.pN, 1)})`,
    String(r.non2xx),
    fmt(r.rssMb, 0),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((x, i) => x.padEnd(widths[i])).join(' | ')} |`;
  console.log(
    `\nLoad board at ${n.toLocaleString('en')} loads (SQL: ${process.env.RUNS ?? 200} serial runs of the repository code; HTTP: autocannon, ${process.env.DURATION ?? 10} s per run)`,
  );
  for (const r of out) console.log(`  ${r.scenario.key}: ${r.scenario.label}`);
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
  console.log('\nProduction plans:');
  for (const r of out) if (r.plan) console.log(`  ${r.engine} ${r.scenario.key}: ${planSummary(r.plan)}`);
}

// run when started as the script (bench/expiry.bench.ts and bench/cache.bench.ts import seed() from here)
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
