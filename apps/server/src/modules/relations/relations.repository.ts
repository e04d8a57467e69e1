import { sql } from 'drizzle-orm';
import type { AccountSettings, AccountSettingsPatch, RelationKind } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/**
 * All SQL of the relations module (tables user_favourites, user_blocks, contact_settings,
 * migration 0091; reads users for the other company's name, type and approval).
 */

/**
 * The users hidden from `viewerId` (a block either way: those I blocked ∪ those who blocked me).
 * Two index reads: the primary key (blocker_id, …) and user_blocks_blocked_idx (blocked_id, …).
 * Prepared as `hidden_ids` (generic plan; on PGlite one protocol round trip instead of six).
 */
export async function hiddenIds(db: DbOrTx, viewerId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select blocked_id as id from user_blocks where blocker_id = ${viewerId}
        union
        select blocker_id from user_blocks where blocked_id = ${viewerId}`,
    // every board search of a signed-in viewer reads it (board.service.ts): prepared, and its
    // generic plan (the two index reads whatever the viewer) planned once per connection
    'hidden_ids',
    'generic',
  );
  return rows.map((r) => r.id);
}

/** Has either of the two blocked the other? */
export async function blockedBetween(db: DbOrTx, a: string, b: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from user_blocks where (blocker_id = ${a} and blocked_id = ${b}) or (blocker_id = ${b} and blocked_id = ${a}) limit 1`,
    // every load details request of a signed-in viewer asks (issue 45): prepared, its generic plan planned once per connection
    'blocked_between',
    'generic',
  );
  return rows.length > 0;
}

/** Has `owner` favourited `target`? */
export async function isFavourite(db: DbOrTx, owner: string, target: string): Promise<boolean> {
  return (await queryRows(db, sql`select 1 from user_favourites where user_id = ${owner} and target_id = ${target}`)).length > 0;
}

/** Has `blocker` blocked `blocked`? */
export async function isBlocked(db: DbOrTx, blocker: string, blocked: string): Promise<boolean> {
  return (await queryRows(db, sql`select 1 from user_blocks where blocker_id = ${blocker} and blocked_id = ${blocked}`)).length > 0;
}

/** The user's company name, or undefined when there is no such user (or it was deleted). */
export async function companyOf(db: DbOrTx, userId: string): Promise<string | undefined> {
  const [r] = await queryRows<{ company_name: string }>(db, sql`select company_name from users where id = ${userId} and status <> 4`);
  return r?.company_name;
}

/** Serialise writes to one user's list (the 1,000 limit) for the rest of the transaction. */
export async function lockList(tx: DbOrTx, kind: RelationKind, userId: string): Promise<void> {
  await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`masar.${kind}.${userId}`}))`);
}

const TABLE = {
  favourite: { table: sql.raw('user_favourites'), owner: sql.raw('user_id'), other: sql.raw('target_id'), reason: sql.raw('null::text') },
  blocked: { table: sql.raw('user_blocks'), owner: sql.raw('blocker_id'), other: sql.raw('blocked_id'), reason: sql.raw('r.reason') },
} as const;

export async function countList(db: DbOrTx, kind: RelationKind, userId: string): Promise<number> {
  const t = TABLE[kind];
  const [r] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${t.table} where ${t.owner} = ${userId}`);
  return Number(r.n);
}

export interface RelationRow {
  user_id: string;
  company_name: string;
  account_type: number;
  status: number;
  reason: string | null;
  created_at: Date | string;
  /** created_at as PostgreSQL text (microseconds): the keyset cursor. */
  k: string;
}

/**
 * One page of my favourites or blocked users, newest first (created_at desc, other id desc),
 * after the keyset `after` (the last row of the previous page), at most `limit` rows.
 */
export async function listPage(db: DbOrTx, kind: RelationKind, userId: string, limit: number, after: { k: string; id: string } | null): Promise<RelationRow[]> {
  const t = TABLE[kind];
  return queryRows<RelationRow>(
    db,
    sql`select r.${t.other} as user_id, u.company_name, u.account_type::int as account_type, u.status::int as status,
          ${t.reason} as reason, r.created_at, r.created_at::text as k
        from ${t.table} r join users u on u.id = r.${t.other}
        where r.${t.owner} = ${userId}
          ${after ? sql`and (r.created_at, r.${t.other}) < (${after.k}::timestamptz, ${after.id}::uuid)` : sql``}
        order by r.created_at desc, r.${t.other} desc
        limit ${limit}`,
  );
}

/** One entry of my list (after an add), or undefined. */
export async function entry(db: DbOrTx, kind: RelationKind, userId: string, otherId: string): Promise<RelationRow | undefined> {
  const t = TABLE[kind];
  const [r] = await queryRows<RelationRow>(
    db,
    sql`select r.${t.other} as user_id, u.company_name, u.account_type::int as account_type, u.status::int as status,
          ${t.reason} as reason, r.created_at, r.created_at::text as k
        from ${t.table} r join users u on u.id = r.${t.other}
        where r.${t.owner} = ${userId} and r.${t.other} = ${otherId}`,
  );
  return r;
}

export async function insertFavourite(tx: DbOrTx, userId: string, targetId: string): Promise<void> {
  await queryRows(tx, sql`insert into user_favourites (user_id, target_id) values (${userId}, ${targetId}) on conflict do nothing`);
}
export async function insertBlock(tx: DbOrTx, blockerId: string, blockedId: string, reason: string | null): Promise<void> {
  await queryRows(tx, sql`insert into user_blocks (blocker_id, blocked_id, reason) values (${blockerId}, ${blockedId}, ${reason}) on conflict do nothing`);
}
/** Remove `userId`'s entry for `otherId` from a list; whether there was one. */
export async function deleteEntry(db: DbOrTx, kind: RelationKind, userId: string, otherId: string): Promise<boolean> {
  const t = TABLE[kind];
  const rows = await queryRows(db, sql`delete from ${t.table} where ${t.owner} = ${userId} and ${t.other} = ${otherId} returning 1`);
  return rows.length > 0;
}
/** Both favourites of a pair (a block removes them). */
export async function deleteFavouritesBetween(tx: DbOrTx, a: string, b: string): Promise<void> {
  await queryRows(tx, sql`delete from user_favourites where (user_id = ${a} and target_id = ${b}) or (user_id = ${b} and target_id = ${a}) returning 1`);
}

export async function findSettings(db: DbOrTx, userId: string): Promise<AccountSettings | undefined> {
  const [r] = await queryRows<AccountSettings>(db, sql`select chat, audio, video from contact_settings where user_id = ${userId}`);
  return r;
}
/** Save the given channels (the others keep their value, or the default for a new row). */
export async function patchSettings(db: DbOrTx, userId: string, patch: AccountSettingsPatch): Promise<void> {
  const cols = (['chat', 'audio', 'video'] as const).filter((c) => patch[c] !== undefined);
  if (!cols.length) return;
  const names = sql.raw(cols.join(', '));
  const values = sql.join(
    cols.map((c) => sql`${patch[c]}`),
    sql`, `,
  );
  const set = sql.raw(cols.map((c) => `${c} = excluded.${c}`).join(', '));
  await queryRows(
    db,
    sql`insert into contact_settings (user_id, ${names}) values (${userId}, ${values})
        on conflict (user_id) do update set ${set}, updated_at = now() returning 1`,
  );
}
