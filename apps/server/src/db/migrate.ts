import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Apply every `migrations/NNNN_name.sql` not applied yet, in name order, each in its own
 * transaction, recording it in `schema_migrations`. Same files on PGlite and PostgreSQL 15+.
 * On PostgreSQL an advisory lock keeps concurrent instances from migrating twice.
 * Returns the names applied by this call.
 */
export async function migrate(database: Database): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort();
  return database.session(async (conn) => {
    const lock = database.engine === 'postgres';
    if (lock) await conn.query('select pg_advisory_lock(727274)');
    try {
      await conn.exec('create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())');
      const done = new Set((await conn.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name));
      const applied: string[] = [];
      for (const f of files) {
        if (done.has(f)) continue;
        const sql = readFileSync(join(MIGRATIONS_DIR, f), 'utf8');
        await conn.exec(`begin;\n${sql}\n;insert into schema_migrations(name) values ('${f.replace(/'/g, "''")}');\ncommit;`);
        applied.push(f);
      }
      return applied;
    } catch (e) {
      await conn.exec('rollback').catch(() => undefined);
      throw e;
    } finally {
      if (lock) await conn.query('select pg_advisory_unlock(727274)');
    }
  });
}
