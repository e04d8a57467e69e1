import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/*
 * The notifications' tables (migration 0114; docs/notifications.md). The unread counter of a user
 * moves in the same statement as the rows it counts: an insert adds what it inserted (a
 * redelivered event inserts nothing, the (event_id, user_id) key), a mark-read subtracts what it
 * flipped from unread to read (a row already read is not counted again).
 *
 * Read watermark (issue 48, migration 0133): a notification is read when its `read_at` is set (a
 * single read) OR its id is at or below its user's `notification_counters.read_upto` (mark all
 * read: one counter row written, whatever the number of notifications). Ids are UUIDv7, so "at or
 * below" means "made no later than the newest one when mark-all ran". Every mark-read locks the
 * user's counter row first, so the watermark it reads stays put until it commits; an insert adds to
 * the counter only its rows above the watermark (a row made before a mark-all but committed after
 * it is read, in the list and the counter alike).
 */

/** Below every UUID: the watermark of a user who never marked all read. */
const NO_WATERMARK = '00000000-0000-0000-0000-000000000000';

export interface NotificationRow {
  id: string;
  user_id: string;
  type: string;
  category: string;
  load_id: string | null;
  reference_id: string | null;
  params: Record<string, string | number>;
  link: string;
  created_at: Date | string;
  read_at: Date | string | null;
}

export interface NewNotification {
  id: string;
  userId: string;
  accountId: string;
  type: string;
  category: string;
  eventId: string;
  loadId: string | null;
  referenceId: string | null;
  params: Record<string, string | number>;
  link: string;
}

/** Insert notifications (those already there for their event and user are skipped) and add the inserted ones to their users' unread counters. Returns how many were inserted. */
export async function insertNotifications(tx: DbOrTx, rows: NewNotification[]): Promise<number> {
  if (!rows.length) return 0;
  // counters in user order: two drains never lock them in opposite orders
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.id}::uuid, ${r.userId}::uuid, ${r.accountId}::uuid, ${r.type}, ${r.category}, ${r.eventId}::uuid, ${r.loadId}::uuid, ${r.referenceId}, ${JSON.stringify(r.params)}::jsonb, ${r.link})`,
    ),
    sql`, `,
  );
  const [r] = await queryRows<{ n: number }>(
    tx,
    sql`with ins as (
          insert into notifications (id, user_id, account_id, type, category, event_id, load_id, reference_id, params, link)
          values ${values}
          on conflict (event_id, user_id) do nothing
          returning id, user_id
        ), counted as (
          insert into notification_counters as c (user_id, unread)
          select user_id, count(*)::int from ins group by user_id order by user_id
          on conflict (user_id) do update
            set unread = c.unread + (select count(*)::int from ins where ins.user_id = c.user_id and ins.id > coalesce(c.read_upto, ${NO_WATERMARK}::uuid))
          returning 1
        )
        select (select count(*) from ins)::int as n, (select count(*) from counted)::int as c`,
  );
  return r?.n ?? 0;
}

/**
 * A page of a user's notifications, newest first (id desc: ids are UUIDv7, time-ordered), after
 * `cursor` (the last id of the previous page); only unread, or of one category, when asked. One
 * index range (user_id, id desc) — partial for unread, (user_id, category, id desc) for a category.
 */
export async function listOf(db: DbOrTx, userId: string, q: ListQuery): Promise<NotificationRow[]> {
  return queryRows<NotificationRow>(db, listSql(userId, q, await watermarkOf(db, userId)));
}

/** What listOf filters by: after `cursor`, only unread, one category; `limit` rows. */
export interface ListQuery {
  cursor?: string;
  unreadOnly: boolean;
  category?: string;
  limit: number;
}

/** A user's read watermark (issue 48): notifications with id <= `upto` were marked read at `at` by mark-all. */
export interface Watermark {
  upto: string;
  at: Date | string;
}

/** The user's read watermark (one primary-key read of the counter row); null when never marked all read. */
export async function watermarkOf(db: DbOrTx, userId: string): Promise<Watermark | null> {
  const [r] = await queryRows<{ upto: string | null; at: Date | string | null }>(
    db,
    sql`select read_upto as upto, read_upto_at as at from notification_counters where user_id = ${userId}`,
  );
  return r?.upto && r.at ? { upto: r.upto, at: r.at } : null;
}

/**
 * The statement listOf runs with the user's watermark (bench/notifications.bench.ts explains it as
 * is). The watermark is a bound value, not a subquery, so the planner estimates `id > upto` from the
 * statistics: the unread list is the range above the watermark — of the user's partial index on
 * unread rows, or of the primary key when few rows of anyone are newer — never the rows it marked
 * read. `read_at` of a row read by the watermark is the time of that mark-all.
 */
export function listSql(userId: string, q: ListQuery, mark: Watermark | null): SQL {
  const at = mark ? new Date(mark.at).toISOString() : null;
  return sql`select id, user_id, type, category, load_id, reference_id, params, link, created_at,
          ${mark ? sql`coalesce(read_at, case when id <= ${mark.upto}::uuid then ${at}::timestamptz end)` : sql`read_at`} as read_at
        from notifications
        where user_id = ${userId}
          ${q.cursor ? sql`and id < ${q.cursor}` : sql``}
          ${q.unreadOnly ? sql`and read_at is null` : sql``}
          ${q.unreadOnly && mark ? sql`and id > ${mark.upto}::uuid` : sql``}
          ${q.category ? sql`and category = ${q.category}` : sql``}
        order by id desc
        limit ${q.limit}`;
}

/** A user's unread count (the counter row; 0 without one). */
export async function unreadOf(db: DbOrTx, userId: string): Promise<number> {
  const [r] = await queryRows<{ unread: number }>(db, sql`select unread from notification_counters where user_id = ${userId}`);
  return r?.unread ?? 0;
}

/**
 * Mark a user's notifications read (`ids`, only theirs; or all of theirs) and take the ones that
 * were unread off the counter. Locks the user's counter row first (the watermark stays put).
 * `all` writes the counter row only (issue 48): `read_upto` = the user's newest notification id,
 * unread 0 — O(1) rows whatever the count; `ids` sets `read_at` on those still unread (above the
 * watermark, `read_at` null). Returns how many were marked and the unread count after.
 */
export async function markRead(tx: DbOrTx, userId: string, ids: string[] | 'all'): Promise<{ marked: number; unread: number }> {
  const [counter] = await queryRows<{ unread: number; read_upto: string | null }>(
    tx,
    sql`select unread, read_upto from notification_counters where user_id = ${userId} for update`,
  );
  // no counter row: no notification was ever stored for the user (an insert creates it)
  if (!counter) return { marked: 0, unread: 0 };
  if (ids === 'all') {
    if (counter.unread === 0) return { marked: 0, unread: 0 };
    await tx.execute(
      sql`update notification_counters
          set unread = 0, read_upto_at = now(),
              read_upto = greatest(read_upto, (select id from notifications where user_id = ${userId} order by id desc limit 1))
          where user_id = ${userId}`,
    );
    return { marked: counter.unread, unread: 0 };
  }
  const [r] = await queryRows<{ marked: number; unread: number | null }>(
    tx,
    sql`with upd as (
          update notifications set read_at = now()
          where user_id = ${userId} and read_at is null and id > ${counter.read_upto ?? NO_WATERMARK}::uuid
            and id in (${sql.join(
              ids.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})
          returning 1
        ), c as (
          update notification_counters set unread = unread - (select count(*) from upd)::int
          where user_id = ${userId}
          returning unread
        )
        select (select count(*) from upd)::int as marked, (select unread from c) as unread`,
  );
  return { marked: r?.marked ?? 0, unread: r?.unread ?? 0 };
}

/** The users' account type, e-mail, language and status (users table; read only). */
export interface UserInfo {
  id: string;
  account_type: number;
  email: string;
  language: string;
  status: number;
}
export async function usersInfo(db: DbOrTx, ids: string[]): Promise<Map<string, UserInfo>> {
  if (!ids.length) return new Map();
  const rows = await queryRows<UserInfo>(
    db,
    sql`select id, account_type, email, language, status from users where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export interface PreferencesRow {
  user_id: string;
  channels: Record<string, Record<string, boolean>>;
  quiet_from: string | null;
  quiet_to: string | null;
  digest_minutes: number;
}
/** The saved preferences of these users (users without a row are absent: defaults apply). */
export async function preferencesOf(db: DbOrTx, userIds: string[]): Promise<Map<string, PreferencesRow>> {
  if (!userIds.length) return new Map();
  const rows = await queryRows<PreferencesRow>(
    db,
    sql`select user_id, channels, quiet_from, quiet_to, digest_minutes from notification_preferences where user_id in (${sql.join(
      userIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return new Map(rows.map((r) => [r.user_id, r]));
}

/** Save a user's preferences (whole: every category and channel). */
export async function upsertPreferences(
  db: DbOrTx,
  userId: string,
  p: { channels: Record<string, Record<string, boolean>>; quietFrom: string | null; quietTo: string | null; digestMinutes: number },
): Promise<void> {
  await db.execute(
    sql`insert into notification_preferences (user_id, channels, quiet_from, quiet_to, digest_minutes, updated_at)
        values (${userId}, ${JSON.stringify(p.channels)}::jsonb, ${p.quietFrom}, ${p.quietTo}, ${p.digestMinutes}, now())
        on conflict (user_id) do update set channels = excluded.channels, quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to,
          digest_minutes = excluded.digest_minutes, updated_at = now()`,
  );
}

/** Per user, for one category: when an e-mail was last sent and when the pending batch (if any) is due. */
export async function emailStateOf(db: DbOrTx, userIds: string[], category: string): Promise<Map<string, { lastSent: Date | null; pendingDue: Date | null }>> {
  if (!userIds.length) return new Map();
  const rows = await queryRows<{ user_id: string; last_sent: string | Date | null; pending_due: string | Date | null }>(
    db,
    sql`select user_id, max(sent_at) as last_sent, min(due_at) filter (where sent_at is null) as pending_due
        from notification_emails
        where category = ${category} and user_id in (${sql.join(
          userIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        group by user_id`,
  );
  const d = (v: string | Date | null) => (v === null ? null : new Date(v));
  return new Map(rows.map((r) => [r.user_id, { lastSent: d(r.last_sent), pendingDue: d(r.pending_due) }]));
}

export interface NewEmail {
  id: string;
  userId: string;
  category: string;
  type: string;
  eventId: string;
  referenceId: string | null;
  params: Record<string, string | number>;
  link: string;
  dueAt: Date;
}
/** Queue e-mails (one per event and user; a redelivered event queues nothing). */
export async function enqueueEmails(tx: DbOrTx, rows: NewEmail[]): Promise<void> {
  if (!rows.length) return;
  await tx.execute(
    sql`insert into notification_emails (id, user_id, category, type, event_id, reference_id, params, link, due_at)
        values ${sql.join(
          rows.map(
            (r) =>
              sql`(${r.id}::uuid, ${r.userId}::uuid, ${r.category}, ${r.type}, ${r.eventId}::uuid, ${r.referenceId}, ${JSON.stringify(r.params)}::jsonb, ${r.link}, ${r.dueAt.toISOString()}::timestamptz)`,
          ),
          sql`, `,
        )}
        on conflict (event_id, user_id) do nothing`,
  );
}

/** The (user, category) batches with an unsent e-mail due by `now`, oldest first. */
export function dueEmailBatches(db: DbOrTx, now: Date, limit: number): Promise<{ user_id: string; category: string }[]> {
  return queryRows(
    db,
    sql`select user_id, category from notification_emails
        where sent_at is null and due_at <= ${now.toISOString()}::timestamptz
        group by user_id, category order by min(due_at) limit ${limit}`,
  );
}

export interface QueuedEmailRow {
  id: string;
  type: string;
  reference_id: string | null;
  params: Record<string, string | number>;
  link: string;
}
/** Lock the unsent e-mails of a batch (skipping rows another flusher holds), oldest first. */
export function lockBatch(tx: DbOrTx, userId: string, category: string): Promise<QueuedEmailRow[]> {
  return queryRows<QueuedEmailRow>(
    tx,
    sql`select id, type, reference_id, params, link from notification_emails
        where user_id = ${userId} and category = ${category} and sent_at is null
        order by created_at, id
        for update skip locked`,
  );
}

/** Stamp e-mails as sent (one message carried them). */
export async function markEmailsSent(tx: DbOrTx, ids: string[], at: Date): Promise<void> {
  if (!ids.length) return;
  await tx.execute(
    sql`update notification_emails set sent_at = ${at.toISOString()}::timestamptz where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
}

/** Delete up to `limit` e-mails sent before `before` (the digest needs only the last day's). Returns how many. */
export async function pruneSentEmails(db: DbOrTx, before: Date, limit = 5000): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from notification_emails where id in (
          select id from notification_emails where sent_at is not null and sent_at < ${before.toISOString()}::timestamptz limit ${limit}
        ) returning id`,
  );
  return rows.length;
}

/**
 * The smallest UUIDv7 of millisecond `at`: every id made at or after `at` sorts after it, every
 * id made before sorts before it — so "created before `at`" is a primary-key range.
 */
export function uuidV7Floor(at: Date): string {
  const hex = Math.max(0, Math.floor(at.getTime())).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/**
 * Forget up to `batch` notifications created before `before` (an index range on the primary key:
 * ids are UUIDv7), read or not, and take the unread ones off their users' counters in the same
 * statement. Returns how many were deleted.
 */
export async function deleteNotificationsBefore(tx: DbOrTx, before: Date, batch: number): Promise<number> {
  const [r] = await queryRows<{ n: number }>(
    tx,
    sql`with gone as (
          delete from notifications where id in (
            select id from notifications where id < ${uuidV7Floor(before)}::uuid order by id limit ${batch} for update skip locked)
          returning id, user_id, read_at is null as unread
        ), counted as (
          -- unread: read_at null and above the user's watermark (issue 48)
          update notification_counters c
          set unread = greatest(0, c.unread - (select count(*)::int from gone g where g.user_id = c.user_id and g.unread and g.id > coalesce(c.read_upto, ${NO_WATERMARK}::uuid)))
          where c.user_id in (select user_id from gone where unread)
          returning 1
        )
        select (select count(*)::int from gone) as n, (select count(*) from counted) as c`,
  );
  return Number(r?.n ?? 0);
}
