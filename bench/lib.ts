/** What the benchmarks share: a fresh database per engine, and which engines to run. */
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { openDatabase, type Database, type DbOrTx } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';

export type Engine = 'pglite' | 'postgres';
export const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The `p`th percentile (0–100) of `xs` (nearest rank on a sorted copy; NaN when empty). */
export const percentile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

/** A bench's scale: `10k`, `100k` or `1m` (any case), else the number itself (NaN or 0 when neither). */
export const scaleOf = (s: string): number =>
  (({ '10k': 10_000, '100k': 100_000, '1m': 1_000_000 }) as Record<string, number>)[s.trim().toLowerCase()] ?? Number(s);

/** A query string of `q`'s defined values (`?` not included): the benches' randomised request paths. */
export const qs = (q: object) =>
  new URLSearchParams(
    Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)] as [string, string]),
  ).toString();

export const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/**
 * A migrated, empty database: PGlite in memory, or PostgreSQL database `name` (dropped and
 * created again). `drop` closes it and, on PostgreSQL, drops it once the pool's sockets closed.
 */
export async function freshDatabase(engine: Engine, name: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (engine === 'pglite') {
    const database = await openDatabase({ dataDir: 'memory://' });
    await migrate(database);
    return { database, drop: () => database.close() };
  }
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: withDb(pgUrl, name) });
  await migrate(database);
  return {
    database,
    drop: async () => {
      await database.close();
      const a = new pg.Client({ connectionString: pgUrl });
      await a.connect();
      // pg-pool's end() resolves before its sockets close: wait for them before dropping
      for (let i = 0; i < 100; i++) {
        const { rows } = await a.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** ENGINE=pglite|postgres|both; default both when PostgreSQL answers at `pgUrl`, else pglite. */
export async function enginesToRun(): Promise<Engine[]> {
  let pgOk = false;
  try {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.end();
    pgOk = true;
  } catch {
    pgOk = false;
  }
  const want = process.env.ENGINE ?? (pgOk ? 'both' : 'pglite');
  const engines = (want === 'both' ? ['pglite', 'postgres'] : [want]) as Engine[];
  if (engines.includes('postgres') && !pgOk) throw new Error(`PostgreSQL is not reachable at ${pgUrl} (set BENCH_DATABASE_URL)`);
  return engines;
}

/** The JWT secret of every bench server (in process, or a child process: bench:traffic SERVER=child). */
export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

/** The environment of a bench server: production mode, with every outside gateway configured and never called. */
export const benchEnv = (env: Record<string, string> = {}): Record<string, string | undefined> => ({
  ...process.env,
  NODE_ENV: 'production',
  // production refuses every sandbox gateway; the benches call none of them
  PAYMENT_GATEWAY: 'moyasar',
  PAYMENT_SECRET_KEY: 'sk_bench',
  PAYMENT_PUBLISHABLE_KEY: 'pk_bench',
  PUBLIC_URL: 'https://bench.masar.example',
  BAYAN_GATEWAY: 'http',
  BAYAN_APP_ID: 'bench',
  BAYAN_APP_KEY: 'bench',
  BAYAN_CLIENT_ID: 'bench',
  WASL_GATEWAY: 'http',
  WASL_APP_ID: 'bench',
  WASL_APP_KEY: 'bench',
  SMS_GATEWAY: 'unifonic',
  SMS_API_KEY: 'bench',
  EMAIL_GATEWAY: 'smtp',
  SMTP_URL: 'smtp://bench:bench@mail.bench.masar.example:587',
  LOG_LEVEL: 'silent',
  DEMO_SEED: '0',
  BENCH: '1',
  JOBS: '0',
  WEB_DIST: '/nonexistent',
  DATABASE_URL: '',
  ...env,
});

/**
 * The product's HTTP server over a bench database, as production runs it (NODE_ENV production with
 * placeholder gateway credentials, no jobs, no demo seed, silent log), listening on a free
 * loopback port. `env` adds or overrides settings (e.g. SEARCH_CACHE_TTL_MS: '0' for a cold
 * result cache). `tokenFor(userId)` signs a user in: a sessions row and its access token (1 h).
 */
export async function benchApp(database: Database, env: Record<string, string> = {}) {
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { signAccessToken } = await import('../apps/server/src/lib/tokens.ts');
  const config = loadConfig(benchEnv(env), { jwtSecret: BENCH_JWT_SECRET });
  const app = await buildApp({ config, database, logger: false });
  // BENCH_PORT: a fixed port (a shared machine's port range); default any free one
  await app.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_PORT ?? 0) });
  const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const tokenFor = async (userId: string) => {
    const sid = crypto.randomUUID();
    await database.query(`insert into sessions (id, family_id, user_id, refresh_hash, expires_at) values ($1, $1, $2, $3, now() + interval '1 day')`, [
      sid,
      userId,
      crypto.randomUUID(),
    ]);
    return (await signAccessToken({ sub: userId, sid, typ: 'user', at: 1 }, config.jwtSecret, 3600)).token;
  };
  return { app, config, origin, tokenFor };
}

/** benchApp with `userId` signed in. */
export async function benchServer(database: Database, userId: string, env: Record<string, string> = {}) {
  const { app, config, origin, tokenFor } = await benchApp(database, env);
  return { app, config, origin, token: await tokenFor(userId) };
}

/**
 * The SQL a repository function sends, captured by a stand-in connection (nothing runs); every
 * statement answers `rows` (give the shape the function reads back, if it reads any).
 */
export async function captureSql(fn: (db: DbOrTx) => Promise<unknown>, rows: object[] = [{}]): Promise<SQL[]> {
  const seen: SQL[] = [];
  const fake = { execute: async (q: SQL) => (seen.push(q), { rows }) } as unknown as DbOrTx;
  await fn(fake).catch(() => undefined);
  return seen;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of `s` as a named prepared statement: the custom plan, then the
 * generic one (what production runs after five executions). The session's plan_cache_mode is reset
 * afterwards: the connection goes back to the pool the measured server uses.
 */
export async function plans(database: Database, s: SQL): Promise<{ custom: string; generic: string }> {
  const q = new PgDialect().sqlToQuery(s);
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  try {
    const name = `bench_${Math.random().toString(36).slice(2, 10)}`;
    const args = q.params.map((v) => (v == null ? 'null' : client.escapeLiteral(String(v as string | number)))).join(', ');
    await client.query(`prepare ${name} as ${q.sql}`);
    const explain = async () =>
      (await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off) execute ${name}(${args})`)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    for (let i = 0; i < 5; i++) await client.query(`execute ${name}(${args})`);
    const custom = await explain();
    await client.query('set plan_cache_mode = force_generic_plan');
    const generic = await explain();
    await client.query('reset plan_cache_mode');
    await client.query(`deallocate ${name}`);
    return { custom, generic };
  } finally {
    client.release();
  }
}

/** One line: the access paths a plan takes (bitmap index scans too), its sort, buffers, planning and execution time. */
export function planSummary(plan: string): string {
  const paths = [...plan.matchAll(/(Index Only Scan|(?<!Bitmap )Index Scan|Bitmap Heap Scan|Seq Scan)(?: Backward)? (?:using (\S+) )?on (\w+)/g)]
    .map((m) => `${m[1].replace(' Scan', '')}${m[2] ? ` ${m[2]}` : ''}${m[3] ? ` on ${m[3]}` : ''}`)
    .filter((v, i, a) => a.indexOf(v) === i);
  const bitmapIdx = [...plan.matchAll(/Bitmap Index Scan on (\S+)/g)].map((m) => `Bitmap Index ${m[1]}`).filter((v, i, a) => a.indexOf(v) === i);
  const exec = /Execution Time: ([\d.]+)/.exec(plan)?.[1];
  const planning = /Planning Time: ([\d.]+)/.exec(plan)?.[1];
  const sort = /Sort Method: ([^\n]+)/.exec(plan)?.[1];
  const buffers = /Buffers: ([^\n]+)/.exec(plan)?.[1];
  return `${[...paths, ...bitmapIdx].join('; ')}${sort ? `; sort ${sort.trim()}` : ''}${buffers ? `; buffers ${buffers.trim()}` : ''}${planning ? `; planning ${planning} ms` : ''}${exec ? `; execution ${exec} ms` : ''}`;
}
