import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, escrowDisputeBody, escrowSchema, idParams, message } from '@masar/shared';

/**
 * Payment protection of a load (issue 50): its escrow, the shipper's funding after a top-up and
 * a dispute by either party. The operator settles disputes with `npm run admin -- escrow-settle`.
 */
export default async function escrowRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.escrow;
  const tags = ['loads'];

  app.get(
    '/loads/:id/escrow',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Payment protection: the escrow of a protected load (shipper and booked carrier)',
        description:
          'Opened at booking when the load was posted with paymentProtection: the agreed price + VAT 15%, funded from the shipper’s wallet (status funded) or unfunded until the shipper tops up. Released to the carrier after the dispute window that follows completion (releaseAt). Errors: ESCROW_NOT_FOUND, NOT_FOUND.',
        params: idParams,
        response: { 200: envelope(escrowSchema) },
      },
    },
    async (req) => {
      const escrow = await svc.get(app.requireUser(req), req.params.id);
      return { message: message('common.ok', req.lang), data: escrow };
    },
  );

  app.post(
    '/loads/:id/escrow/fund',
    {
      config: { auth: 'user', idempotent: true, idempotencyReplay: 'rerun' },
      schema: {
        tags,
        summary: 'Payment protection: the shipper funds the escrow from its wallet',
        description:
          'For an unfunded escrow (the wallet did not cover it at booking). Errors: ESCROW_NOT_FOUND, NOT_FOUND, FORBIDDEN (the carrier), ESCROW_NOT_FUNDABLE, INSUFFICIENT_WALLET_BALANCE.',
        params: idParams,
        response: { 200: envelope(escrowSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.fund(app.requireUser(req), req.params.id) }),
  );

  app.post(
    '/loads/:id/escrow/dispute',
    {
      config: { auth: 'user', idempotent: true, idempotencyReplay: 'rerun' },
      schema: {
        tags,
        summary: 'Payment protection: open a dispute (holds the release until the operator settles)',
        description:
          'The shipper or the booked carrier, while the escrow is funded or its release scheduled and not yet run. reason 10–500 characters, evidence 10–4000 (what happened, proof ids). Errors: ESCROW_NOT_FOUND, NOT_FOUND, ESCROW_NOT_DISPUTABLE.',
        params: idParams,
        body: escrowDisputeBody,
        response: { 200: envelope(escrowSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.dispute(app.requireUser(req), req.params.id, req.body) }),
  );
}
