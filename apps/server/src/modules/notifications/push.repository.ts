import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/*
 * Web push tables (migration 0118; docs/notifications.md "Web push"): browsers' subscriptions
 * (endpoint unique) and the pushes waiting for the sender (one per event and user).
 */

const uuids = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

export interface SubscriptionRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Save a browser's subscription for (user, account): an upsert on the endpoint, so a browser
 * another user subscribed before moves to this one (and its keys are refreshed).
 */
export async function upsertSubscription(
  db: DbOrTx,
  s: { id: string; endpoint: string; p256dh: string; auth: string; userId: string; accountId: string; userAgent: string | null },
): Promise<void> {
  await db.execute(
    sql`insert into push_subscriptions (id, endpoint, p256dh, auth, user_id, account_id, user_agent)
        values (${s.id}::uuid, ${s.endpoint}, ${s.p256dh}, ${s.auth}, ${s.userId}::uuid, ${s.accountId}::uuid, ${s.userAgent})
        on conflict (endpoint) do update set p256dh = excluded.p256dh, auth = excluded.auth, user_id = excluded.user_id,
          account_id = excluded.account_id, user_agent = excluded.user_agent`,
  );
}

/** Delete this user's subscription of `endpoint` for `accountId` (another user's is left alone). Returns whether one was deleted. */
export async function deleteSubscription(db: DbOrTx, endpoint: string, userId: string, accountId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from push_subscriptions where endpoint = ${endpoint} and user_id = ${userId}::uuid and account_id = ${accountId}::uuid returning id`,
  );
  return rows.length > 0;
}

/** Delete a subscription the push service says is gone (404/410). */
export async function deleteSubscriptionById(db: DbOrTx, id: string): Promise<void> {
  await db.execute(sql`delete from push_subscriptions where id = ${id}::uuid`);
}

/** Stamp a subscription's last successful push. */
export async function markSubscriptionSuccess(db: DbOrTx, id: string): Promise<void> {
  await db.execute(sql`update push_subscriptions set last_success_at = now() where id = ${id}::uuid`);
}

/** The subscriptions of a user for an account (the browsers that receive its pushes). */
export function subscriptionsOf(db: DbOrTx, userId: string, accountId: string): Promise<SubscriptionRow[]> {
  return queryRows<SubscriptionRow>(
    db,
    sql`select id, endpoint, p256dh, auth from push_subscriptions where user_id = ${userId}::uuid and account_id = ${accountId}::uuid order by created_at`,
  );
}

/** Of these users, the (user, account) pairs with at least one subscription, as `user:account`. */
export async function subscribedPairs(db: DbOrTx, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await queryRows<{ user_id: string; account_id: string }>(
    db,
    sql`select distinct user_id, account_id from push_subscriptions where user_id in (${uuids(userIds)})`,
  );
  return new Set(rows.map((r) => `${r.user_id}:${r.account_id}`));
}

export interface NewPush {
  id: string;
  userId: string;
  accountId: string;
  category: string;
  type: string;
  eventId: string;
  loadId: string | null;
  referenceId: string | null;
  params: Record<string, string | number>;
  link: string;
  dueAt: Date;
}
/** Queue pushes (one per event and user; a redelivered event queues nothing). */
export async function enqueuePushes(tx: DbOrTx, rows: NewPush[]): Promise<void> {
  if (!rows.length) return;
  await tx.execute(
    sql`insert into notification_pushes (id, user_id, account_id, category, type, event_id, load_id, reference_id, params, link, due_at)
        values ${sql.join(
          rows.map(
            (r) =>
              sql`(${r.id}::uuid, ${r.userId}::uuid, ${r.accountId}::uuid, ${r.category}, ${r.type}, ${r.eventId}::uuid, ${r.loadId}::uuid, ${r.referenceId}, ${JSON.stringify(r.params)}::jsonb, ${r.link}, ${r.dueAt.toISOString()}::timestamptz)`,
          ),
          sql`, `,
        )}
        on conflict (event_id, user_id) do nothing`,
  );
}

export interface DuePush {
  id: string;
  user_id: string;
  account_id: string;
  category: string;
  type: string;
  load_id: string | null;
  reference_id: string | null;
  params: Record<string, string | number>;
  link: string;
  attempts: number;
}
/**
 * Claim up to `limit` unsent pushes due by `now` for `claimSeconds` (another sender skips them
 * until then; a sender that died leaves them to the next after it), counting the attempt.
 */
export function claimDuePushes(db: DbOrTx, now: Date, limit: number, claimSeconds: number): Promise<DuePush[]> {
  return queryRows<DuePush>(
    db,
    sql`update notification_pushes p set claimed_until = ${now.toISOString()}::timestamptz + make_interval(secs => ${claimSeconds}), attempts = attempts + 1
        where p.id in (
          select id from notification_pushes
          where sent_at is null and due_at <= ${now.toISOString()}::timestamptz
            and (claimed_until is null or claimed_until < ${now.toISOString()}::timestamptz)
          order by due_at limit ${limit}
          for update skip locked
        )
        returning p.id, p.user_id, p.account_id, p.category, p.type, p.load_id, p.reference_id, p.params, p.link, p.attempts`,
  );
}

/** A push is done (sent, nothing to send to, or given up). */
export async function markPushSent(db: DbOrTx, id: string): Promise<void> {
  await db.execute(sql`update notification_pushes set sent_at = now(), claimed_until = null where id = ${id}::uuid`);
}

/** Try a push again at `at` (a push service failed). */
export async function retryPushAt(db: DbOrTx, id: string, at: Date): Promise<void> {
  await db.execute(sql`update notification_pushes set due_at = ${at.toISOString()}::timestamptz, claimed_until = null where id = ${id}::uuid`);
}

/** Delete up to `limit` pushes done before `before`. Returns how many. */
export async function pruneSentPushes(db: DbOrTx, before: Date, limit = 5000): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from notification_pushes where id in (
          select id from notification_pushes where sent_at is not null and sent_at < ${before.toISOString()}::timestamptz limit ${limit}
        ) returning id`,
  );
  return rows.length;
}
