import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, normalizeSaudiPhone } from '@masar/shared';

const smsMessageSchema = z.object({ id: z.string(), to: z.string(), body: z.string(), sentAt: z.string() });

/**
 * Developer helpers that exist only with sandbox gateways. GET /dev/outbox shows the SMS the
 * sandbox "sent" (newest first) so a demo or a test can read an OTP; with a real SMS provider
 * the route is not registered at all (404).
 */
export default async function devRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const sms = app.gateways.sms;
  if (typeof sms.outbox !== 'function') return;
  const outbox = sms.outbox.bind(sms);
  app.get(
    '/dev/outbox',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['dev'],
        summary: 'Sandbox SMS outbox (only while the SMS gateway is the sandbox)',
        querystring: z.object({ phone: z.string().max(30).optional() }),
        response: { 200: envelope(z.object({ items: z.array(smsMessageSchema), total: z.number().int() })) },
      },
    },
    async (req) => {
      const phone = req.query.phone ? (normalizeSaudiPhone(req.query.phone) ?? req.query.phone) : undefined;
      const items = outbox(phone);
      return { message: 'OK', data: { items, total: items.length } };
    },
  );
}
