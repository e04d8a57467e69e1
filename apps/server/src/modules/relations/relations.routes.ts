import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountSettingsPatch,
  accountSettingsSchema,
  blockInput,
  contactCardSchema,
  envelope,
  favouriteInput,
  idParams,
  relationEntrySchema,
  relationListQuery,
  relationListResponse,
  relationParams,
  relationStatusSchema,
  message,
} from '@masar/shared';

/**
 * Favourites, blocked users, contact settings (issue 8; spec §2 "Account", §6, §7
 * /account/favourite and /account/blocked: list, add, remove) and the counterpart contact card
 * of a booked load. Signed-in users only; every list is the caller's own.
 */
export default async function relationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.relations;
  const config = { auth: 'user' as const, sessionOnly: true };
  const tags = ['account'];

  for (const kind of ['favourite', 'blocked'] as const) {
    const noun = kind === 'favourite' ? 'favourites' : 'blocked users';
    app.get(
      `/account/${kind}`,
      {
        config,
        schema: {
          tags,
          summary: `My ${noun}, newest first`,
          description:
            'Keyset pages: pass `nextCursor` as `cursor` (VALIDATION_FAILED on `cursor` for a forged one). Each entry: company name, account type, verified.',
          querystring: relationListQuery,
          response: { 200: envelope(relationListResponse) },
        },
      },
      async (req) => ({ message: message('common.ok', req.lang), data: await svc.list(app.requireUser(req), kind, req.query) }),
    );
    app.delete(
      `/account/${kind}/:userId`,
      {
        config,
        schema: {
          tags,
          summary: kind === 'favourite' ? 'Remove a user from my favourites' : 'Unblock a user',
          description: 'Idempotent: removing someone who is not in the list answers 200 too.',
          params: relationParams,
          response: { 200: envelope(z.null()) },
        },
      },
      async (req) => {
        await svc.remove(app.requireUser(req), kind, req.params.userId);
        return { message: message(kind === 'favourite' ? 'relations.unfavourited' : 'relations.unblocked', req.lang), data: null };
      },
    );
  }

  app.post(
    '/account/favourite',
    {
      config: { ...config, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Add a user to my favourites',
        description:
          'Adding a favourite twice answers the same entry. RELATION_SELF (400) for my own account, NOT_FOUND (404) for no such user, USER_BLOCKED (403) when I blocked them, LIMIT_REACHED (409) at 1,000.',
        body: favouriteInput,
        response: { 201: envelope(relationEntrySchema) },
      },
    },
    async (req, reply) =>
      reply.status(201).send({ message: message('relations.favourited', req.lang), data: await svc.addFavourite(app.requireUser(req), req.body.userId) }),
  );
  app.post(
    '/account/blocked',
    {
      config: { ...config, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Block a user',
        description:
          'Both ways: neither sees the other’s loads on the board or in details, bids or answers offers (USER_BLOCKED), or gets the contact card. In one transaction, closes the pending offers between us and removes our favourites of each other. Blocking twice answers the same entry. RELATION_SELF (400), NOT_FOUND (404), LIMIT_REACHED (409) at 1,000.',
        body: blockInput,
        response: { 201: envelope(relationEntrySchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('relations.blocked', req.lang), data: await svc.block(app.requireUser(req), req.body) }),
  );
  app.get(
    '/account/relations/:userId',
    {
      config,
      schema: { tags, summary: 'Whether I favourited or blocked a user', params: relationParams, response: { 200: envelope(relationStatusSchema) } },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.status(app.requireUser(req), req.params.userId) }),
  );

  app.get(
    '/account/settings',
    { config, schema: { tags, summary: 'Who may reach me by chat, audio call, video call', response: { 200: envelope(accountSettingsSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.settings(app.requireUser(req)) }),
  );
  app.patch(
    '/account/settings',
    {
      config,
      schema: {
        tags,
        summary: 'Change who may reach me',
        description:
          'chat, audio, video: each `everyone` | `favourites` (users I favourited) | `counterparts` (parties of my bookings, the default) | `nobody`. Omitted channels keep their value.',
        body: accountSettingsPatch,
        response: { 200: envelope(accountSettingsSchema) },
      },
    },
    async (req) => ({ message: message('relations.settingsSaved', req.lang), data: await svc.patchSettings(app.requireUser(req), req.body) }),
  );

  app.get(
    '/loads/:id/contact',
    {
      config,
      schema: {
        tags,
        summary: 'How to reach the other party of my booked shipment',
        description:
          'For the shipper or the booked carrier of a booked load: the other party’s company and the links its shared contact info and contact settings allow me (chat: WhatsApp, e-mail; audio: phone, office phone; video: WhatsApp). NOT_FOUND (404) for anyone else or a load not booked; USER_BLOCKED (403) when one of us blocked the other.',
        params: idParams,
        response: { 200: envelope(contactCardSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.contactCard(app.requireUser(req), req.params.id) }),
  );
}
