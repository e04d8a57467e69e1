import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The Drizzle database, the same type on PGlite and on node-postgres. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle (same API as Db). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  /** The primary: every write, and every read that must see the caller's own writes. */
  db: Db;
  /**
   * Reads that may be a little stale (the board search and the board version it is cached
   * under; issue 10): the replica of DATABASE_READ_URL, else the primary itself (`db`).
   */
  readDb: Db;
  engine: 'pglite' | 'postgres';
  /** Plain SQL with $1… parameters, on whichever engine (migrations, benchmarks). */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Text + values → rows, for libraries that bring their own SQL (pg-boss). With no values the
   * text may hold several statements; the last statement's rows are returned.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** Run `fn` on one dedicated connection (session-level locks, multi-statement scripts). */
  session<T>(fn: (conn: Pick<Database, 'exec' | 'query'>) => Promise<T>): Promise<T>;
  /**
   * LISTEN on `channel`: `fn` runs for each NOTIFY, which PostgreSQL delivers when the notifying
   * transaction commits (never on rollback). PostgreSQL: one dedicated connection, re-opened
   * after an error; PGlite: its in-process listener. Returns the unlisten function.
   */
  listen(channel: string, fn: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const PGLITE_EXTENSIONS = { cube, earthdistance, pg_trgm };

/**
 * How long an idle PostgreSQL connection of the pools stays open, ms. pg-pool's default (10 s)
 * closed them between bursts, and each new connection reads the catalogs again and prepares its
 * named statements again: 100–1,000 buffers and a few ms before its first answer (issue 45,
 * docs/load-board.md "Where a request's buffers go").
 */
export const POOL_IDLE_MS = 300_000;

/** Each PostgreSQL pool's sibling for generic plans (openDatabase). */
const genericPools = new WeakMap<pg.Pool, pg.Pool>();

/** The pool that runs `pool`'s statements with their generic plans (plan_cache_mode=force_generic_plan), if openDatabase made one. */
export const genericPoolOf = (pool: pg.Pool): pg.Pool | undefined => genericPools.get(pool);

/** What openDatabase opens: PostgreSQL (`databaseUrl`, `readUrl`: a replica) or PGlite (`dataDir`, or a client). */
export interface OpenDatabaseOptions {
  databaseUrl?: string;
  readUrl?: string;
  dataDir?: string;
  pglite?: PGlite;
  poolMax?: number;
  /** How long an idle PostgreSQL connection stays open, ms (0: until close); default POOL_IDLE_MS. */
  idleMs?: number;
}

/**
 * Open the database: PostgreSQL when `databaseUrl` is given, else embedded PGlite persisted in
 * `dataDir/pglite` (or in memory when `dataDir` is 'memory://'). One process per data
 * directory: PGlite has no lock (STACK.md gotcha 7).
 */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    // plan_cache_mode=force_custom_plan: a named prepared statement (queryRows' prepareAs: the
    // board search) is planned for its values on every execution. By default PostgreSQL switches
    // to a generic plan after five executions when its estimated cost looks no worse, and for the
    // board search that plan filters the equipment row by row (12 ms instead of 5 ms at 1M loads,
    // issue 10). Unnamed statements (every other query) are planned per execution anyway.
    // Statements whose plan does not depend on their values (queryRows' plan 'generic': my loads,
    // the in/out logs, rates) run on a smaller second pool whose sessions keep PostgreSQL's
    // generic plans (plan_cache_mode=force_generic_plan): planned once per connection, with no
    // switch of the session's mode around each execution (two round trips saved per call).
    // Those sessions also run without parallel workers (max_parallel_workers_per_gather=0): every
    // statement there reads a bounded index range, and a generic plan that launches workers for
    // one (the board's newest-first walk, planned without its values) paid 3-4 ms of worker
    // start-up for a 4,000-row walk (issue 24). Connections open on demand: a process that never
    // runs one opens none.
    // Both run without JIT compilation (jit=off). PostgreSQL compiles a statement whose estimated
    // cost passes jit_above_cost (100,000), and estimates of statements over a million loads pass
    // it while they read a bounded index range: a generic plan prices `limit $1 offset $2` as if
    // it skipped a tenth of the table. The board's capped walk at 1M loads then took 84 ms, of
    // which LLVM took 80; 3.3 ms without (issue 24, docs/load-board.md). No statement of the
    // product runs long enough for compiled expressions to pay back their compilation.
    const open = (connectionString: string) => {
      const idleTimeoutMillis = opts.idleMs ?? POOL_IDLE_MS;
      const custom = new pg.Pool({ connectionString, max: opts.poolMax ?? 10, idleTimeoutMillis, options: '-c plan_cache_mode=force_custom_plan -c jit=off' });
      const generic = new pg.Pool({
        connectionString,
        idleTimeoutMillis,
        max: Math.max(2, Math.ceil((opts.poolMax ?? 10) / 2)),
        options: '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0 -c jit=off',
      });
      genericPools.set(custom, generic);
      return custom;
    };
    const pool = open(opts.databaseUrl);
    // numeric → JS number is done per column in the schema; keep timestamps as Date.
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    // DATABASE_READ_URL: a streaming replica (hot standby) for reads that may be stale
    const readPool = opts.readUrl ? open(opts.readUrl) : null;
    const readDb = readPool ? (drizzlePg(readPool, { schema }) as unknown as Db) : db;
    return {
      db,
      readDb,
      engine: 'postgres',
      exec: async (sql) => {
        await pool.query(sql);
      },
      query: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
      executeSql: async (text, values) => {
        const r = (await pool.query(text, values?.length ? values : undefined)) as unknown as pg.QueryResult | pg.QueryResult[];
        return { rows: Array.isArray(r) ? (r[r.length - 1]?.rows ?? []) : r.rows };
      },
      session: async (fn) => {
        const conn = await pool.connect();
        try {
          return await fn({
            exec: async (sql) => {
              await conn.query(sql);
            },
            query: async <T>(sql: string, params: unknown[] = []) => (await conn.query(sql, params)).rows as T[],
          });
        } finally {
          conn.release();
        }
      },
      listen: (channel, fn) => listenPg(opts.databaseUrl!, channel, fn),
      close: async () => {
        const pools = [pool, readPool].flatMap((p) => (p ? [p, genericPools.get(p)] : [])).filter((p): p is pg.Pool => !!p);
        await Promise.all(pools.map((p) => p.end()));
      },
    };
  }
  let client = opts.pglite;
  if (!client) {
    const dir = opts.dataDir === 'memory://' || !opts.dataDir ? undefined : join(opts.dataDir, 'pglite');
    if (dir) mkdirSync(dir, { recursive: true });
    client = await PGlite.create({ dataDir: dir, extensions: PGLITE_EXTENSIONS });
  }
  const c = client;
  const db = drizzlePglite(c, { schema }) as unknown as Db;
  const exec = async (sql: string) => {
    await c.exec(sql);
  };
  const query = async <T>(sql: string, params: unknown[] = []) => (await c.query<T>(sql, params)).rows;
  const executeSql = async (text: string, values?: unknown[]) => {
    if (values?.length) return { rows: (await c.query(text, values)).rows };
    const r = await c.exec(text);
    return { rows: r[r.length - 1]?.rows ?? [] };
  };
  // one embedded database: no replica, every read on the primary
  const listen = async (channel: string, fn: () => void) => {
    const off = await c.listen(channel, () => fn());
    return async () => {
      if (!c.closed) await off();
    };
  };
  return { db, readDb: db, engine: 'pglite', exec, query, executeSql, session: (fn) => fn({ exec, query }), listen, close: () => c.close() };
}

/** A LISTEN connection that comes back after an error (the caller keeps polling meanwhile). */
async function listenPg(connectionString: string, channel: string, fn: () => void): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const open = async () => {
    const c = new pg.Client({ connectionString });
    c.on('notification', (m) => {
      if (m.channel === channel) fn();
    });
    c.on('error', () => {
      if (client === c) client = null;
      c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void open().catch(() => undefined), 1000);
    });
    await c.connect();
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad channel ${channel}`);
    await c.query(`listen ${channel}`);
    client = c;
    if (stopped) await c.end();
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

/**
 * `primary` with its stale-tolerant reads (`readDb`) sent to `replica` instead; closing closes
 * both. How DATABASE_READ_URL is wired, also used by tests to route reads to a second database.
 */
export function withReadReplica(primary: Database, replica: Database): Database {
  return {
    ...primary,
    readDb: replica.db,
    close: async () => {
      await Promise.all([primary.close(), replica.close()]);
    },
  };
}
