/**
 * Load-board radius search benchmark (issue 2, DESIGN §6): `npm run bench:search`.
 *
 * Env: N open loads to seed (default 100000; 1000000 works on PostgreSQL), ENGINE
 * pglite|postgres|both (default both when PostgreSQL is reachable at BENCH_DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/test, else pglite), DURATION seconds of HTTP load
 * (default 10), CONNECTIONS (default 10), RUNS raw SQL repetitions (default 200), PLAN=1 to
 * print the EXPLAIN ANALYZE plan, KEEP_DB=1 to keep the PostgreSQL database masar_bench.
 *
 * Each engine gets a fresh database (PostgreSQL: database masar_bench, dropped and recreated;
 * PGlite: a temp dir), migrations, reference data, N open loads spread over real Saudi cities
 * (weighted to the big hubs) with stops and cargo, bulk-inserted by INSERT … SELECT over
 * generate_series, then VACUUM ANALYZE. Measured query: 200 km around Riyadh + one equipment
 * type + 7-day pickup window, newest 20 — through the same repository function the API uses.
 * Prints figures; never asserts timings.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { loadReferenceData } from '../apps/server/src/db/seed/reference.ts';
import { boardSearchSql, type BoardQuery } from '../apps/server/src/modules/loads/loads.repository.ts';
import { queryRows } from '../apps/server/src/lib/sql.ts';
import { enginesToRun, pgUrl } from './lib.ts';

interface LoadJob {
  url: string;
  token: string;
  connections: number;
  duration: number;
}
interface LoadResult {
  latencies: number[];
  total: number;
  non2xx: number;
  errors: number;
  seconds: number;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const fmt = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '–');

/** Hubs and their weight in the generated traffic; every other city counts 1. */
const HUB_WEIGHTS: Record<number, number> = {
  3: 600,
  18: 450,
  13: 300,
  6: 120,
  14: 120,
  1061: 60,
  31: 80,
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
const EQUIPMENT = ['flatbed_trailer', 'curtain_trailer', 'box_trailer', 'reefer_trailer', 'sided_trailer', 'lorry', 'dyna', 'tanker'];

async function seed(database: Database, n: number) {
  await migrate(database);
  await loadReferenceData(database.db);
  const shipper = '00000000-0000-7000-8000-000000000001';
  await database.query(
    `insert into users (id, account_type, first_name, last_name, company_name, email, phone, password_hash, status, is_first_time_approved)
     values ($1, 1, 'Bench', 'Shipper', 'Bench Freight Co', 'bench@masar.sa', '+966500009999', 'x', 2, true) on conflict do nothing`,
    [shipper],
  );
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
  const batch = 100_000;
  for (let start = 1; start <= n; start += batch) {
    const end = Math.min(n, start + batch - 1);
    // pickups spread over the next 30 days; expiry 24 h after pickup; newest posted first
    await database.exec(`
      insert into loads (id, reference_id, shipper_id, status, load_type, equipment_type, price, distance_km, rate_per_km, total_weight_kg,
        pickup_city_id, pickup_lat, pickup_lng, pickup_at, drop_city_id, drop_lat, drop_lng, drop_at, posted_at, expires_at)
      select gen_random_uuid(), 'BX-' || g, '${shipper}', 'posted', case when g % 10 = 0 then 'LTL' else 'FTL' end,
        ${eq}[(1 + (g * 7) % ${EQUIPMENT.length})::int], d.price, d.km, round(d.price / d.km, 2), 20000,
        pc.id, pc.lat, pc.lng, d.pickup_at, dc.id, dc.lat, dc.lng, d.pickup_at + interval '1 day',
        now() - ((g * 37) % 20000) * interval '1 minute', d.pickup_at + interval '24 hours'
      from generate_series(${start}::bigint, ${end}::bigint) g
      join bench_cities pc on pc.idx = (g * 7919) % ${w}
      join bench_cities dc on dc.idx = (g * 104729 + 13) % ${w}
      cross join lateral (select greatest(50, round((earth_distance(ll_to_earth(pc.lat, pc.lng), ll_to_earth(dc.lat, dc.lng)) / 1000 * 1.2)::numeric, 1)) as km,
                                 now() + interval '2 hours' + ((g * 31) % 720) * interval '1 hour' as pickup_at,
                                 (800 + (g * 13) % 9000)::numeric as price) d;`);
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
  await database.exec('vacuum analyze loads');
  await database.exec('vacuum analyze load_stops');
  await database.exec('vacuum analyze cargo_lines');
  await database.exec('analyze cities');
}

interface Row {
  engine: string;
  n: number;
  seedS: number;
  matches: number;
  explainMs: number;
  rawP50: number;
  rawP95: number;
  httpP50: number;
  httpP95: number;
  rps: number;
  manyP50: number;
  manyP95: number;
  connections: number;
  non2xx: number;
}

async function benchEngine(engine: 'pglite' | 'postgres', n: number, pgUrl: string): Promise<Row> {
  let database: Database;
  let cleanup: () => Promise<void>;
  const dataDir = mkdtempSync(join(tmpdir(), 'masar-bench-'));
  if (engine === 'postgres') {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query('drop database if exists masar_bench with (force)');
    await admin.query('create database masar_bench');
    await admin.end();
    const u = new URL(pgUrl);
    u.pathname = '/masar_bench';
    const su = new pg.Client({ connectionString: u.toString() });
    await su.connect();
    // earthdistance needs a superuser (STACK.md gotcha 5)
    await su.query('create extension if not exists cube; create extension if not exists earthdistance;');
    await su.end();
    database = await openDatabase({ databaseUrl: u.toString(), poolMax: 10 });
    cleanup = async () => {
      await database.close();
      if (process.env.KEEP_DB) return;
      const a = new pg.Client({ connectionString: pgUrl });
      await a.connect();
      await a.query('drop database if exists masar_bench with (force)');
      await a.end();
    };
  } else {
    database = await openDatabase({ dataDir });
    cleanup = async () => database.close();
  }
  try {
    log(`[${engine}] seeding ${n.toLocaleString('en')} loads…`);
    const t0 = performance.now();
    await seed(database, n);
    const seedS = (performance.now() - t0) / 1000;
    log(`[${engine}] seeded in ${fmt(seedS, 1)} s`);

    const q: BoardQuery = {
      pickupCityId: 3,
      radius: 200,
      equipmentType: 'flatbed_trailer',
      pickupFrom: new Date().toISOString(),
      pickupTo: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      sort: 'newest',
      limit: 20,
      skip: 0,
    };
    const query = boardSearchSql(q);
    const first = await queryRows<{ total: string }>(database.db, query, 'board');
    const matches = first.length ? Number(first[0].total) : 0;

    const { PgDialect } = await import('drizzle-orm/pg-core');
    const text = new PgDialect().sqlToQuery(query);
    const plan = await database.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text.sql}`, text.params);
    const planText = plan.map((r) => r['QUERY PLAN']).join('\n');
    const explainMs = Number(/Execution Time: ([\d.]+)/.exec(planText)?.[1] ?? NaN);
    if (process.env.PLAN) log(planText);
    log(
      `[${engine}] plan: ${/cities_earth_gist/.test(planText) ? 'cities GiST' : 'NO cities GiST'}, ${/Index Only Scan using loads_board_(equipment|city)/.exec(planText)?.[0].replace('Index Only Scan using ', 'index-only ') ?? 'NOT index-only on loads'}${/Seq Scan on loads/.test(planText) ? ', SEQ SCAN on loads' : ''}`,
    );

    const runs = Number(process.env.RUNS ?? 200);
    for (let i = 0; i < 20; i++) await queryRows(database.db, query, 'board');
    const raw: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      await queryRows(database.db, query, 'board');
      raw.push(performance.now() - s);
    }
    raw.sort((a, b) => a - b);

    const config = loadConfig(
      {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DEMO_SEED: '0',
        BENCH: '1',
        DATA_DIR: dataDir,
        WEB_DIST: '/nonexistent',
        DATABASE_URL: '',
      },
      { jwtSecret: 'bench-secret-bench-secret-bench-secret-0123' },
    );
    const app = await buildApp({ config, database, logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as { port: number }).port;
    const base = `http://127.0.0.1:${port}/api/v1`;
    const guest = await fetch(`${base}/guest/signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'bench', deviceType: 3 }),
    });
    const token = ((await guest.json()) as { data: { token: { accessToken: string } } }).data.token.accessToken;
    const params = new URLSearchParams({
      pickupCityId: '3',
      radius: '200',
      equipmentType: q.equipmentType!,
      pickupFrom: q.pickupFrom!,
      pickupTo: q.pickupTo!,
      limit: '20',
    });
    const url = `${base}/loads?${params.toString()}`;
    const check = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (check.status !== 200) throw new Error(`GET /loads answered ${check.status}: ${await check.text()}`);
    const duration = Number(process.env.DURATION ?? 10);
    const connections = Number(process.env.CONNECTIONS ?? 10);
    const hammer = (c: number) =>
      new Promise<LoadResult>((resolve, reject) => {
        const w = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: { url, token, connections: c, duration } satisfies LoadJob });
        w.once('message', resolve);
        w.once('error', reject);
      });
    // latency with one client (comparable to the serial SQL timing), throughput with many
    log(`[${engine}] HTTP: 1 connection for ${duration} s…`);
    const one = await hammer(1);
    log(`[${engine}] HTTP: ${connections} connections for ${duration} s…`);
    const many = await hammer(connections);
    await app.close();
    const lat = one.latencies.sort((a, b) => a - b);
    const latMany = many.latencies.sort((a, b) => a - b);
    return {
      engine,
      n,
      seedS,
      matches,
      explainMs,
      rawP50: pct(raw, 50),
      rawP95: pct(raw, 95),
      httpP50: pct(lat, 50),
      httpP95: pct(lat, 95),
      rps: many.latencies.length / duration,
      manyP50: pct(latMany, 50),
      manyP95: pct(latMany, 95),
      connections,
      non2xx: one.non2xx + one.errors + many.non2xx + many.errors,
    };
  } finally {
    await cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function log(s: string) {
  process.stderr.write(`${s}\n`);
}

async function main() {
  const n = Number(process.env.N ?? 100_000);
  const engines = (await enginesToRun()).reverse(); // PostgreSQL first
  const rows: Row[] = [];
  for (const e of engines) rows.push(await benchEngine(e, n, pgUrl));
  const c = rows[0]?.connections ?? 10;
  const head = [
    'engine',
    'loads',
    'seed s',
    'matches',
    'EXPLAIN exec ms',
    'SQL p50 ms',
    'SQL p95 ms',
    'HTTP p50 ms',
    'HTTP p95 ms',
    'HTTP/SQL p50',
    `req/s (${c} conn)`,
    `p50/p95 ms (${c} conn)`,
    'non-2xx',
  ];
  const body = rows.map((r) => [
    r.engine,
    r.n.toLocaleString('en'),
    fmt(r.seedS, 1),
    String(r.matches),
    fmt(r.explainMs),
    fmt(r.rawP50),
    fmt(r.rawP95),
    fmt(r.httpP50),
    fmt(r.httpP95),
    `${fmt(r.httpP50 / r.rawP50, 1)}×`,
    fmt(r.rps, 0),
    `${fmt(r.manyP50, 0)} / ${fmt(r.manyP95, 0)}`,
    String(r.non2xx),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(
    `\nRadius search: 200 km around Riyadh + flatbed_trailer + 7-day pickup window, newest 20 (SQL: ${process.env.RUNS ?? 200} serial runs of the repository query; HTTP: autocannon with a guest token, 1 connection for latency, then ${c} for throughput)`,
  );
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
}

await main();
