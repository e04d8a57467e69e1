import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

export interface IdempotencyRow {
  request_hash: string;
  status_code: number | null;
  content_type: string | null;
  response_body: string | null;
  fresh: boolean;
}

/**
 * Claim (scope, key) for a request: true when this call inserted the row (the request runs),
 * false when a row exists. A row older than `ttlHours` is replaced, as if it did not exist.
 */
export async function claimKey(db: Db, scope: string, key: string, requestHash: string, ttlHours: number): Promise<boolean> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`insert into idempotency_keys (scope, key, request_hash) values (${scope}, ${key}, ${requestHash})
        on conflict (scope, key) do update set request_hash = excluded.request_hash, status_code = null, content_type = null,
          response_body = null, created_at = now()
        where idempotency_keys.created_at < now() - make_interval(hours => ${ttlHours})
        returning key`,
  );
  return rows.length > 0;
}

export async function findKey(db: Db, scope: string, key: string): Promise<IdempotencyRow | null> {
  const rows = await queryRows<IdempotencyRow>(
    db,
    sql`select request_hash, status_code, content_type, response_body, true as fresh from idempotency_keys where scope = ${scope} and key = ${key}`,
  );
  return rows[0] ?? null;
}

/** Keep the first response of a claimed key. */
export async function saveResponse(db: Db, scope: string, key: string, statusCode: number, contentType: string | null, body: string): Promise<void> {
  await db.execute(
    sql`update idempotency_keys set status_code = ${statusCode}, content_type = ${contentType}, response_body = ${body} where scope = ${scope} and key = ${key}`,
  );
}

/** Forget a claimed key (the request failed on the server's side: a retry must run it again). */
export async function releaseKey(db: Db, scope: string, key: string): Promise<void> {
  await db.execute(sql`delete from idempotency_keys where scope = ${scope} and key = ${key}`);
}

/** Delete keys older than `ttlHours` (cleanup job); returns how many. */
export async function deleteExpiredKeys(db: Db, ttlHours: number): Promise<number> {
  const rows = await queryRows(db, sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${ttlHours}) returning key`);
  return rows.length;
}
