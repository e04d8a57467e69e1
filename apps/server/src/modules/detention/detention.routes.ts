import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { detentionDecisionBody, detentionSchema, envelope, idParams, message } from '@masar/shared';

/** Detention from the trip's facts (issue 50): the computation with its evidence, and the shipper's decision. */
export default async function detentionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.detention;
  const tags = ['loads'];

  app.get(
    '/loads/:id/detention',
    {
      config: { auth: 'user' },
      schema: {
        params: idParams,
        response: { 200: envelope(detentionSchema) },
        tags,
        summary: "Detention per stop from the driver's step times (shipper and booked carrier)",
        description:
          "Arrival and departure from the driver's geofenced steps (device time when recorded offline); billable = max(0, dwell − the post's free hours) × its hourly rate, capped per stop by its cap; `accruing` while the truck is still at the stop. Evidence: times, positions and distance from the stop, the stop's proof id. Errors: NOT_FOUND, DETENTION_NOT_AVAILABLE.",
      },
    },
    async (req) => ({ data: await svc.get(app.requireUser(req), req.params.id), message: message('common.ok', req.lang) }),
  );

  app.post(
    '/loads/:id/detention/decide',
    {
      config: { auth: 'user', idempotent: true, idempotencyReplay: 'rerun' },
      schema: {
        tags,
        summary: "The shipper accepts or disputes a stop's detention",
        description:
          'accept (after the truck left the stop) posts it to the ledger as payable to the carrier; dispute needs a reason (10–500 characters). Once per stop. Errors: NOT_FOUND, FORBIDDEN, DETENTION_NOT_AVAILABLE, DETENTION_STILL_ACCRUING, DETENTION_ALREADY_DECIDED.',
        params: idParams,
        body: detentionDecisionBody,
        response: { 200: envelope(detentionSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.decide(app.requireUser(req), req.params.id, req.body) }),
  );
}
