/**
 * The load board for a viewer with blocks (issue 8): `npm run bench:blocks` (N=<loads>, default
 * 200,000; RUNS serial repetitions, default 200). PostgreSQL only (BENCH_DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/test), database masar_bench_blocks, dropped afterwards.
 *
 * Data: N loads over 60 real cities (Riyadh, Jeddah and Dammam weighted up), 15 equipment types,
 * 80% open, one stop each end and one cargo line; 201 shippers: one "big" shipper with half of
 * the loads, 200 sharing the other half. The viewer is a carrier blocked by 5 shippers, in two
 * cases: 5 small shippers (~1% of the board hidden) and the big one plus 4 small (~50% hidden).
 *
 * For each search (unfiltered board, radius 200 km around Riyadh + flatbed + 7 days, radius
 * 1,000 km around Riyadh; newest 20): SQL p50/p95 of searchBoard (the repository code GET /loads
 * runs, prepared like production) without blocks (the unchanged statement) and with each set;
 * the hidden-set read (two index reads) p50/p95; and the plan of the 7th execution of the
 * prepared statement with blocks. Prints figures; never asserts timings.
 */
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import { FILL_ALL_LOAD_CARDS } from '../apps/server/src/db/load-cards.ts';
import { loadReferenceData } from '../apps/server/src/db/seed/reference.ts';
import { boardCircles, boardSearchSql, searchBoard, type BoardQuery } from '../apps/server/src/modules/loads/board.repository.ts';
import { hiddenIds } from '../apps/server/src/modules/relations/relations.repository.ts';
import { preparedName } from '../apps/server/src/lib/sql.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { freshDatabase } from './lib.ts';

const N = Number(process.env.N ?? 200_000);
const RUNS = Number(process.env.RUNS ?? 200);
const log = (s: string) => process.stderr.write(`${s}\n`);
const uid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const BIG = uid(1);
const VIEWER = uid(2);
const SMALL = Array.from({ length: 200 }, (_, i) => uid(100 + i));
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

async function seed(database: Database) {
  await loadReferenceData(database.db);
  for (const [i, id] of [BIG, VIEWER, ...SMALL].entries())
    await database.query(
      `insert into users (id, account_type, first_name, last_name, company_name, email, phone, password_hash, status, is_first_time_approved)
       values ($1, $2, 'Bench', 'User', $3, $4, $5, 'x', 2, true)`,
      [id, id === VIEWER ? 2 : 1, `Bench Freight ${i}`, `blocks${i}@masar.sa`, `+9665008${String(i).padStart(5, '0')}`],
    );
  await database.exec(`create table bench_cities as
      select (row_number() over (order by c.id, k) - 1)::int as idx, c.id, c.lat, c.lng
      from (select * from cities order by id limit 60) c
      cross join lateral generate_series(1, case c.id when 3 then 40 when 18 then 30 when 13 then 20 else 1 end) k;
    create index on bench_cities (idx);`);
  const [{ w }] = await database.query<{ w: number }>('select count(*)::int as w from bench_cities');
  const eq = `(array[${EQUIPMENT.map((e) => `'${e}'`).join(',')}])`;
  await database.exec(`
    insert into loads (id, reference_id, shipper_id, status, load_type, equipment_type, price, distance_km, rate_per_km, total_weight_kg,
      pickup_city_id, pickup_lat, pickup_lng, pickup_at, drop_city_id, drop_lat, drop_lng, drop_at, posted_at, expires_at, created_at)
    select gen_random_uuid(), 'BB-' || g,
      case when g % 2 = 0 then '${BIG}'::uuid else ('00000000-0000-7000-8000-' || lpad((100 + (g / 2) % 200)::text, 12, '0'))::uuid end,
      case when x.h < 80 then 'posted' else 'unposted' end, 'FTL',
      ${eq}[1 + abs(hashint8(g * 3 + 1)) % ${EQUIPMENT.length}], d.price, d.km, round(d.price / d.km, 2), 20000,
      pc.id, pc.lat, pc.lng, d.pickup_at, dc.id, dc.lat, dc.lng, d.pickup_at + interval '1 day',
      case when x.h < 80 then least(now(), d.pickup_at) - (abs(hashint8(g * 5 + 2)) % 14400) * interval '1 minute' end,
      d.pickup_at + interval '24 hours', now() - interval '11 days'
    from generate_series(1::bigint, ${N}::bigint) g
    cross join lateral (select abs(hashint8(g * 7 + 3)) % 100 as h) x
    join bench_cities pc on pc.idx = abs(hashint8(g)) % ${w}
    join bench_cities dc on dc.idx = abs(hashint8(g * 11 + 5)) % ${w}
    cross join lateral (select greatest(50, round((earth_distance(ll_to_earth(pc.lat, pc.lng), ll_to_earth(dc.lat, dc.lng)) / 1000 * 1.2)::numeric, 1)) as km,
                               now() - interval '20 hours' + (abs(hashint8(g * 13 + 4)) % 44000) * interval '1 minute' as pickup_at,
                               (800 + abs(hashint8(g * 17 + 6)) % 9000)::numeric as price) d;
    insert into load_stops (id, load_id, idx, stop_type, city_id, lat, lng, date)
      select gen_random_uuid(), l.id, 0, 1, l.pickup_city_id, l.pickup_lat, l.pickup_lng, l.pickup_at from loads l;
    insert into load_stops (id, load_id, idx, stop_type, city_id, lat, lng, date)
      select gen_random_uuid(), l.id, 1, 2, l.drop_city_id, l.drop_lat, l.drop_lng, l.drop_at from loads l;
    insert into cargo_lines (id, load_id, idx, goods_type, length_cm, width_cm, height_cm, quantity, weight_per_item_kg)
      select gen_random_uuid(), l.id, 0, 'general_cargo', 120, 100, 150, 20, 1000 from loads l;
    drop table bench_cities;`);
  // the board cards (issue 45), set-based
  await database.exec(FILL_ALL_LOAD_CARDS);
  for (const t of ['loads', 'load_stops', 'cargo_lines', 'load_cards', 'cities', 'users']) await database.exec(`vacuum analyze ${t}`);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
async function time(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 10; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return { p50: pct(xs, 50), p95: pct(xs, 95) };
}

/** EXPLAIN ANALYZE of the named prepared statement's 7th execution in one pooled session (the plan production runs). */
async function plan7(database: Database, q: BoardQuery, hidden: string[]): Promise<string> {
  const { sql: text, params } = new PgDialect().sqlToQuery(boardSearchSql(q, hidden, await boardCircles(database.db, q)));
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  try {
    const name = preparedName('board', text);
    for (let i = 0; i < 6; i++) await client.query({ name, text, values: params });
    const args = params.map((v) => (v == null ? 'null' : client.escapeLiteral(String(v as string | number)))).join(', ');
    const r = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off) execute ${name}(${args})`);
    return r.rows.map((x) => x['QUERY PLAN']).join('\n');
  } finally {
    client.release();
  }
}

/** One line: the index paths a plan takes on loads, the shipper filter, and its execution time. */
function summary(plan: string): string {
  const paths = [...plan.matchAll(/(Index Only Scan|Index Scan|Bitmap Heap Scan|Seq Scan)(?: Backward)? (?:using (\S+) )?on loads/g)]
    .map((m) => `${m[1]}${m[2] ? ` ${m[2]}` : ''}`)
    .filter((v, i, a) => a.indexOf(v) === i);
  const heap = [...plan.matchAll(/Heap Fetches: (\d+)/g)].map((m) => m[1]);
  return `${paths.join('; ')}${heap.length ? `; heap fetches ${heap.join('/')}` : ''}; ${/Execution Time: ([\d.]+)/.exec(plan)?.[1]} ms`;
}

async function main() {
  const { database, drop } = await freshDatabase('postgres', 'masar_bench_blocks');
  try {
    log(`seeding ${N.toLocaleString('en')} loads…`);
    const t0 = performance.now();
    await seed(database);
    log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const db = database.db;
    const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
    const searches: [string, BoardQuery][] = [
      ['board', { sort: 'newest', limit: 20, skip: 0 }],
      [
        'radius',
        { pickupCityId: 3, radius: 200, equipmentType: 'flatbed_trailer', pickupFrom: days(0), pickupTo: days(7), sort: 'newest', limit: 20, skip: 0 },
      ],
      ['wide', { pickupCityId: 3, radius: 1000, sort: 'newest', limit: 20, skip: 0 }],
    ];
    const setBlocks = async (blockers: string[]) => {
      await database.exec('delete from user_blocks');
      for (const b of blockers) await database.query('insert into user_blocks (blocker_id, blocked_id) values ($1, $2)', [b, VIEWER]);
      return hiddenIds(db, VIEWER);
    };
    const cases: [string, string[]][] = [
      ['none', []],
      ['5 small', SMALL.slice(0, 5)],
      ['big + 4 small', [BIG, ...SMALL.slice(0, 4)]],
    ];
    const rows: string[] = [];
    let plan = '';
    const summaries: string[] = [];
    for (const [label, blockers] of cases) {
      const hidden = await setBlocks(blockers);
      const h = await time(() => hiddenIds(db, VIEWER));
      for (const [key, q] of searches) {
        const first = await searchBoard(db, { ...q, count: true }, VIEWER, hidden);
        if (first.items.some((l) => hidden.includes(l.shipperId))) throw new Error('a hidden load was returned');
        const r = await time(() => searchBoard(db, q, VIEWER, hidden));
        rows.push(
          `| ${label.padEnd(13)} | ${key.padEnd(6)} | ${String(first.total).padStart(6)} | ${r.p50.toFixed(2)} / ${r.p95.toFixed(2)} | ${h.p50.toFixed(2)} / ${h.p95.toFixed(2)} |`,
        );
        if (key === 'radius') {
          const p = await plan7(database, q, hidden);
          summaries.push(`  ${label}: ${summary(p)}`);
          if (label === '5 small') plan = p;
        }
      }
    }
    console.log(`\nLoad board with blocks, ${N.toLocaleString('en')} loads on PostgreSQL (${RUNS} serial runs of searchBoard, prepared)`);
    console.log('| blocks        | search | total  | SQL p50/p95 ms | hidden set p50/p95 ms |');
    console.log('|---------------|--------|--------|----------------|-----------------------|');
    for (const r of rows) console.log(r);
    console.log('\nRadius search, 7th execution: access paths on loads and execution time');
    for (const x of summaries) console.log(x);
    console.log('\nPlan of the 7th execution (5 small shippers hidden, radius search):\n' + plan);
  } finally {
    await drop();
  }
}

await main();
