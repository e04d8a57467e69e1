import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { genericPoolOf, type DbOrTx } from '../db/client.ts';
import { pgliteNamedQuery } from '../db/pglite-prepared.ts';

const dialect = new PgDialect();

/**
 * Run a raw SQL query (drizzle `sql`) and return its rows, on PGlite and node-postgres alike.
 * With `prepareAs` on node-postgres the query runs as a named prepared statement (per
 * connection, named after its text), because planning a search can cost as much as running
 * it (DESIGN §6: about 4 ms). The pool plans named statements for their values on every
 * execution (plan_cache_mode=force_custom_plan, db/client.ts: the board's plan depends on them);
 * `plan: 'generic'` runs one whose plan does not (my loads: owner-index ranges whatever the
 * owner) with its generic plan, planned once per connection and then reused: on the pool's
 * generic-plan sibling (db/client.ts genericPoolOf), whose sessions run force_generic_plan.
 * PGlite prepares it too, under the same name and with the same plan choice, when `db` is the
 * database itself (db/pglite-prepared.ts); in a transaction it runs as is. Cast numerics (::float8, ::int) in SQL: drivers return numeric and bigint as strings.
 */
export async function queryRows<T>(db: DbOrTx, query: SQL, prepareAs?: string, plan: 'custom' | 'generic' = 'custom'): Promise<T[]> {
  if (prepareAs) {
    const client = (db as { $client?: unknown }).$client;
    if (client instanceof pg.Pool) {
      const q = dialect.sqlToQuery(query);
      const named = { name: preparedName(prepareAs, q.sql), text: q.sql, values: q.params };
      if (plan === 'custom') return (await client.query(named)).rows as T[];
      // the pool's generic-plan sibling (every pool comes from openDatabase, which makes one)
      return (await (genericPoolOf(client) ?? client).query(named)).rows as T[];
    }
    // embedded PGlite, outside a transaction: the same named statement, plan and rows (db/pglite-prepared.ts)
    if (client instanceof PGlite) {
      const q = dialect.sqlToQuery(query);
      return pgliteNamedQuery<T>(client, preparedName(prepareAs, q.sql), q.sql, q.params, plan);
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

/**
 * SQL: great-circle metres from city `o` to city `c` (aliases of `cities` in the caller's query):
 * the haversine formula on the sphere of earth() (6378168 m), the same circle as earth_distance
 * without two ll_to_earth SQL-function calls per candidate city, which cost more than the rest of
 * the board search on PostgreSQL 15 (issue 10).
 */
export const GREAT_CIRCLE_M = sql.raw(`12756336 * asin(least(1, sqrt(
  power(sin(radians(c.lat - o.lat) / 2), 2) + cos(radians(o.lat)) * cos(radians(c.lat)) * power(sin(radians(c.lng - o.lng) / 2), 2))))`);

/**
 * SQL: the cities within `radiusKm` of city `cityId` (a number, or an SQL expression such as a
 * column of the outer query) as rows `(id, dist_m)`, the great-circle distance in metres. Read
 * through the cities GiST on ll_to_earth(lat, lng): earth_box is the index-backed bounding cube,
 * then the exact test. Without a radius: that city only (distance 0). The circle of the load
 * board (DESIGN §6), the truck board and the matching of trucks and loads (issue 19).
 */
export function citiesAround(cityId: number | SQL, radiusKm: number | undefined | null): SQL {
  if (!radiusKm) return sql`(select o.id, 0::float8 as dist_m from cities o where o.id = ${cityId})`;
  const r = radiusKm * 1000;
  return sql`(select c.id, d.m as dist_m
      from cities o
      join cities c on earth_box(ll_to_earth(o.lat, o.lng), ${r}::float8) @> ll_to_earth(c.lat, c.lng)
      cross join lateral (select ${GREAT_CIRCLE_M} as m) d
      where o.id = ${cityId} and d.m <= ${r}::float8)`;
}
