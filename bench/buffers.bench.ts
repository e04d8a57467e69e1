/**
 * PostgreSQL work per request through the API (issue 45): `npm run bench:buffers`.
 *
 * The server in process (benchApp: production mode, the page cache on, jobs off) over the search
 * bench's PostgreSQL seed (SCALE=100k by default, 1m for the million; reused with KEEP_DB=1,
 * BENCH_DB_NAME names another database). For each kind of request, WARM random ones first (buffers
 * and prepared statements warm), then N more, each a new one (board searches: randomDistinctSearch,
 * bench:traffic's distribution, so every one is a page-cache miss; details: a random open load
 * by id of 5,000), one at a time.
 *
 * Work is counted by the database itself: `blks_hit + blks_read` of pg_stat_database for the bench
 * database over the N requests, divided by N (buffers per request), after the server's backends
 * have flushed their statistics (PostgreSQL 15+: at most 1 s after a transaction, or at idle after
 * 10 s; the bench waits 11 s). Nothing else may use that database meanwhile. Beside it: the
 * floor, one page of the board's newest index read index-only (`explain (analyze, buffers)`).
 *
 * Prints a table: request kind, N, buffers per request, ms per request (p50 / p95; the machine is
 * shared: the buffers are the figure to compare).
 */
import pg from 'pg';
import { benchApp, percentile as pct, pgUrl, qs, scaleOf } from './lib.ts';
import { HUB_WEIGHTS, openBench, randomDistinctSearch } from './search.bench.ts';

const N = scaleOf(process.env.SCALE ?? '100k');
const WARM = Number(process.env.WARM ?? 100);
const REQUESTS = Number(process.env.REQUESTS ?? 300);
const CARRIER = '00000000-0000-7000-8000-000000000003';

async function main() {
  const { database, cleanup } = await openBench('postgres', N);
  const [{ db }] = await database.query<{ db: string }>('select current_database() as db');
  const stats = new pg.Client({ connectionString: pgUrl });
  await stats.connect();
  const blocks = async () => {
    const r = await stats.query<{ n: string }>('select (blks_hit + blks_read)::text as n from pg_stat_database where datname = $1', [db]);
    return Number(r.rows[0].n);
  };
  const settle = () => new Promise((r) => setTimeout(r, 11_000));
  const { app, tokenFor } = await benchApp(database, { JOBS: '0' });
  try {
    const token = await tokenFor(CARRIER);
    const cityIds = (await database.query<{ id: number }>('select id from cities order by id')).map((c) => Number(c.id));
    const weighted = cityIds.flatMap((id) => Array.from({ length: HUB_WEIGHTS[id] ?? 1 }, () => id));
    const openIds = (
      await database.query<{ id: string }>(`select id from loads where status = 'posted' and expires_at > now() order by random() limit 5000`)
    ).map((r) => r.id);
    const get = async (url: string) => {
      const r = await app.inject({ url, headers: { authorization: `Bearer ${token}` } });
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
    };
    const kinds: { name: string; url: () => string }[] = [
      { name: 'board miss (page only)', url: () => `/api/v1/loads?${qs(randomDistinctSearch(weighted))}` },
      { name: 'board miss with its count (?count=true)', url: () => `/api/v1/loads?${qs({ ...randomDistinctSearch(weighted), count: true })}` },
      { name: 'board count (GET /loads/count)', url: () => `/api/v1/loads/count?${qs(randomDistinctSearch(weighted))}` },
      { name: 'details (GET /loads/:id)', url: () => `/api/v1/loads/${openIds[Math.floor(Math.random() * openIds.length)]}` },
    ];
    const rows: string[] = [];
    for (const kind of kinds) {
      try {
        for (let i = 0; i < WARM; i++) await get(kind.url());
      } catch (e) {
        rows.push(`${kind.name.padEnd(42)} not served: ${(e as Error).message.slice(0, 80)}`);
        continue;
      }
      await settle();
      const before = await blocks();
      const ms: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t = performance.now();
        await get(kind.url());
        ms.push(performance.now() - t);
      }
      await settle();
      const perRequest = (await blocks()) - before;
      rows.push(
        `${kind.name.padEnd(42)} ${String(REQUESTS).padStart(5)} ${(perRequest / REQUESTS).toFixed(1).padStart(10)} ${pct(ms, 50).toFixed(2).padStart(8)} ${pct(ms, 95).toFixed(2).padStart(8)}`,
      );
    }
    const floor = await database.query<{ 'QUERY PLAN': [{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }] }>(
      `explain (analyze, buffers, format json) select id from loads where status = 'posted' and expires_at > now() and shipment_type = 1 order by posted_at desc, id desc limit 20`,
    );
    const plan = floor[0]['QUERY PLAN'][0].Plan;
    console.log(
      `\nPostgreSQL work per request through the API at ${N.toLocaleString('en')} loads (database ${db}; ${WARM} warm-up requests of each kind first)`,
    );
    console.log(`${'request'.padEnd(42)} ${'N'.padStart(5)} ${'buffers/req'.padStart(10)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
    for (const r of rows) console.log(r);
    console.log(`floor: one page of the newest board index: ${plan['Shared Hit Blocks'] + plan['Shared Read Blocks']} buffers`);
  } finally {
    await app.close();
    await stats.end();
    await cleanup();
  }
}

await main();
