import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { DbOrTx } from '../db/client.ts';

const dialect = new PgDialect();

/**
 * Run a raw SQL query (drizzle `sql`) and return its rows, on PGlite and node-postgres alike.
 * With `prepareAs` on node-postgres the query runs as a named prepared statement (per
 * connection, named after its text), because planning a search can cost as much as running
 * it (DESIGN §6: about 4 ms). The pool plans named statements for their values on every
 * execution (plan_cache_mode=force_custom_plan, db/client.ts: the board's plan depends on them);
 * `plan: 'generic'` runs one whose plan does not (my loads: owner-index ranges whatever the
 * owner) with its generic plan, planned once per connection and then reused — the session's
 * plan_cache_mode is switched around the execution on the same connection. PGlite runs it as
 * is. Cast numerics (::float8, ::int) in SQL: drivers return numeric and bigint as strings.
 */
export async function queryRows<T>(db: DbOrTx, query: SQL, prepareAs?: string, plan: 'custom' | 'generic' = 'custom'): Promise<T[]> {
  if (prepareAs) {
    const client = (db as { $client?: unknown }).$client;
    if (client instanceof pg.Pool) {
      const q = dialect.sqlToQuery(query);
      const named = { name: preparedName(prepareAs, q.sql), text: q.sql, values: q.params };
      if (plan === 'custom') return (await client.query(named)).rows as T[];
      const conn = await client.connect();
      let ok = false;
      try {
        // on the one connection: mode, execution, mode back (three short round trips)
        await conn.query('set plan_cache_mode = force_generic_plan');
        const r = await conn.query(named).finally(() => conn.query('set plan_cache_mode = force_custom_plan'));
        ok = true;
        return r.rows as T[];
      } finally {
        // a connection whose mode could not be restored is not returned to the pool
        conn.release(!ok);
      }
    }
  }
  const r = await db.execute<Record<string, unknown>>(query);
  return (r as { rows: unknown[] }).rows as T[];
}

/** The name a statement is prepared under by queryRows (per connection; bench/ explains it). */
export const preparedName = (prefix: string, text: string) => `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;

/** `(v1, v2, …)` with each value a bound parameter, for `in` lists (drizzle expands no array here). */
export const inList = (values: (string | number)[]): SQL =>
  sql`(${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;
