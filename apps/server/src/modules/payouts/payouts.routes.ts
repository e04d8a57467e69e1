import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, message, payoutAccountBody, payoutAccountSchema } from '@masar/shared';

/** Payout settings (issue 50): the carrier's Saudi IBAN, its bank named from the code. */
export default async function payoutsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.payouts;
  const tags = ['billing'];

  app.get(
    '/payoutAccount',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My payout IBAN (carriers and brokers)',
        description: 'Errors: NOT_FOUND (none yet), FORBIDDEN (a shipper).',
        response: { 200: envelope(payoutAccountSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.get(app.requireUser(req)) }),
  );

  app.put(
    '/payoutAccount',
    {
      config: { auth: 'user', sessionOnly: true },
      schema: {
        tags,
        summary: 'Set my payout IBAN (carriers and brokers)',
        description:
          'A Saudi IBAN: SA + 22 characters (spaces allowed), check digits by ISO 7064 MOD 97-10; the bank is named from its 2-digit code. Errors: VALIDATION_FAILED (iban: wrong country, wrong length, bad check digits — each its own message in English and Arabic), FORBIDDEN (a shipper).',
        body: payoutAccountBody,
        response: { 200: envelope(payoutAccountSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.set(app.requireUser(req), req.body) }),
  );
}
