import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelope,
  idParams,
  webhookCreateBody,
  webhookDeliveriesQuery,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookUpdateBody,
  webhookWithSecretSchema,
  message,
} from '@masar/shared';

/** Webhook endpoints and their delivery log (issue 11). Managed with a session only. */
export default async function webhooksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.webhooks;
  const config = { auth: 'user' as const, sessionOnly: true };
  const tags = ['integrations'];

  app.get(
    '/webhooks',
    { config, schema: { tags, summary: 'My webhook endpoints', response: { 200: envelope(z.object({ items: z.array(webhookEndpointSchema) })) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: { items: await svc.list(app.requireUser(req)) } }),
  );
  app.post(
    '/webhooks',
    {
      config: { ...config, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Add a webhook endpoint',
        description:
          'An https URL on a public host and the events to send there. Answers the signing secret (`whsec_…`) to verify the `Masar-Signature` header (docs/api.md). At most 10 endpoints (LIMIT_REACHED).',
        body: webhookCreateBody,
        response: { 201: envelope(webhookWithSecretSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('webhooks.created', req.lang), data: await svc.create(app.requireUser(req), req.body) }),
  );
  app.patch(
    '/webhooks/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a webhook endpoint (URL, events, description, active)',
        description:
          'A merge patch: only the fields sent change. An empty body `{}` changes nothing and answers the endpoint as it is (200). NOT_FOUND when not mine.',
        params: idParams,
        body: webhookUpdateBody,
        response: { 200: envelope(webhookEndpointSchema) },
      },
    },
    async (req) => ({ message: message('webhooks.saved', req.lang), data: await svc.update(app.requireUser(req), req.params.id, req.body) }),
  );
  app.get(
    '/webhooks/:id/secret',
    { config, schema: { tags, summary: "A webhook endpoint's signing secret", params: idParams, response: { 200: envelope(webhookWithSecretSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.secret(app.requireUser(req), req.params.id) }),
  );
  app.delete(
    '/webhooks/:id',
    { config, schema: { tags, summary: 'Delete a webhook endpoint', params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await svc.remove(app.requireUser(req), req.params.id);
      return { message: message('webhooks.deleted', req.lang), data: null };
    },
  );
  app.get(
    '/webhooks/:id/deliveries',
    {
      config,
      schema: {
        tags,
        summary: 'Delivery log of an endpoint, newest first (status, attempts, last answer)',
        params: idParams,
        querystring: webhookDeliveriesQuery,
        response: { 200: envelope(z.object({ items: z.array(webhookDeliverySchema) })) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: { items: await svc.deliveries(app.requireUser(req), req.params.id, req.query) } }),
  );
  app.post(
    '/webhook-deliveries/:id/resend',
    {
      config,
      schema: { tags, summary: 'Send a delivery again', params: idParams, response: { 200: envelope(webhookDeliverySchema) } },
    },
    async (req) => ({ message: message('webhooks.resent', req.lang), data: await svc.resend(app.requireUser(req), req.params.id) }),
  );
}
