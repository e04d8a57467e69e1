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
 * false when a row exists. A row older than `ttlHours` is replaced, as if it did not exist. The
 * claim holds a lease of `leaseSeconds` (renewed by `renewLease` while the request runs).
 */
export async function claimKey(db: Db, scope: string, key: string, requestHash: string, ttlHours: number, leaseSeconds: number): Promise<boolean> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`insert into idempotency_keys (scope, key, request_hash, lease_until) values (${scope}, ${key}, ${requestHash}, now() + make_interval(secs => ${leaseSeconds}))
        on conflict (scope, key) do update set request_hash = excluded.request_hash, status_code = null, content_type = null,
          response_body = null, created_at = now(), lease_until = excluded.lease_until, committed_at = null, journal = null
        where idempotency_keys.created_at < now() - make_interval(hours => ${ttlHours})
        returning key`,
  );
  return rows.length > 0;
}

/**
 * Take over the key of a request that died: same request, no response kept, lease passed (a
 * row from before leases counts as passed). Returns what the dead request committed (null when
 * no row was taken over): `committed` false → nothing was written, run again; true → replay
 * `journal`. The lease is taken atomically, so one retry at a time takes over.
 */
export async function takeOverKey(
  db: Db,
  scope: string,
  key: string,
  requestHash: string,
  leaseSeconds: number,
): Promise<{ committed: boolean; journal: Record<string, unknown> } | null> {
  const rows = await queryRows<{ committed: boolean; journal: Record<string, unknown> | string | null }>(
    db,
    sql`update idempotency_keys set lease_until = now() + make_interval(secs => ${leaseSeconds})
        where scope = ${scope} and key = ${key} and request_hash = ${requestHash} and status_code is null
          and coalesce(lease_until, '-infinity'::timestamptz) < now()
        returning committed_at is not null as committed, journal`,
  );
  const r = rows[0];
  if (!r) return null;
  const journal = typeof r.journal === 'string' ? (JSON.parse(r.journal) as Record<string, unknown>) : (r.journal ?? {});
  return { committed: r.committed, journal };
}

/** Keep the running request's lease (heartbeat). */
export async function renewLease(db: Db, scope: string, key: string, leaseSeconds: number): Promise<void> {
  await db.execute(
    sql`update idempotency_keys set lease_until = now() + make_interval(secs => ${leaseSeconds}) where scope = ${scope} and key = ${key} and status_code is null`,
  );
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

/** Forget a claimed key (the request answered with an error: a retry must run it again). */
export async function releaseKey(db: Db, scope: string, key: string): Promise<void> {
  await db.execute(sql`delete from idempotency_keys where scope = ${scope} and key = ${key}`);
}

/** Delete keys older than `ttlHours` (cleanup job); returns how many. */
export async function deleteExpiredKeys(db: Db, ttlHours: number): Promise<number> {
  const rows = await queryRows(db, sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${ttlHours}) returning key`);
  return rows.length;
}
