import { sql, type SQL } from 'drizzle-orm';
import type { TenderInviteStatus, TenderMode, TenderStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { tenderInvites, tenders } from '../../db/schema/index.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { inList, queryRows } from '../../lib/sql.ts';

/**
 * Tenders and their invites (migration 0107; issue 19 "Tendering"). Rows are inserted here;
 * their statuses change only in lifecycle.repository.ts (through lifecycle.ts). Reads join the
 * loads, users, cities, vehicles and user_blocks tables for display and compliance (read only).
 */

export type NewTender = typeof tenders.$inferInsert;
export type NewInvite = typeof tenderInvites.$inferInsert;

export async function insertTender(tx: DbOrTx, t: NewTender, invites: NewInvite[]) {
  await tx.insert(tenders).values(t);
  await tx.insert(tenderInvites).values(invites);
}

export interface TenderState {
  id: string;
  load_id: string;
  owner_id: string;
  mode: TenderMode;
  status: TenderStatus;
  target_rate: string | null;
  step_minutes: number;
  post_on_close: boolean;
  /** The deadline, ms since the epoch. */
  deadline_ms: number;
  past_deadline: boolean;
}

/** A tender's state; locked FOR UPDATE when `lock` (the award, the answers and the job queue on it). */
export async function tenderState(db: DbOrTx, id: string, lock = false): Promise<TenderState | null> {
  const [r] = await queryRows<TenderState>(
    db,
    sql`select id, load_id, owner_id, mode, status, target_rate::text as target_rate, step_minutes, post_on_close, (extract(epoch from deadline) * 1000)::float8 as deadline_ms,
          deadline <= now() as past_deadline
        from tenders where id = ${id}${lock ? sql` for update` : sql``}`,
  );
  return r ?? null;
}

export interface InviteState {
  id: string;
  tender_id: string;
  carrier_id: string;
  position: number;
  status: TenderInviteStatus;
  amount: string | null;
  window_ended: boolean;
}

const inviteCols = sql`id, tender_id, carrier_id, position, status, amount::text as amount,
  (window_ends_at is not null and window_ends_at <= now()) as window_ended`;

/** An invite by id (FOR UPDATE when `lock`). */
export async function inviteState(db: DbOrTx, id: string, lock = false): Promise<InviteState | null> {
  const [r] = await queryRows<InviteState>(db, sql`select ${inviteCols} from tender_invites where id = ${id}${lock ? sql` for update` : sql``}`);
  return r ?? null;
}

/** `carrierId`'s invite to a tender, if any. */
export async function inviteOf(db: DbOrTx, tenderId: string, carrierId: string): Promise<InviteState | null> {
  const [r] = await queryRows<InviteState>(db, sql`select ${inviteCols} from tender_invites where tender_id = ${tenderId} and carrier_id = ${carrierId}`);
  return r ?? null;
}

/** The invites of a tender in `statuses`, in waterfall order. */
export async function invitesIn(db: DbOrTx, tenderId: string, statuses: TenderInviteStatus[]): Promise<InviteState[]> {
  return queryRows<InviteState>(
    db,
    sql`select ${inviteCols} from tender_invites where tender_id = ${tenderId} and status in ${inList(statuses)} order by position`,
  );
}

/** Accounts that may be invited: carriers and brokers (types 2, 3) that are not suspended or deleted. */
export async function invitableAccounts(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await queryRows<{ id: string }>(db, sql`select id from users where id in ${inList(ids)} and account_type in (2, 3) and status not in (3, 4)`);
  return new Set(rows.map((r) => r.id));
}

/**
 * Open tenders past their deadline, oldest first, locked for the tender job (SKIP LOCKED: one
 * being awarded right now is left for the next tick). A range of the partial index
 * tenders_open_deadline: a run reads only what is due.
 */
export async function dueTenders(tx: DbOrTx, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id from tenders where status = 'open' and deadline <= now() order by deadline limit ${limit} for update skip locked`,
  );
  return rows.map((r) => r.id);
}
export const DUE_TENDERS_SQL = `select id from tenders where status = 'open' and deadline <= now() order by deadline limit 500`;

/** The tenders with a waterfall turn that ended unanswered (partial index tender_invites_window_due), oldest first. */
export async function dueWindows(db: DbOrTx, limit: number): Promise<string[]> {
  const rows = await queryRows<{ tender_id: string }>(
    db,
    sql`select tender_id from tender_invites where status = 'invited' and window_ends_at is not null and window_ends_at <= now()
        order by window_ends_at limit ${limit}`,
  );
  return [...new Set(rows.map((r) => r.tender_id))];
}
export const DUE_WINDOWS_SQL = `select tender_id from tender_invites where status = 'invited' and window_ends_at is not null and window_ends_at <= now() order by window_ends_at limit 500`;

// ---- lists (keyset) ----

const TAG = { sent: 'tenders:sent', received: 'tenders:received' } as const;

function after(tab: 'sent' | 'received', cursor: string | undefined, col: SQL, idCol: SQL): SQL {
  if (!cursor) return sql`true`;
  const c = decodeCursor(cursor, TAG[tab], ['timestamptz']);
  return sql`(${col}, ${idCol}) < (${c.key[0]}::timestamptz, ${c.id}::uuid)`;
}

/** My tenders (sent), newest first: index tenders_owner. */
export async function sentIds(db: DbOrTx, ownerId: string, limit: number, cursor?: string) {
  const rows = await queryRows<{ id: string; k: string }>(
    db,
    sql`select t.id, t.created_at::text as k from tenders t
        where t.owner_id = ${ownerId} and ${after('sent', cursor, sql`t.created_at`, sql`t.id`)}
        order by t.created_at desc, t.id desc limit ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  return { ids: page.map((r) => r.id), nextCursor: rows.length > limit ? encodeCursor(TAG.sent, [page[page.length - 1].k], page[page.length - 1].id) : null };
}

/** Tenders I was invited to (received; not my waterfall turns still waiting), newest invite first: index tender_invites_carrier. */
export async function receivedIds(db: DbOrTx, carrierId: string, limit: number, cursor?: string) {
  const rows = await queryRows<{ id: string; tender_id: string; k: string }>(
    db,
    sql`select i.id, i.tender_id, i.invited_at::text as k from tender_invites i
        where i.carrier_id = ${carrierId} and i.invited_at is not null and ${after('received', cursor, sql`i.invited_at`, sql`i.id`)}
        order by i.invited_at desc, i.id desc limit ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  return {
    ids: page.map((r) => r.tender_id),
    nextCursor: rows.length > limit ? encodeCursor(TAG.received, [page[page.length - 1].k], page[page.length - 1].id) : null,
  };
}

// ---- hydration ----

export interface TenderRow {
  id: string;
  load_id: string;
  reference_id: string;
  load_status: string;
  load_price: string;
  from_en: string;
  from_ar: string;
  to_en: string;
  to_ar: string;
  pickup_at: string | null;
  equipment_type: string;
  owner_id: string;
  owner_company: string;
  mode: TenderMode;
  deadline: string;
  target_rate: string | null;
  step_minutes: number;
  post_on_close: boolean;
  status: TenderStatus;
  awarded_invite_id: string | null;
  created_at: string;
}

export interface InviteRow {
  id: string;
  tender_id: string;
  carrier_id: string;
  carrier_company: string;
  position: number;
  status: TenderInviteStatus;
  amount: string | null;
  answered_at: string | null;
  invited_at: string | null;
  window_ends_at: string | null;
  verified: boolean;
  wasl_verified: boolean;
  blocked: boolean;
}

/** The tenders `ids` with their load (reference, lane, price) and owner. */
export async function tenderRows(db: DbOrTx, ids: string[]): Promise<TenderRow[]> {
  if (!ids.length) return [];
  return queryRows<TenderRow>(
    db,
    sql`select t.id, t.load_id, l.reference_id, l.status as load_status, l.price::text as load_price,
          pc.name_en as from_en, pc.name_ar as from_ar, dc.name_en as to_en, dc.name_ar as to_ar, l.pickup_at, l.equipment_type,
          t.owner_id, u.company_name as owner_company, t.mode, t.deadline, t.target_rate::text as target_rate, t.step_minutes,
          t.post_on_close, t.status, t.awarded_invite_id, t.created_at
        from tenders t
        join loads l on l.id = t.load_id
        join users u on u.id = t.owner_id
        join cities pc on pc.id = l.pickup_city_id
        join cities dc on dc.id = l.drop_city_id
        where t.id in ${inList(ids)}`,
  );
}

/**
 * The invites of `tenderIds` (only `carrierId`'s when given), with the carrier's company and
 * compliance: verified (approved account), a WASL-verified active vehicle, and whether the tender's
 * owner and the carrier block each other (issue 8).
 */
export async function inviteRows(db: DbOrTx, tenderIds: string[], carrierId?: string): Promise<InviteRow[]> {
  if (!tenderIds.length) return [];
  return queryRows<InviteRow>(
    db,
    sql`select i.id, i.tender_id, i.carrier_id, u.company_name as carrier_company, i.position, i.status, i.amount::text as amount,
          i.answered_at, i.invited_at, i.window_ends_at, u.status = 2 as verified,
          exists (select 1 from vehicles v where v.owner_id = i.carrier_id and v.state = 'active' and v.wasl_status = 'verified') as wasl_verified,
          exists (select 1 from user_blocks b where (b.blocker_id = t.owner_id and b.blocked_id = i.carrier_id)
                                              or (b.blocker_id = i.carrier_id and b.blocked_id = t.owner_id)) as blocked
        from tender_invites i
        join tenders t on t.id = i.tender_id
        join users u on u.id = i.carrier_id
        where i.tender_id in ${inList(tenderIds)}${carrierId ? sql` and i.carrier_id = ${carrierId}` : sql``}
        order by i.tender_id, i.position`,
  );
}

/** Was `carrierId` invited (its turn came) to a tender of `loadId`? (the chat module's parties) */
export async function invitedOnLoad(db: DbOrTx, loadId: string, carrierId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from tender_invites i join tenders t on t.id = i.tender_id
        where t.load_id = ${loadId} and i.carrier_id = ${carrierId} and i.invited_at is not null limit 1`,
  );
  return rows.length > 0;
}
