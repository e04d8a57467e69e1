/**
 * The truck board and the in/out logs at scale (issue 19): `npm run bench:trucks`.
 *
 * PostgreSQL only (TEST_DATABASE_URL, BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test):
 * creates its own database `masar_bench_trucks_<loads>` (BENCH_DB_NAME names another) and drops it afterwards (KEEP_DB=1 keeps and
 * reuses it). Options: SCALE (or SCALES) = the number of loads, `10k`, `100k` or `1m` (default
 * 1m); the trucks are a fifth of it (200,000 posted at 1m) plus 10% unposted or expired ones.
 * DURATION seconds of HTTP load per scenario (default 10), CONNECTIONS (default 10), RUNS serial
 * in-process runs (default 200), PLAN=1 to print whole plans (the summaries always print), ONLY=<scenario,…>.
 *
 * Data: the loads of bench/search.bench.ts seed() (80% open, pickups weighted like real traffic);
 * trucks with origins weighted the same way, 15 equipment types, windows of 1–7 days starting from
 * 20 h ago up to 25 days ahead, posted in the last 48 h; destinations: half "anywhere", a third one
 * city, a tenth two cities, the rest a region. All inserted with generate_series.
 *
 * Scenarios (each request draws a random city, equipment, date and direction from a pool, so
 * nothing is served twice from a cache; the boards' page cache is off, SEARCH_CACHE_TTL_MS=0, but
 * for searchPooled):
 * - search: GET /searchTrucks, origin + radius 200 km + equipment + date, nearest first;
 * - truckInOut: GET /truckInOutLogs, a city, radius 100 km, 7 days from now, in or out;
 * - loadInOut: GET /loadInOutLogs, the same;
 * - searchPooled: GET /searchTrucks on a second server with the page cache on (SEARCH_CACHE_TTL_MS,
 *   default 5000): POOL (500) searches of the "search" kind drawn once and asked at random, with
 *   WRITES (1) truck writes a second in the background (unpost through the API, repost 5 s later);
 *   prints the cache's hits and misses.
 * Figures: server time p50/p95 (the service call the route makes, in process, serial), HTTP
 * p50/p95 and req/s at 1 and CONNECTIONS connections (autocannon in a worker thread). Then the
 * EXPLAIN (ANALYZE, BUFFERS) of each main statement as production runs it (custom plan) and its
 * generic plan (the prepared statement after 5 executions, plan_cache_mode=force_generic_plan).
 * Prints figures; never asserts timings.
 */
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import type { InOutQuery, SearchTrucksQuery } from '@masar/shared';
import { openDatabase, type Database, type DbOrTx } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import * as trucksRepo from '../apps/server/src/modules/trucks/trucks.repository.ts';
import { truckCacheStats } from '../apps/server/src/modules/trucks/trucks.service.ts';
import * as loadsInOut from '../apps/server/src/modules/loads/inout.repository.ts';
import * as loadsBoard from '../apps/server/src/modules/loads/board.repository.ts';
import { EQUIPMENT, HUB_WEIGHTS, seed as seedLoads } from './search.bench.ts';
import { benchApp, captureSql, planSummary, plans, scaleOf, withDb, qs } from './lib.ts';

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const fmt = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '–');
const uid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const CARRIERS = 100;
const SHIPPER = uid(1);
/** The carrier of bench/search.bench.ts seed(): the booked (assigned) loads are its. */
const LOAD_CARRIER = uid(3);

const scaleArg = process.env.SCALE ?? process.env.SCALES ?? '1m';
const LOADS = scaleOf(scaleArg);
if (!LOADS) throw new Error(`SCALE takes 10k, 100k or 1m (got ${scaleArg})`);
const TRUCKS = Math.floor(LOADS / 5);

/** `n` posted trucks (+10% unposted or expired) over the weighted cities, in batches of 100,000. */
async function seedTrucks(database: Database, n: number) {
  for (let i = 0; i < CARRIERS; i++) {
    await database.query(
      `insert into users (id, account_type, first_name, last_name, company_name, email, phone, password_hash, status, is_first_time_approved)
       values ($1, 2, 'Bench', 'Carrier', $2, $3, $4, 'x', 2, true) on conflict do nothing`,
      [uid(5000 + i), `Bench Haulage ${i}`, `carrier${i}@bench.masar.sa`, `+9665008${String(i).padStart(5, '0')}`],
    );
  }
  const cases = Object.entries(HUB_WEIGHTS)
    .map(([id, w]) => `when ${Number(id)} then ${w}`)
    .join(' ');
  await database.exec(`drop table if exists bench_tcities;
    create table bench_tcities as
      select (row_number() over (order by c.id, k) - 1)::int as idx, c.id, c.region_id
      from cities c cross join lateral generate_series(1, case c.id ${cases} else 1 end) k;
    create index on bench_tcities (idx);`);
  const [{ w }] = await database.query<{ w: number }>('select count(*)::int as w from bench_tcities');
  const eq = `(array[${EQUIPMENT.map((e) => `'${e}'`).join(',')}])`;
  const total = Math.floor(n * 1.1);
  for (let start = 1; start <= total; start += 100_000) {
    const end = Math.min(total, start + 99_999);
    // h: 0–90 posted, 91–95 unposted, 96–99 expired (its window over); d: the destination kind
    await database.exec(`
      insert into trucks (id, reference_id, owner_id, status, load_type, equipment_type, available_from, available_to, origin_city_id,
        anywhere, destination_city_ids, destination_region_ids, min_rate, rate_basis, capacity_kg, posted_at, created_at)
      select gen_random_uuid(), 'TB-' || g, ('00000000-0000-7000-8000-' || lpad((5000 + g % ${CARRIERS})::text, 12, '0'))::uuid,
        s.status, case when g % 10 = 0 then 'LTL' else 'FTL' end, ${eq}[1 + abs(hashint8(g * 3 + 1)) % ${EQUIPMENT.length}],
        a.f, a.f + (1 + abs(hashint8(g * 23 + 9)) % 7) * interval '1 day', oc.id,
        x.d < 50, case when x.d between 50 and 84 then array[dc.id] when x.d between 85 and 94 then array[dc.id, dc2.id] else '{}' end,
        case when x.d >= 95 then array[dc.region_id] else '{}' end,
        (1000 + abs(hashint8(g * 29 + 2)) % 8000)::numeric, case when g % 7 = 0 then 'km' else 'trip' end,
        (5000 + abs(hashint8(g * 31 + 3)) % 35000)::numeric,
        case when s.status = 'unposted' then null else now() - (abs(hashint8(g * 37 + 4)) % 2880) * interval '1 minute' end,
        now() - interval '3 days'
      from generate_series(${start}::bigint, ${end}::bigint) g
      cross join lateral (select abs(hashint8(g * 7 + 3)) % 100 as h, abs(hashint8(g * 41 + 5)) % 100 as d) x
      cross join lateral (select case when x.h <= 90 then 'posted' when x.h <= 95 then 'unposted' else 'expired' end as status) s
      cross join lateral (select case when s.status = 'expired' then now() - interval '10 days'
                                      else now() - interval '20 hours' + (abs(hashint8(g * 13 + 4)) % 36000) * interval '1 minute' end as f) a
      join bench_tcities oc on oc.idx = abs(hashint8(g)) % ${w}
      join bench_tcities dc on dc.idx = abs(hashint8(g * 11 + 5)) % ${w}
      join bench_tcities dc2 on dc2.idx = abs(hashint8(g * 17 + 7)) % ${w};`);
    log(`  trucks ${end.toLocaleString('en')}`);
  }
  await database.exec('drop table bench_tcities');
  // the side tables the trucks repository keeps on every write (migration 0119), for the bulk insert
  await trucksRepo.rebuildTruckSide(database.db);
  await database.exec('vacuum analyze truck_destinations');
  await database.exec('vacuum analyze trucks_posted_hourly');
  await database.exec('vacuum analyze trucks');
  await database.exec('vacuum analyze users');
}

async function openBench(): Promise<{ database: Database; cleanup: () => Promise<void>; seedS: number }> {
  const name = process.env.BENCH_DB_NAME ?? `masar_bench_trucks_${LOADS}`;
  const keep = !!process.env.KEEP_DB;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const url = withDb(pgUrl, name);
  let reuse = false;
  if (keep && (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    reuse = await c
      .query<{ n: number }>('select n from bench_meta')
      .then((r) => r.rows[0]?.n === LOADS)
      .catch(() => false);
    reuse &&= (await c.query<{ n: number }>('select count(*)::int as n from trucks').then((r) => r.rows[0].n)) > 0;
    await c.end();
  }
  if (!reuse) {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const su = new pg.Client({ connectionString: url });
    await su.connect();
    await su.query('create extension if not exists cube; create extension if not exists earthdistance;');
    await su.end();
  }
  await admin.end();
  const database = await openDatabase({ databaseUrl: url, poolMax: 10 });
  const cleanup = async () => {
    await database.close();
    if (keep) return;
    const a = new pg.Client({ connectionString: pgUrl });
    await a.connect();
    // pg-pool's end() resolves before its sockets close: wait for them before dropping (bench/lib.ts)
    for (let i = 0; i < 100; i++) {
      const { rows } = await a.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await a.query(`drop database if exists ${name} with (force)`);
    await a.end();
  };
  if (reuse) {
    await migrate(database);
    log(`reusing ${name}`);
    return { database, cleanup, seedS: NaN };
  }
  const t0 = performance.now();
  log(`seeding ${LOADS.toLocaleString('en')} loads…`);
  await seedLoads(database, LOADS);
  log(`seeding ${TRUCKS.toLocaleString('en')} posted trucks…`);
  await seedTrucks(database, TRUCKS);
  return { database, cleanup, seedS: (performance.now() - t0) / 1000 };
}

const days = (d: number, from = Date.now()) => new Date(from + d * 86_400_000).toISOString();
const rnd = <T>(a: readonly T[]) => a[Math.floor(Math.random() * a.length)];

interface Scenario {
  key: string;
  label: string;
  /** The bearer of its HTTP requests (default: the shipper). */
  token?: string;
  /** A fresh random query (its API path and the service call the route makes). */
  next: () => { path: string; run: () => Promise<unknown> };
  /** The server its HTTP requests go to (default: the one with the page cache off). */
  origin?: string;
  /** Started before its HTTP runs (background writes); the returned function stops it. */
  during?: () => () => void;
}

async function main() {
  const { database, cleanup, seedS } = await openBench();
  try {
    // a cold result cache: nothing is cached between requests
    const { app, origin, tokenFor } = await benchApp(database, { SEARCH_CACHE_TTL_MS: '0' });
    const token = await tokenFor(SHIPPER);
    const carrierToken = await tokenFor(LOAD_CARRIER);
    const svc = app.container.services.trucks;
    // the product as deployed: the boards' page cache on (SEARCH_CACHE_TTL_MS default), jobs off
    const cached = await benchApp(database, { SEARCH_CACHE_TTL_MS: process.env.SEARCH_CACHE_TTL_MS ?? '5000' });
    const cachedSvc = cached.app.container.services.trucks;
    const loadsSvc = app.container.services.loads;
    // backhaul anchors: the carrier's booked loads delivering from now to 25 days ahead (the open loads' horizon)
    const anchors = (
      await database.query<{ id: string }>(
        `select id from loads where carrier_id = $1 and status = 'assigned' and drop_at between now() and now() + interval '25 days' order by id limit 2000`,
        [LOAD_CARRIER],
      )
    ).map((r) => r.id);
    const carrierUser = { id: LOAD_CARRIER, accountType: 2, status: 2 } as unknown as Parameters<typeof loadsSvc.backhauls>[0];

    // the cities a user would pick: those with trucks, the busiest weighted as they are
    const cities = (
      await database.query<{ id: number }>(`select origin_city_id as id from trucks where status = 'posted' group by 1 order by count(*) desc limit 300`)
    ).map((r) => Number(r.id));
    const hubs = cities.slice(0, 20);
    const city = () => (Math.random() < 0.6 ? rnd(hubs) : rnd(cities));
    const now = Date.now();
    const searchQ = (): SearchTrucksQuery => ({
      originCityId: city(),
      radius: 200,
      equipmentType: rnd(EQUIPMENT),
      date: days(Math.floor(Math.random() * 7), now),
      sort: 'deadhead',
      limit: 20,
    });
    const inOutQ = (): InOutQuery => ({ cityId: city(), radius: 100, from: days(0, now), to: days(7, now), direction: rnd(['in', 'out'] as const), limit: 20 });
    const backhaulQ = () => ({ loadId: rnd(anchors), equipmentType: Math.random() < 0.5 ? undefined : rnd(EQUIPMENT), limit: 20 });
    const scenarios: Scenario[] = [
      {
        key: 'backhauls',
        label: 'GET /backHaulLoads: a random booked load of the carrier, radius 200 km (default), no equipment or a random one, top 20',
        token: carrierToken,
        next: () => {
          const q = backhaulQ();
          return { path: `/api/v1/backHaulLoads?${qs(q)}`, run: () => loadsSvc.backhauls(carrierUser, q.loadId, q) };
        },
      },
      {
        key: 'search',
        label: 'GET /searchTrucks: random origin, radius 200 km, random equipment, random date (next 7 days), nearest 20',
        next: () => {
          const q = searchQ();
          return { path: `/api/v1/searchTrucks?${qs(q)}`, run: () => svc.search(q, null) };
        },
      },
      {
        key: 'truckInOut',
        label:
          'GET /truckInOutLogs: random city, radius 100 km, 7 days, in or out (page 20 + both counts + 24 h ratio; server time: every figure read fresh, as …/refresh; HTTP: the counts and ratio kept 30 s per area)',
        next: () => {
          const q = inOutQ();
          return { path: `/api/v1/truckInOutLogs?${qs(q)}`, run: () => svc.truckInOut(q, null, true) };
        },
      },
      {
        key: 'loadInOut',
        label: 'GET /loadInOutLogs: the same for loads (server time fresh, HTTP with the figures kept)',
        next: () => {
          const q = inOutQ();
          return { path: `/api/v1/loadInOutLogs?${qs(q)}`, run: () => svc.loadInOut(q, null, true) };
        },
      },
    ];
    // popular searches: a pool of POOL searches drawn once (the hubs weighted as above), asked
    // at random, with WRITES truck writes a second in the background (a random posted truck of a
    // hub unposted through the API, reposted 5 s later): each bumps its origin's versions
    const POOL = Number(process.env.POOL ?? 500);
    const WRITES = Number(process.env.WRITES ?? 1);
    const pool = Array.from({ length: POOL }, searchQ);
    const writable = (
      await database.query<{ id: string; owner_id: string }>(
        `select id, owner_id from trucks where status = 'posted' and available_to > now() + interval '1 day' and origin_city_id = any($1::int[]) order by random() limit 2000`,
        [hubs],
      )
    ).map((r) => ({ id: r.id, owner: r.owner_id }));
    // reposting needs an active plan (spec §9): the writing carriers have one
    for (const owner of new Set(writable.map((w) => w.owner)))
      await database.query(
        `insert into subscriptions (id, user_id, plan_code, plan_name, active) select gen_random_uuid(), $1, 'bench', 'Bench plan', true
         where not exists (select 1 from subscriptions where user_id = $1 and plan_code = 'bench')`,
        [owner],
      );
    const ownerTokens = new Map<string, string>();
    const writeStats = { done: 0, failed: 0 };
    const truckWrites = () => {
      if (!WRITES) return () => {};
      const post = async (id: string, owner: string, action: 'unpost' | 'repost') => {
        if (!ownerTokens.has(owner)) ownerTokens.set(owner, await cached.tokenFor(owner));
        const r = await fetch(`${cached.origin}/api/v1/truck/${id}/${action}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ownerTokens.get(owner)}` },
        });
        if (r.ok) writeStats.done++;
        else writeStats.failed++;
      };
      const timers = new Set<NodeJS.Timeout>();
      const tick = setInterval(() => {
        const w = writable.pop();
        if (!w) return;
        void post(w.id, w.owner, 'unpost').then(() => {
          const back = setTimeout(() => {
            timers.delete(back);
            void post(w.id, w.owner, 'repost').then(() => writable.unshift(w));
          }, 5000);
          timers.add(back);
        });
      }, 1000 / WRITES);
      return () => {
        clearInterval(tick);
        for (const x of timers) clearTimeout(x);
      };
    };
    scenarios.push({
      key: 'searchPooled',
      label: `GET /searchTrucks with the page cache on (TTL ${process.env.SEARCH_CACHE_TTL_MS ?? 5000} ms): ${POOL} searches of the "search" kind asked at random, ${WRITES} truck write(s)/s in the background`,
      origin: cached.origin,
      during: truckWrites,
      next: () => {
        const q = rnd(pool);
        return { path: `/api/v1/searchTrucks?${qs(q)}`, run: () => cachedSvc.searchJson(q, null) };
      },
    });
    const cacheLines: string[] = [];
    const runs = Number(process.env.RUNS ?? 200);
    const duration = Number(process.env.DURATION ?? 10);
    const connections = Number(process.env.CONNECTIONS ?? 10);
    const rows: string[][] = [];
    // ONLY=search,truckInOut: those scenarios alone
    const only = process.env.ONLY?.split(',');
    for (const s of scenarios.filter((x) => !only || only.includes(x.key))) {
      for (let i = 0; i < 10; i++) await s.next().run();
      const t: number[] = [];
      for (let i = 0; i < runs; i++) {
        const one = s.next();
        const t0 = performance.now();
        await one.run();
        t.push(performance.now() - t0);
      }
      t.sort((a, b) => a - b);
      const paths = Array.from({ length: 2000 }, () => s.next().path);
      const hammer = (c: number) =>
        new Promise<{ latencies: number[]; non2xx: number; errors: number }>((resolve, reject) => {
          const w = new Worker(new URL('./load-worker.mjs', import.meta.url), {
            workerData: { url: s.origin ?? origin, paths, token: s.token ?? token, connections: c, duration },
          });
          w.once('message', resolve);
          w.once('error', reject);
        });
      log(`${s.key}: ${runs} serial runs done; HTTP 1 connection, then ${connections}, ${duration} s each…`);
      const stop = s.during?.();
      const stats0 = { ...truckCacheStats };
      const one = await hammer(1);
      const many = await hammer(connections);
      stop?.();
      if (s.origin)
        cacheLines.push(
          `  ${s.key} (HTTP, both runs): ${truckCacheStats.hits - stats0.hits} hits, ${truckCacheStats.misses - stats0.misses} misses, ${truckCacheStats.joined - stats0.joined} joined, ${truckCacheStats.bypass - stats0.bypass} bypassed; truck writes ${writeStats.done} (failed ${writeStats.failed})`,
        );
      const l1 = one.latencies.sort((a, b) => a - b);
      const ln = many.latencies.sort((a, b) => a - b);
      rows.push([
        s.key,
        `${fmt(pct(t, 50))} / ${fmt(pct(t, 95))}`,
        `${fmt(pct(l1, 50))} / ${fmt(pct(l1, 95))}`,
        fmt(l1.length / duration, 0),
        `${fmt(ln.length / duration, 0)} (${fmt(pct(ln, 50), 1)} / ${fmt(pct(ln, 95), 1)})`,
        String(one.non2xx + one.errors + many.non2xx + many.errors),
      ]);
    }
    await app.close();
    await cached.app.close();

    // the main statements, with the values of one random query each
    const a = { cityId: hubs[0], radius: 100, from: new Date(now), to: new Date(now + 7 * 86_400_000) };
    const since = new Date(now - 86_400_000);
    // the densest circle among the cities asked (loadsInOut walks the date-ordered index there)
    const [dense] = await database.query<{ id: number; n: number }>(
      `select o.id, count(*)::int as n from cities o join cities c on earth_distance(ll_to_earth(o.lat, o.lng), ll_to_earth(c.lat, c.lng)) <= 100000
       where o.id = any($1::int[]) group by o.id order by n desc, o.id limit 1`,
      [cities],
    );
    const aDense = { ...a, cityId: Number(dense.id) };
    const statements: [string, (db: DbOrTx) => Promise<unknown>][] = [
      ['truck search (radius 200 + equipment + date)', (db) => trucksRepo.searchTruckIds(db, { ...searchQ(), originCityId: hubs[0] })],
      ['truck in page', (db) => trucksRepo.truckInOutIds(db, a, 'in', 20)],
      ['truck out page', (db) => trucksRepo.truckInOutIds(db, a, 'out', 20)],
      ['truck in/out counts', (db) => trucksRepo.truckInOutCounts(db, a)],
      ['trucks posted 24 h (ratio)', (db) => trucksRepo.trucksPostedInArea(db, a.cityId, a.radius, since)],
      ['load in page (per place)', (db) => loadsInOut.inOutRows(db, { a, dir: 'in', limit: 20, after: null, hidden: [], path: 'perPlace' })],
      ['load out page (per place)', (db) => loadsInOut.inOutRows(db, { a, dir: 'out', limit: 20, after: null, hidden: [], path: 'perPlace' })],
      [
        `load in page (walk: city ${dense.id}, ${dense.n} places)`,
        (db) => loadsInOut.inOutRows(db, { a: aDense, dir: 'in', limit: 20, after: null, hidden: [], path: 'walk' }),
      ],
      [
        `load out page (walk: city ${dense.id}, ${dense.n} places)`,
        (db) => loadsInOut.inOutRows(db, { a: aDense, dir: 'out', limit: 20, after: null, hidden: [], path: 'walk' }),
      ],
      ['load in/out counts', (db) => loadsInOut.inOutCounts(db, a)],
      ['loads posted 24 h (ratio)', (db) => loadsInOut.postedInArea(db, a.cityId, a.radius, since)],
      ...(['', EQUIPMENT[0]] as const).map(
        (eq) =>
          [
            `backhauls (200 km, 7 days${eq ? `, ${eq}` : ', any equipment'})`,
            (db: DbOrTx) =>
              loadsBoard.backhaulLoads(db, {
                cityId: hubs[0],
                after: new Date(now),
                until: new Date(now + 7 * 86_400_000),
                radiusKm: 200,
                equipmentType: eq || undefined,
                viewerId: LOAD_CARRIER,
                hidden: [],
                limit: 20,
              }),
          ] as [string, (db: DbOrTx) => Promise<unknown>],
      ),
    ];
    const planLines: string[] = [];
    for (const [label, fn] of statements) {
      const [stmt] = await captureSql(fn, [{ n: 0, n_in: 0, n_out: 0 }]);
      if (!stmt) continue;
      const p = await plans(database, stmt);
      planLines.push(`  ${label}\n    custom:  ${planSummary(p.custom)}\n    generic: ${planSummary(p.generic)}`);
      if (process.env.PLAN) log(`\n=== ${label} (custom) ===\n${p.custom}\n=== ${label} (generic, after 5 executions) ===\n${p.generic}`);
    }

    const head = ['scenario', 'server p50/p95 ms', 'HTTP p50/p95 ms (1 conn)', 'req/s 1 conn', `req/s ${connections} conn (p50/p95 ms)`, 'non-2xx'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => `| ${cells.map((x, i) => x.padEnd(widths[i])).join(' | ')} |`;
    console.log(
      `\nTruck board and in/out logs on PostgreSQL: ${LOADS.toLocaleString('en')} loads, ${TRUCKS.toLocaleString('en')} posted trucks` +
        ` (seed ${Number.isFinite(seedS) ? `${fmt(seedS, 0)} s` : 'reused'}; server: ${runs} serial service calls; HTTP: autocannon, ${duration} s, random URLs from a pool of 2,000)`,
    );
    for (const s of scenarios) console.log(`  ${s.key}: ${s.label}`);
    console.log(line(head));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const r of rows) console.log(line(r));
    if (cacheLines.length) console.log(`\nTruck board page cache:\n${cacheLines.join('\n')}`);
    console.log(`\nPlans (EXPLAIN ANALYZE, BUFFERS; city ${hubs[0]}, 7 days; custom = production, generic = after 5 executions):`);
    console.log(planLines.join('\n'));
  } finally {
    await cleanup();
  }
}

await main();
