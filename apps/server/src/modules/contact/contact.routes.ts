import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contactBody, contactResultSchema, envelope, message } from '@masar/shared';

/**
 * The public contact form (issue 8, spec §1 "Contact us"). No sign-in; limited per client IP
 * (CONTACT_RATE_PER_IP_PER_HOUR) and idempotent (Idempotency-Key: a retried submit stores and
 * sends once). The e-mails leave from the outbox (contactEmailHandler), not from the request.
 */
export default async function contactRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.contact;
  const perHour = app.config.CONTACT_RATE_PER_IP_PER_HOUR;
  app.post(
    '/contact',
    {
      config: { auth: 'none', rateLimit: perHour > 0 ? { max: perHour, timeWindow: 3_600_000 } : false },
      schema: {
        tags: ['public'],
        summary: 'Send a message to the Masar team (contact form)',
        description:
          'Stores the message and answers 202 with its `id` and `reference` (e.g. "CT-7KQ2MX", quoted to support). After the commit an outbox handler sends one e-mail to the support mailbox (CONTACT_TO) with Reply-To the sender, and an acknowledgement to the sender in the request language (`language` header); a mail outage never fails the request (the send is recorded and logged). Errors: VALIDATION_FAILED (400, field messages localized), RATE_LIMITED (429, per IP per hour).',
        body: contactBody,
        response: { 202: envelope(contactResultSchema) },
      },
    },
    async (req, reply) => reply.status(202).send({ message: message('contact.sent', req.lang), data: await svc.send(req.body, req.lang) }),
  );
}
