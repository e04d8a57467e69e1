import {
  TEAM_MAX,
  isEvent,
  type Language,
  type TeamInvitationList,
  type TeamInviteInput,
  type TeamList,
  type TeamMember,
  type TeamRole,
  type TeamStatus,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { SmsGateway } from '../../gateways/sms/sms.ts';
import { AppError, dbErrorCode } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import * as repo from './team.repository.ts';
import { publish, type EventHandler } from '../events/events.service.ts';

/** The domain event of a team_events type (the others — role_changed, declined — stay in the team's audit trail). */
const TEAM_EVENT = { invited: 'team.member_invited', accepted: 'team.member_joined', removed: 'team.member_removed', left: 'team.member_removed' } as const;

function toMember(r: repo.TeamMemberRow): TeamMember {
  return {
    id: r.id,
    phone: r.phone,
    name: r.name,
    role: r.role as TeamRole,
    status: r.status as TeamStatus,
    memberUserId: r.memberUserId,
    createdAt: r.createdAt.toISOString(),
    acceptedAt: r.acceptedAt?.toISOString() ?? null,
    removedAt: r.removedAt?.toISOString() ?? null,
  };
}

/** The SMS an invitee gets: who invited them and where to sign in (or sign up) with this phone. */
export function inviteSmsText(company: string, link: string, lang: Language): string {
  return lang === 'ar'
    ? `دعتك ${company} للانضمام إلى فريقها على مسار. سجّل الدخول بهذا الرقم لقبول الدعوة: ${link}`
    : `${company} invited you to join their team on Masar. Sign in with this phone to accept: ${link}`;
}

/**
 * What the team module asks of other modules when a member leaves (injected by the container),
 * each inside the removal's transaction: the auth module ends the member's sessions, the apikeys
 * and webhooks modules take back what the member made for the owner (issue 22). Each returns how
 * many rows it changed.
 */
export interface AccessOfMember {
  revokeSessionsOf(tx: DbOrTx, userId: string): Promise<number>;
  revokeKeysMadeBy(tx: DbOrTx, ownerId: string, userId: string): Promise<number>;
  removeEndpointsMadeBy(tx: DbOrTx, ownerId: string, userId: string): Promise<number>;
}

/**
 * For a write made by a team member acting for the owner (`user.actorId`): check, inside the
 * write's transaction, that the membership is still active and hold it until commit (issue 22:
 * an API key or webhook endpoint created while the member is being removed must not outlive the
 * removal). The owner acting for itself passes. Throws UNAUTHORIZED, as the member's next request
 * after the removal would.
 */
export async function assertStillActing(tx: DbOrTx, user: { id: string; actorId?: string }): Promise<void> {
  if (!user.actorId || user.actorId === user.id) return;
  if (!(await repo.holdActiveMembership(tx, user.id, user.actorId))) throw new AppError('UNAUTHORIZED');
}

/** Revoke the owner's API keys and delete the webhook endpoints a leaving member made (issue 22), in the caller's transaction. */
async function revokeAccessMadeBy(access: AccessOfMember, tx: DbOrTx, ownerId: string, memberUserId: string) {
  return {
    apiKeysRevoked: await access.revokeKeysMadeBy(tx, ownerId, memberUserId),
    webhooksRemoved: await access.removeEndpointsMadeBy(tx, ownerId, memberUserId),
  };
}

/** The person who really acts: a member's own user id, else the user's. */
const actorOf = (user: CurrentUser) => user.actorId ?? user.id;

/**
 * Team members (issue 8; spec §2 "Account": team members — invite by phone, role, remove). The
 * owner is the company account (`user.id`, also when an admin member acts for it); members are
 * rows of team_members. Every change is written with its team_events row (the acting person's own
 * user id) in one transaction. Rules (who may call what) are in team.access.ts and the auth plugin.
 */
export function createTeamService(deps: { db: Db; sms: SmsGateway; publicUrl: string; log: { error(o: unknown, m: string): void }; access: AccessOfMember }) {
  const { db, access } = deps;
  const event = async (tx: DbOrTx, user: CurrentUser, row: repo.TeamMemberRow, type: string, data: Record<string, unknown> = {}) => {
    await repo.insertEvent(tx, { id: newId(), ownerId: row.ownerId, teamMemberId: row.id, type, actorUserId: actorOf(user), data });
    const domain = TEAM_EVENT[type as keyof typeof TEAM_EVENT];
    if (domain)
      await publish(tx, {
        type: domain,
        aggregateType: 'account',
        aggregateId: row.ownerId,
        actorId: actorOf(user),
        data: {
          accountId: row.ownerId,
          memberId: row.id,
          role: row.role,
          ...(domain === 'team.member_invited' ? { name: row.name, invitedBy: row.invitedBy } : {}),
          ...(domain === 'team.member_joined' && row.memberUserId ? { memberUserId: row.memberUserId } : {}),
          ...(domain === 'team.member_removed' && row.removedBy ? { removedBy: row.removedBy } : {}),
          ...data,
        },
      });
  };

  return {
    /** GET /account/team: the owner's members, open (invited, active) first, newest first; ≤ 200 rows. */
    async list(user: CurrentUser): Promise<TeamList> {
      const rows = await repo.listTeam(db, user.id, 200);
      return { items: rows.map(toMember), total: rows.length, max: TEAM_MAX };
    },

    /**
     * POST /account/team: invite `phone` (E.164) with a role, then SMS them a sign-in link.
     * TEAM_OWN_PHONE (the owner's phone), TEAM_MEMBER_EXISTS (already invited or a member here),
     * TEAM_PHONE_IN_OTHER_TEAM (active in another team, or owns a team), LIMIT_REACHED at TEAM_MAX
     * open rows (checked under a per-owner lock). A failed SMS is logged; the invitation stands
     * (the invitee also sees it after signing in).
     */
    async invite(user: CurrentUser, body: TeamInviteInput, lang: Language): Promise<TeamMember> {
      const row = await db.transaction(async (tx) => {
        await repo.lockTeam(tx, user.id);
        if ((await repo.userPhone(tx, user.id)) === body.phone) throw new AppError('TEAM_OWN_PHONE');
        if (await repo.openRowOfPhone(tx, user.id, body.phone)) throw new AppError('TEAM_MEMBER_EXISTS');
        if (await repo.phoneInATeam(tx, body.phone)) throw new AppError('TEAM_PHONE_IN_OTHER_TEAM');
        if ((await repo.countOpen(tx, user.id)) >= TEAM_MAX) throw new AppError('LIMIT_REACHED');
        const r = await repo.insertMember(tx, {
          id: newId(),
          ownerId: user.id,
          phone: body.phone,
          name: body.name,
          role: body.role,
          status: 'invited',
          invitedBy: actorOf(user),
        });
        // the invitation SMS is sent by teamInviteSmsHandler once this commits (outbox)
        await event(tx, user, r, 'invited', { role: body.role, lang });
        return r;
      });
      return toMember(row);
    },

    /** PATCH /account/team/:id: change an open member's role; NOT_FOUND when not an open member of this account. Counts on their next request. */
    async changeRole(user: CurrentUser, id: string, role: TeamRole): Promise<TeamMember> {
      return db.transaction(async (tx) => {
        const r = await repo.findOpen(tx, user.id, id);
        if (!r) throw new AppError('NOT_FOUND');
        if (r.role === role) return toMember(r);
        const u = await repo.updateMember(tx, id, { role });
        await event(tx, user, u, 'role_changed', { from: r.role, to: role });
        return toMember(u);
      });
    },

    /**
     * DELETE /account/team/:id: remove a member (or withdraw an invitation). In the same
     * transaction the member's sessions are revoked (their very next request is refused, 401, and
     * they sign in again as themselves), the API keys they made for this account are revoked
     * (401 API_KEY_INVALID from then on) and the webhook endpoints they added are deleted with
     * their pending deliveries (nothing more is sent there). Leaving revokes, never hands over:
     * the member still holds the key and controls the receiver. The counts go on the team event.
     * NOT_FOUND when not an open member of this account.
     */
    async remove(user: CurrentUser, id: string): Promise<TeamMember> {
      return db.transaction(async (tx) => {
        const r = await repo.findOpen(tx, user.id, id);
        if (!r) throw new AppError('NOT_FOUND');
        const u = await repo.updateMember(tx, id, { status: 'removed', removedAt: new Date(), removedBy: actorOf(user) });
        const active = r.memberUserId && r.status === 'active' ? r.memberUserId : null;
        const revoked = active ? await access.revokeSessionsOf(tx, active) : 0;
        const gone = active ? await revokeAccessMadeBy(access, tx, r.ownerId, active) : { apiKeysRevoked: 0, webhooksRemoved: 0 };
        await event(tx, user, u, 'removed', { sessionsRevoked: revoked, ...gone });
        return toMember(u);
      });
    },

    /** GET /account/team/invitations: pending invitations addressed to my own phone (`me` is my own user, never an owner's). */
    async invitations(me: CurrentUser): Promise<TeamInvitationList> {
      const phone = await repo.userPhone(db, me.id);
      const rows = phone ? await repo.invitationsOf(db, phone) : [];
      return { items: rows.map((r) => ({ id: r.id, role: r.role as TeamRole, ownerCompanyName: r.ownerCompanyName, invitedAt: r.invitedAt.toISOString() })) };
    },

    /**
     * POST /account/team/invitations/:id/accept: join the team; from my next request I act for the
     * owner. NOT_FOUND (not an invitation to my phone, or no longer pending);
     * TEAM_PHONE_IN_OTHER_TEAM when I am active in another team or own a team with members.
     */
    async accept(me: CurrentUser, id: string): Promise<TeamMember> {
      const phone = await repo.userPhone(db, me.id);
      if (!phone) throw new AppError('NOT_FOUND');
      try {
        return await db.transaction(async (tx) => {
          const r = await repo.findInvitation(tx, phone, id);
          if (!r) throw new AppError('NOT_FOUND');
          if (r.ownerId === me.id) throw new AppError('TEAM_OWN_PHONE');
          if (await repo.ownsOpenTeam(tx, me.id)) throw new AppError('TEAM_PHONE_IN_OTHER_TEAM');
          const u = await repo.updateMember(tx, id, { status: 'active', memberUserId: me.id, acceptedAt: new Date() });
          await event(tx, me, u, 'accepted');
          return toMember(u);
        });
      } catch (e) {
        // the unique active membership per user / per phone: another acceptance won
        if (dbErrorCode(e) === '23505') throw new AppError('TEAM_PHONE_IN_OTHER_TEAM');
        throw e;
      }
    },

    /** POST /account/team/invitations/:id/decline; NOT_FOUND when not a pending invitation to my phone. */
    async decline(me: CurrentUser, id: string): Promise<void> {
      const phone = await repo.userPhone(db, me.id);
      if (!phone) throw new AppError('NOT_FOUND');
      await db.transaction(async (tx) => {
        const r = await repo.findInvitation(tx, phone, id);
        if (!r) throw new AppError('NOT_FOUND');
        const u = await repo.updateMember(tx, id, { status: 'declined', removedAt: new Date(), removedBy: me.id });
        await event(tx, me, u, 'declined');
      });
    },

    /**
     * POST /account/team/leave: leave my team; my next request acts for my own account again. The
     * API keys and webhook endpoints I made for the team's account are revoked as on a removal.
     * NOT_FOUND when I am in no team.
     */
    async leave(me: CurrentUser): Promise<void> {
      await db.transaction(async (tx) => {
        const r = await repo.findActiveOf(tx, me.id);
        if (!r) throw new AppError('NOT_FOUND');
        const u = await repo.updateMember(tx, r.id, { status: 'removed', removedAt: new Date(), removedBy: me.id });
        await event(tx, me, u, 'left', await revokeAccessMadeBy(access, tx, r.ownerId, me.id));
      });
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;

/**
 * The invitation SMS, an outbox handler of team.member_invited (issue 18: side effects leave
 * the request): who invited them and where to sign in with this phone, in the language of the
 * invite request. Sent at least once — a drainer killed between the send and its commit sends
 * it again. A failed send is logged, not retried (the invitee also sees the invitation after
 * signing in), so one bad number never holds up the events behind it.
 */
export function teamInviteSmsHandler(deps: { sms: SmsGateway; publicUrl: string; log: { error(o: unknown, m: string): void } }): EventHandler {
  return {
    name: 'team-invite-sms',
    async handle(tx, e) {
      if (!isEvent(e, 'team.member_invited')) return;
      const d = e.data;
      const inv = await repo.invitationForSms(tx, d.memberId);
      if (!inv || inv.status !== 'invited') return;
      const link = `${deps.publicUrl}/login?phone=${encodeURIComponent(inv.phone)}`;
      try {
        await deps.sms.send(inv.phone, inviteSmsText(inv.ownerCompanyName, link, d.lang === 'ar' ? 'ar' : 'en'));
      } catch (err) {
        deps.log.error({ err, teamMemberId: d.memberId }, 'team invitation SMS failed');
      }
    },
  };
}
