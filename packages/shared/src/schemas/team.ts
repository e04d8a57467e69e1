import { z } from 'zod';
import { phoneSchema } from '../validation.ts';

/**
 * Team members (issue 8; spec §2 "Account": team members — invite by phone, role, remove). A
 * company account (the owner) invites colleagues by phone; an accepted member's sessions act for
 * the owner's account with a role. Who may do what: docs/account.md "Team members".
 */

/** admin: everything incl. team and billing; dispatcher: loads, offers, fleet, Bayan, tracking; viewer: read only. */
export const TEAM_ROLES = ['admin', 'dispatcher', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export const TEAM_STATUSES = ['invited', 'active', 'declined', 'removed'] as const;
export type TeamStatus = (typeof TEAM_STATUSES)[number];
/** Open (invited or active) members per account. */
export const TEAM_MAX = 50;

const role = z.enum(TEAM_ROLES, { error: 'v.required' });

/** POST /account/team: phone a Saudi mobile (E.164 out, libphonenumber-js), name 1–80 characters, role. */
export const teamInviteInput = z.object({
  phone: phoneSchema,
  name: z.string({ error: 'v.required' }).trim().min(1, 'v.required').max(80, 'v.required'),
  role,
});
export type TeamInviteInput = z.infer<typeof teamInviteInput>;

/** PATCH /account/team/:id */
export const teamRoleInput = z.object({ role });
export type TeamRoleInput = z.infer<typeof teamRoleInput>;

/** A row of GET /account/team. Times ISO 8601 UTC; memberUserId null until accepted. */
export const teamMemberSchema = z.object({
  id: z.uuid(),
  phone: z.string(),
  name: z.string(),
  role: z.enum(TEAM_ROLES),
  status: z.enum(TEAM_STATUSES),
  memberUserId: z.uuid().nullable(),
  createdAt: z.string(),
  acceptedAt: z.string().nullable(),
  removedAt: z.string().nullable(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** GET /account/team: open members first (invited, active), newest first; `max` is TEAM_MAX. */
export const teamListSchema = z.object({ items: z.array(teamMemberSchema), total: z.number().int(), max: z.number().int() });
export type TeamList = z.infer<typeof teamListSchema>;

/** A pending invitation addressed to my phone (GET /account/team/invitations). */
export const teamInvitationSchema = z.object({
  id: z.uuid(),
  role: z.enum(TEAM_ROLES),
  ownerCompanyName: z.string(),
  invitedAt: z.string(),
});
export type TeamInvitation = z.infer<typeof teamInvitationSchema>;
export const teamInvitationListSchema = z.object({ items: z.array(teamInvitationSchema) });
export type TeamInvitationList = z.infer<typeof teamInvitationListSchema>;

/** In the profile of a member acting for an owner (GET /accountDetails `team`). */
export const teamActingSchema = z.object({ memberId: z.uuid(), role: z.enum(TEAM_ROLES), memberName: z.string() });
export type TeamActing = z.infer<typeof teamActingSchema>;
