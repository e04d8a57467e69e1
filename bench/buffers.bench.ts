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
 *
 * Per request and per statement (issue 45), when the server preloads pg_stat_statements
 * (`shared_preload_libraries`; the extension is created in the admin database of
 * BENCH_DATABASE_URL): the statistics of the bench database are reset before each request and
 * read after it (pg_stat_statements is updated when each statement ends, unlike pg_stat_database),
 * giving the median and p95 buffers per request (shared blocks hit + read of the request's
 * statements; their planning too with `pg_stat_statements.track_planning = on`; a new
 * connection's catalog reads not) and, per kind, every statement the requests
 * ran: calls per request, buffers per call and per request, its text. ONLY=miss,details,... runs
 * some kinds (matched against the start of their names).
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
  const statements = await perStatement(stats, db);
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
    const only = process.env.ONLY?.split(',');
    for (const kind of kinds.filter((k) => !only || only.some((o) => k.name.startsWith(o)))) {
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
      if (statements) rows.push(...(await statements(kind.name, () => get(kind.url()))));
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

/**
 * The per-request and per-statement view (pg_stat_statements), or null when the server does not
 * preload it: run(name, request) makes REQUESTS requests, each between a reset and a read of the
 * bench database's statement statistics, and returns the lines to print.
 */
async function perStatement(stats: pg.Client, db: string) {
  const preloaded = await stats.query(`select 1 from pg_settings where name = 'shared_preload_libraries' and setting like '%pg_stat_statements%'`);
  if (!preloaded.rowCount) return null;
  await stats.query('create extension if not exists pg_stat_statements');
  const [{ oid }] = (await stats.query<{ oid: number }>('select oid from pg_database where datname = $1', [db])).rows;
  const reset = () => stats.query('select pg_stat_statements_reset(0, $1, 0)', [oid]);
  const read = async () =>
    (
      await stats.query<{ query: string; calls: string; blks: string }>(
        'select query, calls::text, (shared_blks_hit + shared_blks_read)::text as blks from pg_stat_statements where dbid = $1',
        [oid],
      )
    ).rows;
  return async (name: string, request: () => Promise<void>): Promise<string[]> => {
    const perRequest: number[] = [];
    const byText = new Map<string, { calls: number; blks: number }>();
    for (let i = 0; i < REQUESTS; i++) {
      await reset();
      await request();
      let sum = 0;
      for (const r of await read()) {
        // one line per statement shape: parameters and literals folded, so a board search's paths group by their opening text
        const text = r.query
          .replace(/--[^\n]*/g, '')
          .replace(/'[^']*'|\$\d+|\b\d+(\.\d+)?\b/g, '?')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, Number(process.env.SQL_CHARS ?? 160));
        const k = byText.get(text) ?? { calls: 0, blks: 0 };
        k.calls += Number(r.calls);
        k.blks += Number(r.blks);
        byText.set(text, k);
        sum += Number(r.blks);
      }
      perRequest.push(sum);
    }
    const lines = [
      `  ${name}: statements' buffers per request p50 ${pct(perRequest, 50)}, p95 ${pct(perRequest, 95)}, mean ${(perRequest.reduce((a, b) => a + b, 0) / REQUESTS).toFixed(1)} (pg_stat_statements, ${REQUESTS} requests)`,
      `    ${'calls/req'.padStart(9)} ${'bufs/call'.padStart(9)} ${'bufs/req'.padStart(9)}  statement`,
    ];
    for (const [text, k] of [...byText].sort((a, b) => b[1].blks - a[1].blks))
      lines.push(
        `    ${(k.calls / REQUESTS).toFixed(2).padStart(9)} ${(k.blks / Math.max(1, k.calls)).toFixed(1).padStart(9)} ${(k.blks / REQUESTS).toFixed(1).padStart(9)}  ${text}`,
      );
    return lines;
  };
}

await main();
