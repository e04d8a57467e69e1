import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { teamEvents, teamMembers, users } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';

/** All SQL of the team module (tables team_members, team_events; reads users for phones and company names). */
export type TeamMemberRow = typeof teamMembers.$inferSelect;
const OPEN = ['invited', 'active'];

/** Serialise team writes of one owner (the TEAM_MAX limit, one open row per phone) for the rest of the transaction. */
export async function lockTeam(tx: DbOrTx, ownerId: string): Promise<void> {
  await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`masar.team.${ownerId}`}))`);
}

export async function userPhone(db: DbOrTx, userId: string): Promise<string | undefined> {
  const [r] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
  return r?.phone;
}

/** The owner's rows: open ones (invited, active) first, then newest first; at most `limit`. */
export async function listTeam(db: DbOrTx, ownerId: string, limit: number): Promise<TeamMemberRow[]> {
  return db
    .select()
    .from(teamMembers)
    .where(eq(teamMembers.ownerId, ownerId))
    .orderBy(sql`case when ${teamMembers.status} in ('invited', 'active') then 0 else 1 end`, desc(teamMembers.createdAt), desc(teamMembers.id))
    .limit(limit);
}

export async function countOpen(db: DbOrTx, ownerId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(teamMembers)
    .where(and(eq(teamMembers.ownerId, ownerId), inArray(teamMembers.status, OPEN)));
  return Number(r.n);
}

/** Is `phone` invited to or active in the owner's team already? */
export async function openRowOfPhone(db: DbOrTx, ownerId: string, phone: string): Promise<boolean> {
  const rows = await db
    .select({ id: teamMembers.id })
    .from(teamMembers)
    .where(and(eq(teamMembers.ownerId, ownerId), eq(teamMembers.phone, phone), inArray(teamMembers.status, OPEN)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Does `phone` belong to another team: an active member anywhere, or the phone of a user who owns
 * a team with open members (a member cannot own a team at the same time)?
 */
export async function phoneInATeam(db: DbOrTx, phone: string): Promise<boolean> {
  const [r] = await queryRows<{ taken: boolean }>(
    db,
    sql`select exists (select 1 from team_members where phone = ${phone} and status = 'active')
            or exists (select 1 from team_members tm join users u on u.id = tm.owner_id
                       where u.phone = ${phone} and tm.status in ('invited', 'active')) as taken`,
  );
  return Boolean(r?.taken);
}

/** Does `userId` own a team with open members? */
export async function ownsOpenTeam(db: DbOrTx, userId: string): Promise<boolean> {
  return (await countOpen(db, userId)) > 0;
}

export async function insertMember(db: DbOrTx, row: typeof teamMembers.$inferInsert): Promise<TeamMemberRow> {
  const [r] = await db.insert(teamMembers).values(row).returning();
  return r;
}

/** The owner's open row `id` (invited or active), locked for update. */
export async function findOpen(db: DbOrTx, ownerId: string, id: string): Promise<TeamMemberRow | undefined> {
  const [r] = await db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.id, id), eq(teamMembers.ownerId, ownerId), inArray(teamMembers.status, OPEN)))
    .for('update');
  return r;
}

export async function updateMember(db: DbOrTx, id: string, set: Partial<typeof teamMembers.$inferInsert>): Promise<TeamMemberRow> {
  const [r] = await db.update(teamMembers).set(set).where(eq(teamMembers.id, id)).returning();
  return r;
}

/** Pending invitations addressed to `phone`, newest first, with the inviting company's name. */
export async function invitationsOf(db: DbOrTx, phone: string) {
  return db
    .select({ id: teamMembers.id, role: teamMembers.role, ownerCompanyName: users.companyName, invitedAt: teamMembers.createdAt })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.ownerId))
    .where(and(eq(teamMembers.phone, phone), eq(teamMembers.status, 'invited')))
    .orderBy(desc(teamMembers.createdAt))
    .limit(50);
}

/** The invitation `id` addressed to `phone` (still invited), locked for update. */
export async function findInvitation(db: DbOrTx, phone: string, id: string): Promise<TeamMemberRow | undefined> {
  const [r] = await db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.id, id), eq(teamMembers.phone, phone), eq(teamMembers.status, 'invited')))
    .for('update');
  return r;
}

/** The user's active membership row, locked for update. */
export async function findActiveOf(db: DbOrTx, memberUserId: string): Promise<TeamMemberRow | undefined> {
  const [r] = await db
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.memberUserId, memberUserId), eq(teamMembers.status, 'active')))
    .for('update');
  return r;
}

/**
 * Whether `memberUserId` is still an active member of `ownerId`'s team, holding that row FOR SHARE
 * until the caller's commit: a removal (which updates the row) waits for the caller, or the caller
 * waits for the removal and then reads it removed.
 */
export async function holdActiveMembership(db: DbOrTx, ownerId: string, memberUserId: string): Promise<boolean> {
  const rows = await db
    .select({ id: teamMembers.id })
    .from(teamMembers)
    .where(and(eq(teamMembers.ownerId, ownerId), eq(teamMembers.memberUserId, memberUserId), eq(teamMembers.status, 'active')))
    .for('share');
  return rows.length > 0;
}

export async function insertEvent(db: DbOrTx, row: typeof teamEvents.$inferInsert): Promise<void> {
  await db.insert(teamEvents).values(row);
}

/** The phone and inviting company of an invitation (the invitation SMS handler). */
export async function invitationForSms(tx: DbOrTx, id: string): Promise<{ phone: string; status: string; ownerCompanyName: string } | null> {
  const [r] = await queryRows<{ phone: string; status: string; owner_company_name: string }>(
    tx,
    sql`select tm.phone, tm.status, u.company_name as owner_company_name from team_members tm join users u on u.id = tm.owner_id where tm.id = ${id}`,
  );
  return r ? { phone: r.phone, status: r.status, ownerCompanyName: r.owner_company_name } : null;
}
