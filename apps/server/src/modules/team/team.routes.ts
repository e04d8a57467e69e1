import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, idParams, teamInvitationListSchema, teamInviteInput, teamListSchema, teamMemberSchema, teamRoleInput, message } from '@masar/shared';

/**
 * Team members (issue 8; spec §2 "Account"; docs/account.md "Team members"). The owner's routes
 * (tag `team`): the company account itself or an admin member acting for it. The invitee's routes
 * (`team: 'self'`): the signed-in person as themselves, also while a member of another team.
 */
export default async function teamRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.team;
  const config = { auth: 'user' as const, sessionOnly: true };
  const self = { ...config, team: 'self' as const };
  const tags = ['team'];

  app.get(
    '/account/team',
    {
      config,
      schema: {
        tags,
        summary: 'My team: members and invitations (open first, newest first)',
        description: 'Owner or admin member only (TEAM_ROLE_FORBIDDEN for other roles).',
        response: { 200: envelope(teamListSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.list(app.requireUser(req)) }),
  );
  app.post(
    '/account/team',
    {
      config: { ...config, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Invite a colleague by phone with a role; they get an SMS with a sign-in link',
        description:
          'phone a Saudi mobile (any common format, E.164 out); role admin | dispatcher | viewer. TEAM_OWN_PHONE, TEAM_MEMBER_EXISTS, TEAM_PHONE_IN_OTHER_TEAM (409); LIMIT_REACHED (409) at 50 open members. Owner or admin member only (TEAM_ROLE_FORBIDDEN).',
        body: teamInviteInput,
        response: { 201: envelope(teamMemberSchema) },
      },
    },
    async (req, reply) =>
      reply.status(201).send({ message: message('team.invited', req.lang), data: await svc.invite(app.requireUser(req), req.body, req.lang) }),
  );
  app.patch(
    '/account/team/:id',
    {
      config,
      schema: {
        tags,
        summary: "Change a member's role (counts on their next request)",
        description: 'NOT_FOUND (404) when not an invited or active member of this account. TEAM_ROLE_FORBIDDEN for non-admin members.',
        params: idParams,
        body: teamRoleInput,
        response: { 200: envelope(teamMemberSchema) },
      },
    },
    async (req) => ({ message: message('team.roleChanged', req.lang), data: await svc.changeRole(app.requireUser(req), req.params.id, req.body.role) }),
  );
  app.delete(
    '/account/team/:id',
    {
      config,
      schema: {
        tags,
        summary: "Remove a member or withdraw an invitation; the member's sessions are revoked at once",
        description: 'NOT_FOUND (404) when not an invited or active member of this account. TEAM_ROLE_FORBIDDEN for non-admin members.',
        params: idParams,
        response: { 200: envelope(teamMemberSchema) },
      },
    },
    async (req) => ({ message: message('team.removed', req.lang), data: await svc.remove(app.requireUser(req), req.params.id) }),
  );

  app.get(
    '/account/team/invitations',
    { config: self, schema: { tags, summary: 'Pending team invitations addressed to my phone', response: { 200: envelope(teamInvitationListSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.invitations(app.requireUser(req)) }),
  );
  app.post(
    '/account/team/invitations/:id/accept',
    {
      config: self,
      schema: {
        tags,
        summary: "Accept an invitation: from the next request I act for the inviting company's account",
        description: 'NOT_FOUND (404) when not a pending invitation to my phone; TEAM_PHONE_IN_OTHER_TEAM (409) when I am in another team or own a team.',
        params: idParams,
        response: { 200: envelope(teamMemberSchema) },
      },
    },
    async (req) => ({ message: message('team.accepted', req.lang), data: await svc.accept(app.requireUser(req), req.params.id) }),
  );
  app.post(
    '/account/team/invitations/:id/decline',
    {
      config: self,
      schema: {
        tags,
        summary: 'Decline an invitation',
        description: 'NOT_FOUND (404) when not a pending invitation to my phone.',
        params: idParams,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await svc.decline(app.requireUser(req), req.params.id);
      return { message: message('team.declined', req.lang), data: null };
    },
  );
  app.post(
    '/account/team/leave',
    {
      config: self,
      schema: {
        tags,
        summary: 'Leave my team: from the next request I act for my own account again',
        description: 'NOT_FOUND (404) when I am not in a team.',
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await svc.leave(app.requireUser(req));
      return { message: message('team.left', req.lang), data: null };
    },
  );
}
