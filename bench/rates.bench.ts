/**
 * The lane rate index at scale (issue 20): `npm run bench:rates`.
 *
 * PostgreSQL only (BENCH_DATABASE_URL, TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test):
 * creates its own database `masar_bench_rates_<n>` and drops it afterwards (KEEP_DB=1 keeps and
 * reuses it). Options: SCALE = bookings (`100k` or `1m`, default 1m), DURATION seconds of HTTP
 * load (default 10), CONNECTIONS (default 10), RUNS serial in-process runs (default 300), PLAN=1
 * prints whole plans.
 *
 * Data: SCALE rate records inserted with generate_series over the last 400 days: origins and
 * destinations among the 60 highest-ranked cities (the busiest weighted ×5), 15 equipment codes,
 * 2,000 companies, 70 % spot; price = (350 + km × 2.5–6 SAR/km) with noise; 0.5 % flagged as
 * outliers. Then the daily aggregates are built in one statement (the rates repository's
 * aggregateRecords, as the demo seed does) — the index reads only those.
 *
 * Scenario: GET /rates/lane with a random lane of the 60 cities (origin ≠ destination), a random
 * equipment (half the time none), window and kind, from a pool of 2,000 URLs — no result cache
 * exists, so nothing is served twice from memory. Figures: server time p50/p95 (the service call,
 * serial, in process), HTTP p50/p95 and req/s at 1 and CONNECTIONS connections (autocannon in a
 * worker thread), how often each level/window answered; then the EXPLAIN of the daily-rows read
 * as production runs it (a named statement with its generic plan) and its custom plan.
 * Prints figures; never asserts timings.
 */
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { RATE_WINDOWS, type LaneRateQuery } from '@masar/shared';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { loadReferenceData } from '../apps/server/src/db/seed/reference.ts';
import * as ratesRepo from '../apps/server/src/modules/rates/rates.repository.ts';
import { benchServer, captureSql, plans, planSummary, scaleOf, withDb } from './lib.ts';

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const fmt = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '–');
const uid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const USER = uid(1);
const EQUIPMENT = [
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
const N = scaleOf(process.env.SCALE ?? '1m');
if (!N) throw new Error(`SCALE takes 100k or 1m (got ${process.env.SCALE})`);

async function seed(database: Database) {
  await loadReferenceData(database.db);
  await database.query(
    `insert into users (id, account_type, first_name, last_name, company_name, email, phone, password_hash, status, is_first_time_approved)
     values ($1, 1, 'Bench', 'Shipper', 'Bench Shipper', 'rates@bench.masar.sa', '+966500900001', 'x', 2, true) on conflict do nothing`,
    [USER],
  );
  // the 60 highest-ranked cities, the first 10 five times (busier)
  await database.exec(`drop table if exists bench_rcities;
    create table bench_rcities as
      select (row_number() over (order by c.rank desc, c.id, k) - 1)::int as idx, c.id, c.region_id, c.lat, c.lng
      from (select * from cities order by rank desc, id limit 60) c
      cross join lateral generate_series(1, case when c.rank >= (select rank from cities order by rank desc, id limit 1 offset 9) then 5 else 1 end) k;
    create index on bench_rcities (idx);`);
  const [{ w }] = await database.query<{ w: number }>('select count(*)::int as w from bench_rcities');
  const eq = `(array[${EQUIPMENT.map((e) => `'${e}'`).join(',')}])`;
  for (let start = 1; start <= N; start += 200_000) {
    const end = Math.min(N, start + 199_999);
    await database.exec(`
      insert into rate_records (load_id, kind, source, company_id, carrier_id, booked_at, booked_on, origin_city_id, origin_region_id,
        destination_city_id, destination_region_id, equipment, load_type, distance_km, weight_kg, price_sar, per_km_sar, outlier)
      select ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, k.kind, case when k.kind = 'spot' then 'offer' else 'tender' end,
        ('00000000-0000-7000-9000-' || lpad((abs(hashint8(g * 5 + 1)) % 2000)::text, 12, '0'))::uuid, null,
        b.at, (b.at + interval '3 hours')::date, oc.id, oc.region_id, dc.id, dc.region_id,
        ${eq}[1 + abs(hashint8(g * 3 + 1)) % ${EQUIPMENT.length}], 'ftl', d.km, 20000, p.price, round((p.price / d.km)::numeric, 4),
        abs(hashint8(g * 43 + 8)) % 200 = 0
      from generate_series(${start}::bigint, ${end}::bigint) g
      join bench_rcities oc on oc.idx = abs(hashint8(g)) % ${w}
      join bench_rcities dc on dc.idx = abs(hashint8(g * 11 + 5)) % ${w}
      cross join lateral (select case when abs(hashint8(g * 7 + 2)) % 10 < 7 then 'spot' else 'contract' end as kind) k
      cross join lateral (select now() - (abs(hashint8(g * 13 + 4)) % (400 * 1440)) * interval '1 minute' as at) b
      cross join lateral (select greatest(20, round((1.12 * 12742 * asin(least(1, sqrt(power(sin(radians(dc.lat - oc.lat) / 2), 2)
                            + cos(radians(oc.lat)) * cos(radians(dc.lat)) * power(sin(radians(dc.lng - oc.lng) / 2), 2)))))::numeric, 1)) as km) d
      cross join lateral (select round(((350 + d.km * (2.5 + (abs(hashint8(g * 17 + 6)) % 350) / 100.0))
                            * (0.9 + (abs(hashint8(g * 19 + 7)) % 200) / 1000.0))::numeric, 2) as price) p
      where oc.id <> dc.id
      on conflict do nothing;`);
    log(`  records ${end.toLocaleString('en')}`);
  }
  await database.exec('drop table bench_rcities');
  log('  aggregating…');
  await database.db.transaction((tx) => ratesRepo.aggregateRecords(tx, null));
  await database.exec('vacuum analyze rate_records');
  await database.exec('vacuum analyze lane_rate_daily');
  await database.exec('vacuum analyze lane_rate_monthly');
}

async function openBench(): Promise<{ database: Database; cleanup: () => Promise<void>; seedS: number }> {
  const name = `masar_bench_rates_${N}`;
  const keep = !!process.env.KEEP_DB;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const url = withDb(pgUrl, name);
  let reuse = false;
  if (keep && (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    reuse = await c
      .query<{ n: number }>('select count(*)::int as n from lane_rate_daily')
      .then((r) => r.rows[0].n > 0)
      .catch(() => false);
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
    for (let i = 0; i < 100; i++) {
      const { rows } = await a.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await a.query(`drop database if exists ${name} with (force)`);
    await a.end();
  };
  await migrate(database);
  if (reuse) {
    log(`reusing ${name}`);
    // a database kept before the monthly rollup existed (0111 extended in place): create and build it
    const [{ has }] = await database.query<{ has: boolean }>(`select to_regclass('lane_rate_monthly') is not null as has`);
    if (!has)
      await database.exec(`create table lane_rate_monthly (like lane_rate_daily including defaults including constraints);
        alter table lane_rate_monthly add primary key (level, origin_key, destination_key, equipment, kind, day);`);
    const [{ n }] = await database.query<{ n: number }>('select count(*)::int as n from lane_rate_monthly');
    if (n === 0) {
      log('  building the monthly rollup…');
      await database.db.transaction((tx) => ratesRepo.aggregateInto(tx, null, 'month'));
      await database.exec('vacuum analyze lane_rate_monthly');
    }
    return { database, cleanup, seedS: NaN };
  }
  const t0 = performance.now();
  log(`seeding ${N.toLocaleString('en')} bookings…`);
  await seed(database);
  return { database, cleanup, seedS: (performance.now() - t0) / 1000 };
}

const rnd = <T>(a: readonly T[]) => a[Math.floor(Math.random() * a.length)];

async function main() {
  const { database, cleanup, seedS } = await openBench();
  try {
    const { app, origin, token } = await benchServer(database, USER);
    const svc = app.container.services.rates;
    const [{ records, daily }] = await database.query<{ records: number; daily: number }>(
      `select (select count(*)::int from rate_records) as records, (select count(*)::int from lane_rate_daily) as daily`,
    );

    const cities = (await database.query<{ id: number }>(`select distinct origin_city_id as id from rate_records`)).map((r) => Number(r.id));
    const next = (): LaneRateQuery => {
      const o = rnd(cities);
      let d = rnd(cities);
      while (d === o) d = rnd(cities);
      return {
        origin: o,
        destination: d,
        ...(Math.random() < 0.5 ? { equipment: rnd(EQUIPMENT) } : {}),
        kind: Math.random() < 0.7 ? 'spot' : 'contract',
        window: rnd(RATE_WINDOWS),
      };
    };
    const qs = (q: LaneRateQuery) => new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();

    const runs = Number(process.env.RUNS ?? 300);
    const duration = Number(process.env.DURATION ?? 10);
    const connections = Number(process.env.CONNECTIONS ?? 10);
    for (let i = 0; i < 10; i++) await svc.laneRate({ id: USER }, next());
    const times: number[] = [];
    const answered = new Map<string, number>();
    for (let i = 0; i < runs; i++) {
      const q = next();
      const t0 = performance.now();
      const r = await svc.laneRate({ id: USER }, q);
      times.push(performance.now() - t0);
      const k = r.enough ? `${r.geography!.level}${r.window === q.window ? '' : ' (window widened)'}` : 'not enough';
      answered.set(k, (answered.get(k) ?? 0) + 1);
    }
    times.sort((a, b) => a - b);
    const paths = Array.from({ length: 2000 }, () => `/api/v1/rates/lane?${qs(next())}`);
    const hammer = (c: number) =>
      new Promise<{ latencies: number[]; non2xx: number; errors: number }>((resolve, reject) => {
        const w = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: { url: origin, paths, token, connections: c, duration } });
        w.once('message', resolve);
        w.once('error', reject);
      });
    log(`${runs} serial runs done; HTTP 1 connection, then ${connections}, ${duration} s each…`);
    const one = await hammer(1);
    const many = await hammer(connections);
    await app.close();
    const l1 = one.latencies.sort((a, b) => a - b);
    const ln = many.latencies.sort((a, b) => a - b);

    // the statement the index runs per level tried: a year at region → region (whole months + days), as production runs it
    const [ro] = await database.query<{ o: number; d: number }>(
      `select origin_key as o, destination_key as d from lane_rate_daily where level = 'region_region' and equipment = '*' and kind = 'spot' group by 1, 2 order by sum(records) desc limit 1`,
    );
    const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const yearAgo = new Date(Date.now() + 3 * 3_600_000 - 364 * 86_400_000).toISOString().slice(0, 10);
    const k = { level: 'region_region' as const, originKey: Number(ro.o), destinationKey: Number(ro.d), equipment: '*', kind: 'spot' as const };
    const [stmt] = await captureSql((db) => ratesRepo.laneSummary(db, k, yearAgo, today, 7));
    const p = await plans(database, stmt);
    if (process.env.PLAN) log(`\n=== custom ===\n${p.custom}\n=== generic ===\n${p.generic}`);

    console.log(
      `\nLane rate index on PostgreSQL: ${records.toLocaleString('en')} bookings, ${daily.toLocaleString('en')} daily aggregate rows` +
        ` (seed ${Number.isFinite(seedS) ? `${fmt(seedS, 0)} s` : 'reused'}); random lanes of 60 cities, equipment, kind and window`,
    );
    console.log('| measure | p50 ms | p95 ms | req/s |');
    console.log('|---|---|---|---|');
    console.log(`| server (service call, serial, ${runs} runs) | ${fmt(pct(times, 50))} | ${fmt(pct(times, 95))} | – |`);
    console.log(`| HTTP 1 connection | ${fmt(pct(l1, 50))} | ${fmt(pct(l1, 95))} | ${fmt(l1.length / duration, 0)} |`);
    console.log(`| HTTP ${connections} connections | ${fmt(pct(ln, 50))} | ${fmt(pct(ln, 95))} | ${fmt(ln.length / duration, 0)} |`);
    console.log(`non-2xx/errors: ${one.non2xx + one.errors + many.non2xx + many.errors}`);
    console.log(`answered at: ${[...answered.entries()].map(([a, n]) => `${a} ${n}`).join(', ')}`);
    console.log(`lane summary (region→region, '*', 365 days, the busiest pair):\n  custom:  ${planSummary(p.custom)}\n  generic: ${planSummary(p.generic)}`);
  } finally {
    await cleanup();
  }
}

await main();
