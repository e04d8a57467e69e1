/**
 * The expiry job at scale (issue 24, "jobs that read only what is due"): `npm run bench:expiry`.
 *
 * On PostgreSQL only, at 100k and 1M loads (SCALES=100k,1m), seeded as bench/search.bench.ts
 * seeds them (80% open: ~800k posted loads at 1M, none past its expiry). The database is
 * `masar_h24jobs_<n>`: a copy (CREATE DATABASE … TEMPLATE) of `masar_bench_<n>` when that one
 * exists, else seeded here. Dropped at the end unless KEEP_DB=1 (then reused by the next run).
 *
 * For the expiry statement (lifecycle.repository.ts dueForExpiry, DUE_FOR_EXPIRY_SQL) with
 * nothing due and with 1,000 loads due: RUNS (default 20) cold runs each — `discard all` on the
 * session before every run, so the statement is parsed and planned again as a fresh connection
 * would — as production sends it (an unnamed statement: custom plan) and as a prepared statement
 * with `plan_cache_mode = force_generic_plan`; p50/p95, and EXPLAIN (ANALYZE, BUFFERS) of the
 * generic plan. Then the job's batches until nothing is due (expireBatch, 500 at a time: one
 * conditional update and the load.expired events per batch). The statement is main's (issue 24 kept it; see docs/load-board.md "Jobs").
 * Prints figures; never asserts timings.
 */
import pg from 'pg';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { DUE_FOR_EXPIRY_SQL } from '../apps/server/src/modules/loads/lifecycle.repository.ts';
import { expireBatch } from '../apps/server/src/modules/loads/lifecycle.ts';
import { pgUrl, withDb } from './lib.ts';
import { seed } from './search.bench.ts';

const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (n: number) => n.toFixed(2);

async function adminQuery<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const a = new pg.Client({ connectionString: pgUrl });
  await a.connect();
  try {
    return (await a.query<T>(text, values)).rows;
  } finally {
    await a.end();
  }
}

/** The bench database of `n` loads: reused (KEEP_DB), copied from masar_bench_<n>, or seeded. */
async function openBench(n: number): Promise<{ database: Database; name: string; how: string }> {
  const name = `masar_h24jobs_${n}`;
  const exists = async (db: string) => (await adminQuery('select 1 from pg_database where datname = $1', [db])).length === 1;
  const url = withDb(pgUrl, name);
  if (process.env.KEEP_DB && (await exists(name))) {
    const database = await openDatabase({ databaseUrl: url, poolMax: 4 });
    const ok = await database
      .query<{ n: number }>('select n from bench_meta')
      .then((r) => r[0]?.n === n)
      .catch(() => false);
    if (ok) {
      await migrate(database);
      return { database, name, how: 'reused' };
    }
    await database.close();
  }
  await adminQuery(`drop database if exists ${name} with (force)`);
  const source = `masar_bench_${n}`;
  if (await exists(source)) {
    const t = performance.now();
    // a template must have no other session: wait for the copy until the source is idle
    await adminQuery(`create database ${name} template ${source}`);
    const database = await openDatabase({ databaseUrl: url, poolMax: 4 });
    const applied = await migrate(database);
    for (const tb of ['loads', 'outbox_events']) await database.exec(`vacuum analyze ${tb}`);
    return {
      database,
      name,
      how: `copied from ${source} in ${((performance.now() - t) / 1000).toFixed(1)} s${applied.length ? `, applied ${applied.join(', ')}` : ''}`,
    };
  }
  await adminQuery(`create database ${name}`);
  const su = new pg.Client({ connectionString: url });
  await su.connect();
  await su.query('create extension if not exists cube; create extension if not exists earthdistance;');
  await su.end();
  const database = await openDatabase({ databaseUrl: url, poolMax: 4 });
  const t = performance.now();
  log(`[${name}] seeding ${n.toLocaleString('en')} loads…`);
  await seed(database, n);
  return { database, name, how: `seeded in ${((performance.now() - t) / 1000).toFixed(1)} s` };
}

let prepared = 0;

/** RUNS cold executions of `text` (limit $1 = 500): custom (unnamed, as production) and generic (prepared, forced). */
async function time(c: pg.PoolClient, text: string, runs: number) {
  const custom: number[] = [];
  const generic: number[] = [];
  let rows = 0;
  for (let i = 0; i < runs; i++) {
    await c.query('discard all');
    let t = performance.now();
    rows = (await c.query(text, [500])).rowCount ?? 0;
    custom.push(performance.now() - t);
    await c.query('discard all');
    await c.query('set plan_cache_mode = force_generic_plan');
    t = performance.now();
    // a new name each run: node-postgres remembers the names it prepared, `discard all` does not tell it
    await c.query({ name: `expiry_bench_${++prepared}`, text, values: [500] });
    generic.push(performance.now() - t);
  }
  await c.query('discard all');
  await c.query('set plan_cache_mode = force_generic_plan');
  await c.query(`prepare expiry_plan as ${text}`);
  const plan = (await c.query<{ 'QUERY PLAN': string }>('explain (analyze, buffers) execute expiry_plan(500)')).rows.map((r) => r['QUERY PLAN']);
  await c.query('discard all');
  custom.sort((a, b) => a - b);
  generic.sort((a, b) => a - b);
  return { rows, custom, generic, plan };
}

async function benchScale(n: number, runs: number) {
  const { database, name, how } = await openBench(n);
  log(`[${name}] ${how}`);
  const out: string[] = [];
  try {
    const pool = (database.db as unknown as { $client: pg.Pool }).$client;
    const c = await pool.connect();
    try {
      // nothing due: the job has run (a reused database may hold loads due since)
      for (;;) if ((await database.db.transaction((tx) => expireBatch(tx, 500))).length < 500) break;
      const [{ posted }] = await database.query<{ posted: number }>(`select count(*)::int as posted from loads where status = 'posted'`);
      const statements: [string, string][] = [['DUE_FOR_EXPIRY_SQL', DUE_FOR_EXPIRY_SQL]];
      const run = async (label: string) => {
        for (const [which, text] of statements) {
          const r = await time(c, text, runs);
          out.push(
            `| ${n.toLocaleString('en')} | ${posted.toLocaleString('en')} | ${label} | ${which} | ${r.rows} | ${fmt(pct(r.custom, 50))} / ${fmt(pct(r.custom, 95))} | ${fmt(pct(r.generic, 50))} / ${fmt(pct(r.generic, 95))} |`,
          );
          log(`\n[${name}] ${label}, ${which}: EXPLAIN (ANALYZE, BUFFERS), generic plan\n${r.plan.join('\n')}`);
        }
      };
      await run('nothing due');
      // 1,000 posted loads spread over the board, made due a minute ago
      await database.exec(`update loads set expires_at = now() - interval '1 minute'
        where id in (select id from loads where status = 'posted' and deleted_at is null order by md5(id::text) limit 1000)`);
      await run('1,000 due');
      const t = performance.now();
      let expired = 0;
      for (;;) {
        const k = (await database.db.transaction((tx) => expireBatch(tx, 500))).length;
        expired += k;
        if (k < 500) break;
      }
      out.push(`| ${n.toLocaleString('en')} | | job: expireBatch until done | | ${expired} expired | ${fmt(performance.now() - t)} ms (one run) | |`);
    } finally {
      c.release();
    }
  } finally {
    await database.close();
    if (!process.env.KEEP_DB) {
      for (let i = 0; i < 100; i++) {
        const [{ k }] = await adminQuery<{ k: number }>('select count(*)::int as k from pg_stat_activity where datname = $1', [name]);
        if (k === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await adminQuery(`drop database if exists ${name} with (force)`);
      log(`[${name}] dropped`);
    }
  }
  return out;
}

async function main() {
  const scales = (process.env.SCALES ?? '100k,1m').split(',').map((s) => ({ '10k': 10_000, '100k': 100_000, '1m': 1_000_000 })[s.trim().toLowerCase()]);
  if (scales.some((s) => !s)) throw new Error('SCALES takes 10k, 100k, 1m (comma-separated)');
  const runs = Number(process.env.RUNS ?? 20);
  const rows: string[] = [];
  for (const n of scales as number[]) rows.push(...(await benchScale(n, runs)));
  console.log(`\nThe expiry statement, ${runs} cold runs each (discard all before each), PostgreSQL, limit 500`);
  console.log('| loads | posted | case | statement | rows | custom p50 / p95 ms | generic p50 / p95 ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}

await main();
