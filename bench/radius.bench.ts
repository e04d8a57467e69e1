/**
 * The board's radius searches on a cache miss, randomised (issue 24): `npm run bench:radius`.
 *
 * PostgreSQL (default): uses a database seeded by bench/search.bench.ts (`KEEP_DB=1 npm run
 * bench:search -- --scale 1m` leaves `masar_bench_1000000`; BENCH_DB_NAME names another, e.g.
 * the one `KEEP_DB=1 npm run bench:trucks` leaves), migrated to the current schema first.
 * ENGINE=pglite: the embedded default, seeded in memory with SCALE loads (default 100k) by the
 * same seed as bench:search.
 *
 * Every search draws its pickup city (weighted like the seeded traffic: the hubs above the rest),
 * radius (50, 100, 200, 300 or 400 km: below the wide path), equipment (none half the time, else
 * one of the 15), a pickup window (a third of the time: from today for 3–14 days) and sort (the
 * five), so no two consecutive searches share a statement's values and no result cache helps (the
 * repository is called directly; the board cache sits above it). Each runs as production runs it:
 * the named prepared statement on the app's pool (plan_cache_mode as db/client.ts sets it).
 *
 * Prints server time p50/p95/p99/max overall and per sort × with/without equipment, then the
 * EXPLAIN (ANALYZE, BUFFERS) summary of the five slowest searches (rows and buffers read: the
 * measure that does not depend on a noisy machine). N searches (default 600). Never asserts.
 */
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { boardCircles, boardPathOf, boardSearchSql, searchBoard, type BoardQuery } from '../apps/server/src/modules/loads/board.repository.ts';
import { prng } from '../apps/server/src/seed/prng.ts';
import { EQUIPMENT, HUB_WEIGHTS, seed as seedLoads } from './search.bench.ts';
import { pgUrl, planSummary, plans, withDb } from './lib.ts';

const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');
const SORTS: BoardQuery['sort'][] = ['newest', 'pickup', 'price', 'ratePerKm', 'deadhead'];
const RADII = [50, 100, 200, 300, 400];

async function main() {
  const pglite = process.env.ENGINE === 'pglite';
  const name = pglite ? 'PGlite (memory)' : (process.env.BENCH_DB_NAME ?? 'masar_bench_1000000');
  const n = Number(process.env.N ?? 600);
  const database = pglite ? await openDatabase({ dataDir: 'memory://' }) : await openDatabase({ databaseUrl: withDb(pgUrl, name), poolMax: 4 });
  try {
    if (pglite) {
      const scale = Number((process.env.SCALE ?? '100000').replace(/k$/i, '000'));
      const t0 = performance.now();
      await seedLoads(database, scale);
      log(`seeded ${scale.toLocaleString('en')} loads in PGlite in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    } else await migrate(database);
    const open = await database.query<{ n: number }>(`select count(*)::int as n from loads where status = 'posted' and expires_at > now()`);
    const cities = await database.query<{ id: number }>(`select distinct pickup_city_id as id from loads where status = 'posted'`);
    const weighted: number[] = [];
    for (const { id } of cities) for (let i = 0; i < (HUB_WEIGHTS[id] ?? 1); i++) weighted.push(id);
    const rand = prng(Number(process.env.SEED ?? 24));
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const day = 86_400_000;
    const queries: BoardQuery[] = Array.from({ length: n }, () => {
      const from = rand() < 1 / 3 ? new Date(Date.now()) : null;
      return {
        pickupCityId: pick(weighted),
        radius: pick(RADII),
        equipmentType: rand() < 0.5 ? undefined : pick(EQUIPMENT),
        pickupFrom: from?.toISOString(),
        pickupTo: from ? new Date(from.getTime() + (3 + Math.floor(rand() * 12)) * day).toISOString() : undefined,
        sort: pick(SORTS),
        limit: 25,
        skip: 0,
      };
    });
    // warm the connections and the catalogue, not the data: 20 searches of their own
    for (const q of queries.slice(0, 20)) await searchBoard(database.db, { ...q, radius: 50 });
    const times: { q: BoardQuery; ms: number; items: number }[] = [];
    for (const q of queries) {
      const t0 = performance.now();
      const r = await searchBoard(database.db, q);
      times.push({ q, ms: performance.now() - t0, items: r.items.length });
    }
    const line = (label: string, xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return `| ${label} | ${s.length} | ${fmt(pct(s, 50))} | ${fmt(pct(s, 95))} | ${fmt(pct(s, 99))} | ${fmt(s[s.length - 1])} |`;
    };
    console.log(`\nRadius searches (50–400 km) on a miss, ${open[0].n.toLocaleString('en')} open loads, database ${name}, ${n} randomised searches, page 25`);
    console.log('| searches | n | p50 ms | p95 ms | p99 ms | max ms |\n| --- | ---: | ---: | ---: | ---: | ---: |');
    console.log(
      line(
        'all',
        times.map((t) => t.ms),
      ),
    );
    for (const s of SORTS)
      for (const eq of [false, true]) {
        const xs = times.filter((t) => t.q.sort === s && !!t.q.equipmentType === eq).map((t) => t.ms);
        if (xs.length) console.log(line(`${s}${eq ? ' + equipment' : ''}`, xs));
      }
    for (const r of RADII)
      console.log(
        line(
          `${r} km`,
          times.filter((t) => t.q.radius === r).map((t) => t.ms),
        ),
      );
    const slowest = [...times].sort((a, b) => b.ms - a.ms).slice(0, Number(process.env.SLOWEST ?? 5));
    if (pglite) return; // plans: PostgreSQL's prepared statements (bench/lib.ts plans)
    console.log('\nThe slowest searches, as production plans them (custom plan):');
    for (const t of slowest) {
      const circles = await boardCircles(database.db, t.q);
      const path = boardPathOf(t.q, circles.circle?.n);
      const p = await plans(database, boardSearchSql(t.q, [], { path, ...circles }));
      console.log(
        `- ${path}: ${t.q.sort}, city ${t.q.pickupCityId}, ${t.q.radius} km${t.q.equipmentType ? `, ${t.q.equipmentType}` : ''}${t.q.pickupFrom ? ', window' : ''}: ${fmt(t.ms)} ms, ${t.items} rows; ${planSummary(p.custom)}`,
      );
      if (process.env.PLAN) log(p.custom);
    }
  } finally {
    await database.close();
  }
}

await main().catch(async (e) => {
  console.error(e);
  await new pg.Pool({ connectionString: pgUrl }).end();
  process.exit(1);
});
