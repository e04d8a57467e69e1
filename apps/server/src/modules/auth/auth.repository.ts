import { and, asc, count, eq, gt, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { PROFILE_STATUS, type AccountType, type TeamRole } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from './auth.types.ts';
import { otps, PLAN_IN_FORCE, sessions, subscriptions, teamMembers, users } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';

/** All SQL of the auth module: users, OTPs and sessions (refresh-token families); reads who a session acts for (team_members). */

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type OtpRow = typeof otps.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
type NewSessionRow = typeof sessions.$inferInsert;

// ── users ────────────────────────────────────────────────────────────────────────────────────

export async function findUserByPhone(db: DbOrTx, phone: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.phone, phone)).limit(1);
  return rows[0];
}

/** The user of `phone`, row-locked until the transaction ends (operator status changes). */
export async function lockUserByPhone(tx: DbOrTx, phone: string): Promise<UserRow | undefined> {
  const rows = await tx.select().from(users).where(eq(users.phone, phone)).for('update').limit(1);
  return rows[0];
}

/** Accounts in `status`, oldest first (the operator's approval queue). */
export async function listUsersByStatus(db: DbOrTx, status: number) {
  return db
    .select({
      phone: users.phone,
      firstName: users.firstName,
      lastName: users.lastName,
      companyName: users.companyName,
      accountType: users.accountType,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.status, status))
    .orderBy(asc(users.createdAt));
}

/** Give a user an active subscription (demo accounts; plans and checkout come with issue 8). */

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

/** E-mails are unique case-insensitively (index users_email_unique on lower(email)). */
export async function emailTaken(db: DbOrTx, email: string, exceptUserId?: string): Promise<boolean> {
  const cond = sql`lower(${users.email}) = ${email.toLowerCase()}`;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(exceptUserId ? and(cond, ne(users.id, exceptUserId)) : cond)
    .limit(1);
  return rows.length > 0;
}

export async function insertUser(db: DbOrTx, row: NewUserRow): Promise<void> {
  await db.insert(users).values(row);
}

export async function updateUser(db: DbOrTx, id: string, patch: Partial<Omit<NewUserRow, 'id'>>): Promise<UserRow | undefined> {
  const rows = await db.update(users).set(patch).where(eq(users.id, id)).returning();
  return rows[0];
}

/**
 * Clear the one-shot "first login after approval" flag. Returns true only for the call that
 * actually cleared it, so the flag is reported exactly once even under concurrent reads.
 */
export async function takeFirstLoginAfterApproval(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ isFirstTimeLoginAfterApproved: false })
    .where(and(eq(users.id, id), eq(users.isFirstTimeLoginAfterApproved, true)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Count one wrong password in the account's sliding window: a window older than `windowStart`
 * restarts at 1. Atomic (one UPDATE), so concurrent guesses all count.
 */
export async function recordFailedLogin(db: DbOrTx, id: string, now: Date, windowStart: Date): Promise<void> {
  const stale = sql`(${users.failedLoginWindowAt} is null or ${users.failedLoginWindowAt} <= ${windowStart})`;
  await db
    .update(users)
    .set({
      failedLogins: sql`case when ${stale} then 1 else ${users.failedLogins} + 1 end`,
      failedLoginWindowAt: sql`case when ${stale} then ${now}::timestamptz else ${users.failedLoginWindowAt} end`,
    })
    .where(eq(users.id, id));
}

export async function clearFailedLogins(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(users)
    .set({ failedLogins: 0, failedLoginWindowAt: null })
    .where(and(eq(users.id, id), gt(users.failedLogins, 0)));
}

export async function activeSubscriptionId(db: DbOrTx, userId: string): Promise<string | null> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), PLAN_IN_FORCE))
    .limit(1);
  return rows[0]?.id ?? null;
}

// ── OTPs ─────────────────────────────────────────────────────────────────────────────────────

export async function insertOtp(db: DbOrTx, row: typeof otps.$inferInsert): Promise<void> {
  await db.insert(otps).values(row);
}

export async function findOtp(db: DbOrTx, id: string): Promise<OtpRow | undefined> {
  const rows = await db.select().from(otps).where(eq(otps.id, id)).limit(1);
  return rows[0];
}

/** OTPs sent to `phone` since `since` (index otps_phone_created). */
export async function countOtpsForPhone(db: DbOrTx, phone: string, since: Date): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(otps)
    .where(and(eq(otps.phone, phone), gt(otps.createdAt, since)));
  return Number(r?.n ?? 0);
}

/** OTPs requested from `ip` since `since` (index otps_ip_created). */
export async function countOtpsForIp(db: DbOrTx, ip: string, since: Date): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(otps)
    .where(and(eq(otps.ip, ip), gt(otps.createdAt, since)));
  return Number(r?.n ?? 0);
}

/** Count one wrong code; returns the attempts after the increment (atomic). */
export async function addOtpAttempt(db: DbOrTx, id: string): Promise<number> {
  const rows = await db
    .update(otps)
    .set({ attempts: sql`${otps.attempts} + 1` })
    .where(eq(otps.id, id))
    .returning({ attempts: otps.attempts });
  return rows[0]?.attempts ?? Number.MAX_SAFE_INTEGER;
}

/**
 * Mark the OTP used. Only one caller can win (consumed_at is null in the WHERE), and only while
 * it is alive (not expired at `now`, attempts below `maxAttempts`). Returns false otherwise.
 */
export async function consumeOtp(db: DbOrTx, id: string, now: Date, maxAttempts: number): Promise<boolean> {
  const rows = await db
    .update(otps)
    .set({ consumedAt: now })
    .where(and(eq(otps.id, id), isNull(otps.consumedAt), gt(otps.expiresAt, now), lt(otps.attempts, maxAttempts)))
    .returning({ id: otps.id });
  return rows.length > 0;
}

// ── sessions ─────────────────────────────────────────────────────────────────────────────────

export async function insertSession(db: DbOrTx, row: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(row);
}

export async function findSessionByRefreshHash(db: DbOrTx, refreshHash: string): Promise<SessionRow | undefined> {
  const rows = await db.select().from(sessions).where(eq(sessions.refreshHash, refreshHash)).limit(1);
  return rows[0];
}

export async function findSession(db: DbOrTx, id: string): Promise<SessionRow | undefined> {
  const rows = await db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
  return rows[0];
}

/**
 * Retire a refresh token for rotation. Atomic: of two concurrent rotations of the same token
 * only one gets true; the other is treated as reuse.
 */
export async function markRotated(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ rotatedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.rotatedAt), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/**
 * When a live (not revoked) session row was retired by rotation, locking the row for the rest of
 * the transaction (as markRotated does); null when it was not retired, or is revoked.
 */
export async function lockRotatedAt(db: DbOrTx, id: string): Promise<Date | null> {
  const rows = await db
    .select({ rotatedAt: sessions.rotatedAt })
    .from(sessions)
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .for('update')
    .limit(1);
  return rows[0]?.rotatedAt ?? null;
}

/**
 * Revoke the live sessions matching `where`, setting `set` beside revoked_at; returns how many.
 *
 * Runs in passes until a pass revokes nothing. A rotation in flight (generateToken) holds a row
 * lock on the session it rotates and inserts the successor in the same transaction. The first
 * pass waits on that lock and revokes the old row, but the successor committed after the pass's
 * snapshot was taken, so it stays live: a logout or password change raced by a refresh left one
 * working token. The next pass is a new statement (READ COMMITTED: a new snapshot) and revokes
 * it. A rotation that starts after a pass finds its row revoked and issues nothing, so the passes end.
 *
 * The passes run in one transaction (a savepoint inside the caller's): a process killed between
 * two passes leaves nothing revoked, so the caller's session still works and a retried logout
 * revokes the whole family. Committed pass by pass, the first pass's commit revoked the caller's
 * own session, a successor raced in stayed live, and no retry could reach it (401).
 * crash-logout.test.ts kills the server (SIGKILL) while the second pass waits.
 */
async function revokeSessions(db: DbOrTx, where: SQL | undefined, set: Partial<NewSessionRow>): Promise<number> {
  return db.transaction(async (tx) => {
    let total = 0;
    for (;;) {
      const revoked = await tx
        .update(sessions)
        .set(set)
        .where(and(where, isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      if (!revoked.length) return total;
      total += revoked.length;
    }
  });
}

/** Revoke every refresh token of a family (logout, theft detection), including one a racing rotation adds. */
export async function revokeFamily(db: DbOrTx, familyId: string, now: Date, logoutInfo?: unknown): Promise<void> {
  await revokeSessions(db, eq(sessions.familyId, familyId), logoutInfo === undefined ? { revokedAt: now } : { revokedAt: now, logoutInfo });
}

/** Revoke all of a user's sessions, except one family when given (change password), including one a racing rotation adds. */
export async function revokeUserSessions(db: DbOrTx, userId: string, now: Date, exceptFamilyId?: string): Promise<number> {
  const mine = eq(sessions.userId, userId);
  return revokeSessions(db, exceptFamilyId ? and(mine, ne(sessions.familyId, exceptFamilyId)) : mine, { revokedAt: now });
}

/**
 * The user of `userId`; with `sessionId`, also whether that session is still live (not revoked
 * by logout, password change/reset, account deletion or refresh-token reuse) in the same query.
 */
/** An active team membership: the user acts for `ownerId` with `role` (issue 8; table team_members of modules/team). */
export interface TeamMembership {
  id: string;
  ownerId: string;
  role: TeamRole;
}

export async function loadCurrentUser(
  db: DbOrTx,
  userId: string,
  sessionId?: string,
): Promise<(CurrentUser & { sessionActive: boolean; membership: TeamMembership | null }) | null> {
  // every request on a signed-in route asks: a named statement with its generic plan (primary-key
  // lookups whatever the ids), planned once per connection instead of on every request
  const rows = await queryRows<CurrentUser & { sessionActive: boolean; membership: TeamMembership | null }>(
    db,
    sql`select u.id, u.account_type as "accountType", u.status, u.is_first_time_approved as "isFirstTimeApproved", u.company_name as "companyName",
          (select subscriptions.id from subscriptions where subscriptions.user_id = u.id and ${PLAN_IN_FORCE} limit 1) as "activeSubscriptionId",
          (select json_build_object('id', tm.id, 'ownerId', tm.owner_id, 'role', tm.role) from team_members tm
            where tm.member_user_id = u.id and tm.status = 'active') as membership,
          ${sessionId ? sql`exists(select 1 from sessions s where s.id = ${sessionId} and s.user_id = u.id and s.revoked_at is null)` : sql`true`} as "sessionActive"
        from users u where u.id = ${userId} limit 1`,
    sessionId ? 'current_user_session' : 'current_user',
    'generic',
  );
  return rows[0] ?? null;
}

/** True while the session `id` exists and is not revoked (every authenticated request asks). */
export async function sessionLive(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .limit(1);
  return rows.length > 0;
}

/**
 * For a request on a route that takes any token: null when the session `id` is revoked or gone;
 * else the session user's active team membership (with the owner's account type), if any. One
 * query: the session by primary key, left-joined to the unique active membership of its user.
 */
export async function sessionActing(db: DbOrTx, id: string): Promise<{ membership: (TeamMembership & { ownerType: AccountType }) | null } | null> {
  const rows = await queryRows<{ id: string; owner_id: string | null; role: TeamRole | null; owner_type: number | null }>(
    db,
    sql`select tm.id, tm.owner_id, tm.role, o.account_type as owner_type
        from sessions s
        left join team_members tm on tm.member_user_id = s.user_id and tm.status = 'active'
        left join users o on o.id = tm.owner_id
        where s.id = ${id} and s.revoked_at is null`,
    'session_acting',
    'generic',
  );
  const r = rows[0];
  if (!r) return null;
  return { membership: r.owner_id ? { id: r.id, ownerId: r.owner_id, role: r.role!, ownerType: r.owner_type as AccountType } : null };
}

/**
 * Of the sessions `ids`, those still live for a real-time connection (issue 21): not revoked,
 * and their user neither suspended nor deleted. One statement by primary key for a whole sweep
 * of an instance's connected clients.
 */
export async function liveSessionIds(db: DbOrTx, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select s.id from sessions s join users u on u.id = s.user_id
        where s.id = any(${`{${ids.join(',')}}`}::uuid[])
          and s.revoked_at is null and u.status not in (${PROFILE_STATUS.suspended}, ${PROFILE_STATUS.deleted})`,
  );
  return new Set(rows.map((r) => r.id));
}

/** The user's active team membership with the member's name (the profile of a member). */
export async function activeMembership(db: DbOrTx, userId: string): Promise<(TeamMembership & { name: string }) | undefined> {
  const [r] = await db
    .select({ id: teamMembers.id, ownerId: teamMembers.ownerId, role: teamMembers.role, name: teamMembers.name })
    .from(teamMembers)
    .where(and(eq(teamMembers.memberUserId, userId), eq(teamMembers.status, 'active')));
  return r ? { ...r, role: r.role as TeamRole } : undefined;
}

/** Cleanup job: one-time codes used or expired before `before`. Returns how many. */
export async function deleteEndedOtps(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(otps)
    .where(sql`${otps.expiresAt} < ${before} or ${otps.consumedAt} < ${before}`)
    .returning({ id: otps.id });
  return rows.length;
}

/**
 * Cleanup job: sessions revoked or past their refresh lifetime before `before` (a rotated row
 * is kept while its family may still present it, i.e. until it expires). Returns how many.
 */
export async function deleteEndedSessions(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(sql`${sessions.revokedAt} < ${before} or ${sessions.expiresAt} < ${before}`)
    .returning({ id: sessions.id });
  return rows.length;
}
