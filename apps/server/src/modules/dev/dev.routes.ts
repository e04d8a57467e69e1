import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, normalizeSaudiPhone } from '@masar/shared';

const smsMessageSchema = z.object({ id: z.string(), to: z.string(), body: z.string(), sentAt: z.string() });

/**
 * Developer helpers, off by default. GET /dev/outbox shows the SMS the sandbox "sent" (newest
 * first) so a test or a local developer can read an OTP. It exists only when DEV_OUTBOX=1
 * (refused with NODE_ENV=production) and the SMS gateway is the sandbox; otherwise 404.
 */
export default async function devRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const sms = app.gateways.sms;
  if (!app.config.DEV_OUTBOX || typeof sms.outbox !== 'function') return;
  const outbox = sms.outbox.bind(sms);
  app.get(
    '/dev/outbox',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['dev'],
        summary: 'Sandbox SMS outbox (only with DEV_OUTBOX=1 and the sandbox SMS gateway; never in production)',
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
