import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, normalizeSaudiPhone } from '@masar/shared';

const smsMessageSchema = z.object({ id: z.string(), to: z.string(), body: z.string(), sentAt: z.string() });
const emailSchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  replyTo: z.string().optional(),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  sentAt: z.string(),
});

/**
 * Developer helpers, off by default. GET /dev/outbox shows the SMS the sandbox "sent" (newest
 * first) so a test or a local developer can read an OTP. It exists only when DEV_OUTBOX=1
 * (refused with NODE_ENV=production) and the SMS gateway is the sandbox; otherwise 404.
 * GET /dev/emails likewise shows the e-mails of the sandbox e-mail gateway (contact form).
 */
export default async function devRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  if (!app.config.DEV_OUTBOX) return;
  const mail = app.gateways.email;
  if (typeof mail.outbox === 'function') {
    const mails = mail.outbox.bind(mail);
    app.get(
      '/dev/emails',
      {
        config: { auth: 'none' },
        schema: {
          tags: ['dev'],
          summary: 'Sandbox e-mail outbox, newest first (only with DEV_OUTBOX=1 and the sandbox e-mail gateway; never in production)',
          querystring: z.object({ to: z.string().max(254).optional() }),
          response: { 200: envelope(z.object({ items: z.array(emailSchema), total: z.number().int() })) },
        },
      },
      async (req) => {
        const items = mails(req.query.to);
        return { message: 'OK', data: { items, total: items.length } };
      },
    );
  }
  const sms = app.gateways.sms;
  if (typeof sms.outbox !== 'function') return;
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
