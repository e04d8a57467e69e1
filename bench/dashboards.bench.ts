/**
 * The dashboards at scale (issue 20 "Dashboards"): `npm run bench:dashboards`.
 *
 * PostgreSQL only (TEST_DATABASE_URL, BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test):
 * creates its own database `masar_bench_dashboards_<loads>` and drops it afterwards (KEEP_DB=1
 * keeps and reuses it). SCALE = the loads in all, `100k` or `1m` (default 1m); BIG = the loads of
 * the one big shipper (default 100k). DURATION seconds of HTTP load (default 10), CONNECTIONS
 * (default 10), RUNS serial in-process calls (default 300), PLAN=1 prints whole plans.
 *
 * Data: the aggregates the `dashboards` handler keeps for SCALE loads booked, expired or left
 * open over the last two years (Riyadh days): one shipper with BIG loads, the rest over 2,000
 * shippers; 200 carriers; lanes between the 200 first reference cities. The handler's rows are
 * sums, so they are built here with the same sums in SQL from a generated table of loads (one
 * GROUP BY per aggregate table) — the handler's correctness is the tests' concern
 * (apps/server/test/dashboards.test.ts), its read path is this bench's. The dashboards never read
 * the loads table, so the bench does not fill it.
 *
 * Scenarios: GET /dashboard for a random account (half the time the big shipper, else a random
 * shipper or carrier) and a random period (week, month, year). No result cache exists: every call
 * reads the database. Figures: server p50/p95 (the service call the route makes, serial, random
 * accounts and periods), HTTP p50/p95 and req/s at 1 and CONNECTIONS connections (the big
 * shipper's token, random periods), then the EXPLAIN (ANALYZE, BUFFERS) of the main statements,
 * custom and generic plans (prepared statements switch after five executions).
 * Prints figures; never asserts timings.
 */
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { openDatabase, type Database, type DbOrTx } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { loadReferenceData } from '../apps/server/src/db/seed/reference.ts';
import * as repo from '../apps/server/src/modules/dashboards/dashboards.repository.ts';
import { periodRange } from '../apps/server/src/modules/dashboards/dashboards.service.ts';
import type { DashboardPeriod } from '@masar/shared';
import { benchServer, captureSql, plans, planSummary, scaleOf, withDb } from './lib.ts';

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const fmt = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '–');
const uid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;

const LOADS = scaleOf(process.env.SCALE ?? '1m');
const BIG = scaleOf(process.env.BIG ?? '100k');
if (!LOADS || !BIG || BIG > LOADS) throw new Error('SCALE and BIG take 10k, 100k, 1m or a number (BIG ≤ SCALE)');
const SHIPPERS = 2000;
const CARRIERS = 200;
const BIG_SHIPPER = uid(1);
const shipperId = (i: number) => uid(10_000 + i);
const carrierId = (i: number) => uid(50_000 + i);

/** The aggregates of LOADS generated loads, as the handler would have summed them. */
async function seed(database: Database) {
  // the lanes are between reference cities (their names are read for the lanes shown)
  await loadReferenceData(database.db);
  await database.query(
    `insert into users (id, account_type, first_name, last_name, company_name, email, phone, password_hash, status, is_first_time_approved)
     values ($1, 1, 'Bench', 'Shipper', 'Bench Shipping', 'big@bench.masar.sa', '+966500900001', 'x', 2, true) on conflict do nothing`,
    [BIG_SHIPPER],
  );
  // g ≤ BIG: the big shipper's; else one of SHIPPERS. 70% booked (to one of CARRIERS), 10% expired, 10% open, 10% unposted/cancelled.
  await database.exec(`
    drop table if exists bench_cities;
    create table bench_cities as select (row_number() over (order by id) - 1)::int as idx, id from (select id from cities order by id limit 200) c;
    drop table if exists bench_loads;
    create unlogged table bench_loads as
    select case when g <= ${BIG} then '${BIG_SHIPPER}'::uuid
                else ('00000000-0000-7000-8000-' || lpad((10000 + g % ${SHIPPERS})::text, 12, '0'))::uuid end as shipper,
           ('00000000-0000-7000-8000-' || lpad((50000 + abs(hashint8(g * 5 + 1)) % ${CARRIERS})::text, 12, '0'))::uuid as carrier,
           (timezone('Asia/Riyadh', now())::date - (abs(hashint8(g * 7 + 2)) % 730)::int) as day,
           o.id as origin, d.id as destination,
           (1000 + abs(hashint8(g * 11 + 3)) % 8000)::numeric(12, 2) as price,
           (50 + abs(hashint8(g * 13 + 4)) % 1400)::numeric(10, 1) as km,
           (abs(hashint8(g * 17 + 5)) % 6)::int as offers,
           abs(hashint8(g * 19 + 6)) % 10 as k
    from generate_series(1, ${LOADS}) g
    join bench_cities o on o.idx = abs(hashint8(g * 23 + 7)) % 40
    join bench_cities d on d.idx = abs(hashint8(g * 29 + 8)) % 200;`);
  log('  loads generated; summing the aggregates…');
  await database.exec(`
    insert into dashboard_daily (account_id, day, loads_posted, loads_assigned, loads_expired, open_delta, offers_received, spend_sar,
                                 pickups_measured, pickups_on_time, deliveries_measured, deliveries_on_time)
    select shipper, day, count(*) filter (where k < 9), count(*) filter (where k < 7), count(*) filter (where k = 7), count(*) filter (where k = 8),
           coalesce(sum(offers) filter (where k < 9), 0), coalesce(sum(price) filter (where k < 7), 0),
           count(*) filter (where k < 6), count(*) filter (where k < 5), count(*) filter (where k < 6), count(*) filter (where k < 4)
    from bench_loads group by shipper, day;
    insert into dashboard_daily (account_id, day, offers_made, won, lost, revenue_sar, revenue_km)
    select carrier, day, coalesce(sum(offers) filter (where k < 9), 0) / 3, count(*) filter (where k < 7), count(*) filter (where k between 7 and 8), coalesce(sum(price) filter (where k < 7), 0), coalesce(sum(km) filter (where k < 7), 0)
    from bench_loads group by carrier, day;
    insert into dashboard_open (account_id, loads_open) select shipper, count(*) filter (where k = 8 and day > timezone('Asia/Riyadh', now())::date - 30) from bench_loads group by shipper;
    insert into dashboard_lane_days (account_id, side, day, origin_city_id, destination_city_id, loads, value_sar, km)
    select shipper, 'shipper', day, origin, destination, count(*), sum(price), sum(km) from bench_loads where k < 7 group by 1, 3, 4, 5;
    insert into dashboard_lane_days (account_id, side, day, origin_city_id, destination_city_id, loads, value_sar, km)
    select carrier, 'carrier', day, origin, destination, count(*), sum(price), sum(km) from bench_loads where k < 7 group by 1, 3, 4, 5;
    insert into dashboard_lane_months (account_id, side, month, origin_city_id, destination_city_id, loads, value_sar, km)
    select account_id, side, date_trunc('month', day)::date, origin_city_id, destination_city_id, sum(loads), sum(value_sar), sum(km)
    from dashboard_lane_days group by 1, 2, 3, 4, 5;
    insert into dashboard_lane_years (account_id, side, year, origin_city_id, destination_city_id, loads, value_sar, km)
    select account_id, side, date_trunc('year', month)::date, origin_city_id, destination_city_id, sum(loads), sum(value_sar), sum(km)
    from dashboard_lane_months group by 1, 2, 3, 4, 5;
    drop table bench_loads;
    drop table bench_cities;
    create table if not exists bench_meta (n integer);
    delete from bench_meta;
    insert into bench_meta values (${LOADS});`);
  for (const t of ['dashboard_daily', 'dashboard_open', 'dashboard_lane_days', 'dashboard_lane_months', 'dashboard_lane_years'])
    await database.exec(`vacuum analyze ${t}`);
}

async function openBench(): Promise<{ database: Database; cleanup: () => Promise<void>; seedS: number }> {
  const name = `masar_bench_dashboards_${LOADS}`;
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
    return { database, cleanup, seedS: NaN };
  }
  const t0 = performance.now();
  log(`seeding the aggregates of ${LOADS.toLocaleString('en')} loads (${BIG.toLocaleString('en')} of one shipper)…`);
  await seed(database);
  return { database, cleanup, seedS: (performance.now() - t0) / 1000 };
}

const PERIODS: DashboardPeriod[] = ['week', 'month', 'year'];
const rnd = <T>(a: readonly T[]) => a[Math.floor(Math.random() * a.length)];

async function main() {
  const { database, cleanup, seedS } = await openBench();
  try {
    const { app, origin, token } = await benchServer(database, BIG_SHIPPER);
    const svc = app.container.services.dashboards;
    /** An account and whether it is a carrier (the route reads only the sides its type can have). */
    const account = (): [string, boolean] =>
      Math.random() < 0.5
        ? [BIG_SHIPPER, false]
        : Math.random() < 0.5
          ? [shipperId(Math.floor(Math.random() * SHIPPERS)), false]
          : [carrierId(Math.floor(Math.random() * CARRIERS)), true];

    const runs = Number(process.env.RUNS ?? 300);
    const duration = Number(process.env.DURATION ?? 10);
    const connections = Number(process.env.CONNECTIONS ?? 10);
    const serial = async (who: () => [string, boolean]) => {
      const t: number[] = [];
      for (let i = 0; i < runs; i++) {
        const [[a, carrier], p] = [who(), rnd(PERIODS)];
        const t0 = performance.now();
        await svc.dashboard(a, p, Math.random() < 0.5 ? 'ar' : 'en', { shipper: !carrier, carrier });
        t.push(performance.now() - t0);
      }
      return t.sort((x, y) => x - y);
    };
    const big = await serial(() => [BIG_SHIPPER, false]);
    const mixed = await serial(account);
    const paths = Array.from({ length: 2000 }, () => `/api/v1/dashboard?period=${rnd(PERIODS)}`);
    const hammer = (c: number) =>
      new Promise<{ latencies: number[]; non2xx: number; errors: number }>((resolve, reject) => {
        const w = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: { url: origin, paths, token, connections: c, duration } });
        w.once('message', resolve);
        w.once('error', reject);
      });
    log(`serial runs done; HTTP 1 connection, then ${connections}, ${duration} s each…`);
    const one = await hammer(1);
    const many = await hammer(connections);
    await app.close();
    const l1 = one.latencies.sort((a, b) => a - b);
    const ln = many.latencies.sort((a, b) => a - b);

    const r = periodRange('year');
    const m = periodRange('month');
    const w = periodRange('week');
    const statements: [string, (db: DbOrTx) => Promise<unknown>][] = [
      ['daily sums (year + previous year)', (db) => repo.dailySums(db, BIG_SHIPPER, r)],
      ['spend by lane (year table)', (db) => repo.lanes(db, BIG_SHIPPER, 'shipper', { table: 'years', from: r.from, to: r.from }, 'value', 10)],
      ['spend by lane (month table)', (db) => repo.lanes(db, BIG_SHIPPER, 'shipper', { table: 'months', from: m.from, to: m.from }, 'value', 10)],
      ['spend by lane (week, day table)', (db) => repo.lanes(db, BIG_SHIPPER, 'shipper', { table: 'days', from: w.from, to: w.to }, 'value', 10)],
      ['revenue per month (year)', (db) => repo.revenueSeries(db, carrierId(1), r.from, r.to, 'month')],
      ['rate trend (12 months)', (db) => repo.carrierMonths(db, carrierId(1), m.previousFrom, r.to)],
    ];
    const planLines: string[] = [];
    for (const [label, fn] of statements) {
      const [stmt] = await captureSql(fn, []);
      if (!stmt) continue;
      const p = await plans(database, stmt);
      planLines.push(`  ${label}\n    custom:  ${planSummary(p.custom)}\n    generic: ${planSummary(p.generic)}`);
      if (process.env.PLAN) log(`\n=== ${label} (custom) ===\n${p.custom}\n=== ${label} (generic) ===\n${p.generic}`);
    }
    const [sizes] = await database.query<Record<string, string>>(
      `select (select count(*) from dashboard_daily)::text as daily, (select count(*) from dashboard_lane_days)::text as lane_days,
              (select count(*) from dashboard_lane_months)::text as lane_months, (select count(*) from dashboard_lane_years)::text as lane_years`,
    );

    console.log(
      `\nDashboards on PostgreSQL: aggregates of ${LOADS.toLocaleString('en')} loads over two years, one shipper with ${BIG.toLocaleString('en')}` +
        ` (seed ${Number.isFinite(seedS) ? `${fmt(seedS, 0)} s` : 'reused'}; rows: daily ${sizes.daily}, lane days ${sizes.lane_days}, lane months ${sizes.lane_months}, lane years ${sizes.lane_years})`,
    );
    console.log('| measure | p50 ms | p95 ms | req/s |');
    console.log('|---|---|---|---|');
    console.log(`| server, GET /dashboard service call, the big shipper, random period (${runs} serial) | ${fmt(pct(big, 50))} | ${fmt(pct(big, 95))} | |`);
    console.log(`| server, random account (half the big shipper) and period (${runs} serial) | ${fmt(pct(mixed, 50))} | ${fmt(pct(mixed, 95))} | |`);
    console.log(
      `| HTTP GET /dashboard, big shipper, random period, 1 connection | ${fmt(pct(l1, 50))} | ${fmt(pct(l1, 95))} | ${fmt(l1.length / duration, 0)} |`,
    );
    console.log(`| HTTP GET /dashboard, ${connections} connections | ${fmt(pct(ln, 50))} | ${fmt(pct(ln, 95))} | ${fmt(ln.length / duration, 0)} |`);
    console.log(`non-2xx/errors: ${one.non2xx + one.errors + many.non2xx + many.errors}`);
    console.log('\nPlans (EXPLAIN ANALYZE, BUFFERS; custom = production, generic = after 5 executions):');
    console.log(planLines.join('\n'));
  } finally {
    await cleanup();
  }
}

await main();
