import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import { inList, queryRows } from '../../lib/sql.ts';

/** All SQL of the webhooks module (webhook_endpoints, webhook_deliveries, webhook_attempts). */
export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function insertEndpoint(db: DbOrTx, row: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  const [r] = await db.insert(webhookEndpoints).values(row).returning();
  return r;
}

export async function listEndpoints(db: DbOrTx, ownerId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.ownerId, ownerId), isNull(webhookEndpoints.deletedAt)))
    .orderBy(desc(webhookEndpoints.createdAt))
    .limit(100);
}

export async function getEndpoint(db: DbOrTx, ownerId: string, id: string): Promise<EndpointRow | undefined> {
  const [r] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.ownerId, ownerId), isNull(webhookEndpoints.deletedAt)));
  return r;
}

/** Change an endpoint; an empty patch changes nothing (no statement: drizzle refuses an empty SET). */
export async function updateEndpoint(db: DbOrTx, id: string, patch: Partial<typeof webhookEndpoints.$inferInsert>): Promise<void> {
  if (Object.values(patch).every((v) => v === undefined)) return;
  await db.update(webhookEndpoints).set(patch).where(eq(webhookEndpoints.id, id));
}

export async function countEndpoints(db: DbOrTx, ownerId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.ownerId, ownerId), isNull(webhookEndpoints.deletedAt)));
  return r?.n ?? 0;
}

/** Live endpoints of `ownerIds` subscribed to `eventType`. */
export async function endpointsFor(db: DbOrTx, ownerIds: string[], eventType: string): Promise<{ id: string }[]> {
  if (ownerIds.length === 0) return [];
  return queryRows<{ id: string }>(
    db,
    sql`select id from webhook_endpoints
        where owner_id in ${inList(ownerIds)} and active and deleted_at is null and ${eventType} = any(events)`,
  );
}

/** One delivery per (endpoint, event); a second call for the same pair writes nothing. */
export async function insertDeliveries(db: DbOrTx, rows: (typeof webhookDeliveries.$inferInsert)[]): Promise<void> {
  if (rows.length) await db.insert(webhookDeliveries).values(rows).onConflictDoNothing();
}

export interface DueDelivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: unknown;
  attempts: number;
  created_at: Date;
  url: string;
  secret: string;
}

/**
 * Claim up to `limit` deliveries to send now: per endpoint only its oldest pending one (so an
 * endpoint receives events in publish order, and one that is down holds the later ones back),
 * when it is due and not claimed by another sender. The claim lasts `claimSeconds`; the
 * conditions on the row are re-checked under its lock, so two instances never claim one row.
 */
export async function claimDue(db: DbOrTx, limit: number, claimSeconds: number): Promise<DueDelivery[]> {
  return queryRows<DueDelivery>(
    db,
    sql`with heads as (
          select distinct on (endpoint_id) id from webhook_deliveries where status = 'pending' order by endpoint_id, seq
        ), due as (
          select d.id from webhook_deliveries d join heads h on h.id = d.id
          where d.next_attempt_at <= now() and (d.claimed_until is null or d.claimed_until < now())
          limit ${limit}
        )
        update webhook_deliveries d set claimed_until = now() + make_interval(secs => ${claimSeconds})
        from due, webhook_endpoints e
        where d.id = due.id and e.id = d.endpoint_id and d.status = 'pending'
          and (d.claimed_until is null or d.claimed_until < now())
        returning d.id, d.endpoint_id, d.event_id, d.event_type, d.payload, d.attempts, d.created_at, e.url, e.secret`,
  );
}

/** Record one attempt and move the delivery on: succeeded, retried at `retryAt`, or failed. */
export async function recordAttempt(
  db: DbOrTx,
  a: { id: string; deliveryId: string; statusCode: number | null; durationMs: number; response: string | null; error: string | null },
  outcome: { status: 'succeeded' | 'pending' | 'failed'; retryAt: Date | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      id: a.id,
      deliveryId: a.deliveryId,
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      response: a.response,
      error: a.error,
    });
    await tx
      .update(webhookDeliveries)
      .set({
        status: outcome.status,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        nextAttemptAt: outcome.retryAt ?? new Date(),
        claimedUntil: null,
        lastStatusCode: a.statusCode,
        lastResponse: a.response,
        lastError: a.error,
        deliveredAt: outcome.status === 'succeeded' ? new Date() : null,
      })
      .where(eq(webhookDeliveries.id, a.deliveryId));
  });
}

/** An endpoint's deliveries, newest first, optionally of one status and before a time. */
export async function listDeliveries(db: DbOrTx, endpointId: string, q: { status?: DeliveryRow['status']; limit: number; before?: string }) {
  const conds = [eq(webhookDeliveries.endpointId, endpointId)];
  if (q.status) conds.push(eq(webhookDeliveries.status, q.status));
  if (q.before) conds.push(lt(webhookDeliveries.createdAt, new Date(q.before)));
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(...conds))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(q.limit);
}

/** A delivery of one of `ownerId`'s endpoints. */
export async function ownedDelivery(db: DbOrTx, ownerId: string, id: string): Promise<DeliveryRow | undefined> {
  const rows = await db
    .select({ d: webhookDeliveries })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, id), eq(webhookEndpoints.ownerId, ownerId)));
  return rows[0]?.d;
}

/** Queue a delivery again (resend): pending, due now, its attempts kept in the log. */
export async function requeue(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: new Date(), claimedUntil: null, deliveredAt: null })
    .where(eq(webhookDeliveries.id, id));
}

/** Forget finished deliveries (and their attempts) created before `before`; returns how many. */
export async function deleteFinishedBefore(db: DbOrTx, before: Date): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with old as (
          select id from webhook_deliveries where status in ('succeeded', 'failed') and created_at < ${before} limit 10000
        ), a as (delete from webhook_attempts where delivery_id in (select id from old))
        delete from webhook_deliveries where id in (select id from old) returning id`,
  );
  return rows.length;
}

/**
 * Delete the owner's endpoints made by `userId` (a team member leaving) and fail their pending
 * deliveries, so nothing more is sent to them. Returns how many endpoints.
 */
export async function removeEndpointsMadeBy(db: DbOrTx, ownerId: string, userId: string, reason: string): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update webhook_endpoints set active = false, deleted_at = now()
        where owner_id = ${ownerId} and created_by = ${userId} and deleted_at is null
        returning id`,
  );
  if (rows.length === 0) return 0;
  await queryRows(
    db,
    sql`update webhook_deliveries set status = 'failed', claimed_until = null, last_error = ${reason}
        where status = 'pending' and endpoint_id in ${inList(rows.map((r) => r.id))}`,
  );
  return rows.length;
}
