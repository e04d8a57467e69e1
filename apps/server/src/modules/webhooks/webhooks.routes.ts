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
  type Language,
} from '@masar/shared';

const MESSAGES = {
  ok: { en: 'OK', ar: 'تم' },
  created: { en: 'Webhook added. Keep its signing secret safe.', ar: 'تمت إضافة الويب هوك. احفظ سر التوقيع في مكان آمن.' },
  saved: { en: 'Webhook saved.', ar: 'تم حفظ الويب هوك.' },
  deleted: { en: 'Webhook deleted.', ar: 'تم حذف الويب هوك.' },
  resent: { en: 'The delivery will be sent again.', ar: 'سيتم إرسال التسليم مرة أخرى.' },
} as const;
const msg = (k: keyof typeof MESSAGES, lang: Language) => MESSAGES[k][lang];

/** Webhook endpoints and their delivery log (issue 11). Managed with a session only. */
export default async function webhooksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.webhooks;
  const config = { auth: 'user' as const, sessionOnly: true };
  const tags = ['integrations'];

  app.get(
    '/webhooks',
    { config, schema: { tags, summary: 'My webhook endpoints', response: { 200: envelope(z.object({ items: z.array(webhookEndpointSchema) })) } } },
    async (req) => ({ message: msg('ok', req.lang), data: { items: await svc.list(app.requireUser(req)) } }),
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
    async (req, reply) => reply.status(201).send({ message: msg('created', req.lang), data: await svc.create(app.requireUser(req), req.body) }),
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
    async (req) => ({ message: msg('saved', req.lang), data: await svc.update(app.requireUser(req), req.params.id, req.body) }),
  );
  app.get(
    '/webhooks/:id/secret',
    { config, schema: { tags, summary: "A webhook endpoint's signing secret", params: idParams, response: { 200: envelope(webhookWithSecretSchema) } } },
    async (req) => ({ message: msg('ok', req.lang), data: await svc.secret(app.requireUser(req), req.params.id) }),
  );
  app.delete(
    '/webhooks/:id',
    { config, schema: { tags, summary: 'Delete a webhook endpoint', params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await svc.remove(app.requireUser(req), req.params.id);
      return { message: msg('deleted', req.lang), data: null };
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
    async (req) => ({ message: msg('ok', req.lang), data: { items: await svc.deliveries(app.requireUser(req), req.params.id, req.query) } }),
  );
  app.post(
    '/webhook-deliveries/:id/resend',
    {
      config,
      schema: { tags, summary: 'Send a delivery again', params: idParams, response: { 200: envelope(webhookDeliverySchema) } },
    },
    async (req) => ({ message: msg('resent', req.lang), data: await svc.resend(app.requireUser(req), req.params.id) }),
  );
}
