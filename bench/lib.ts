/** What the benchmarks share: a fresh database per engine, and which engines to run. */
import pg from 'pg';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';

export type Engine = 'pglite' | 'postgres';
export const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

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
