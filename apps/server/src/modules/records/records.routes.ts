import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountRecordSchema, envelope, idParams, message } from '@masar/shared';

/** The fact-based record of an account (issue 19; docs/account-record.md). Rules in records.service.ts. */
export default async function recordsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.records;
  app.get(
    '/accounts/:id/record',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['account'],
        summary: "An account's fact-based record",
        description:
          'Completed shipments, on-time pickup and delivery %, cancellations after booking and the WASL-verified share of the fleet (as carrier); ' +
          'completed shipments, days-to-pay and cancellations after booking (as shipper). Each side is null until it has 5 completed shipments; ' +
          '`newOnMasar` when neither side is shown. Counted from shipment events (docs/account-record.md). Errors: NOT_FOUND.',
        params: idParams,
        response: { 200: envelope(accountRecordSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.get(req.params.id) }),
  );
}
