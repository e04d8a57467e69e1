import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeyCreateBody, apiKeyCreatedSchema, apiKeySchema, envelope, idParams, message } from '@masar/shared';

/** API keys of the signed-in user (issue 11). Managed with a session only, never with a key. */
export default async function apiKeysRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.apiKeys;
  const config = { auth: 'user' as const, sessionOnly: true };
  const tags = ['integrations'];

  app.get(
    '/api-keys',
    { config, schema: { tags, summary: 'My API keys (never their secrets)', response: { 200: envelope(z.object({ items: z.array(apiKeySchema) })) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: { items: await svc.list(app.requireUser(req)) } }),
  );
  app.post(
    '/api-keys',
    {
      config,
      schema: {
        tags,
        summary: 'Create an API key',
        description:
          'Answers the key once (`key`, `msk_…`); only its SHA-256 is kept. Send it as the `X-API-Key` header: it acts as you, within its scopes, limited to `ratePerMinute` requests. At most 20 live keys (LIMIT_REACHED).',
        body: apiKeyCreateBody,
        response: { 201: envelope(apiKeyCreatedSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('apikeys.created', req.lang), data: await svc.create(app.requireUser(req), req.body) }),
  );
  app.delete(
    '/api-keys/:id',
    {
      config,
      schema: { tags, summary: 'Revoke an API key (refused at once on every instance)', params: idParams, response: { 200: envelope(z.null()) } },
    },
    async (req) => {
      await svc.revoke(app.requireUser(req), req.params.id);
      return { message: message('apikeys.revoked', req.lang), data: null };
    },
  );
}
