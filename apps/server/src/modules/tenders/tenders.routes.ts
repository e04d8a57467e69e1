import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ACCOUNT_TYPE,
  createTenderBody,
  envelope,
  idParams,
  message,
  TENDER_INVITEES_MAX,
  TENDER_STEP_MINUTES,
  tenderAnswerBody,
  tenderAwardBody,
  tenderPage,
  tenderSchema,
  tendersQuery,
} from '@masar/shared';

/** Shippers and brokers tender their loads; carriers and brokers answer. */
const TENDERERS = [ACCOUNT_TYPE.shipper, ACCOUNT_TYPE.broker];
const CARRIERS = [ACCOUNT_TYPE.carrier, ACCOUNT_TYPE.broker];

/**
 * Tendering (issue 19 "Tendering"; spec §3 offer/bid, §4 bidding): POST /tenders, GET /tenders,
 * GET /tenders/:id, POST /tenders/:id/answer|award|cancel. Business rules in tenders.service.ts;
 * status changes in lifecycle.ts; the deadline and waterfall job in jobs/definitions.ts.
 */
export default async function tendersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.tenders;
  const tags = ['tenders'];
  const tenderData = { 200: envelope(tenderSchema) };

  app.post(
    '/tenders',
    {
      config: { auth: 'user', roles: TENDERERS, approved: true, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Tender one of my loads to chosen carriers',
        description: `Shippers and brokers, approved. The load must be mine, unposted or posted, not booked (TENDER_LOAD_NOT_OPEN, SHIPMENT_ALREADY_ASSIGNED, SHIPMENT_CANCELLED); one open tender per load (TENDER_EXISTS). carrierIds (carrier or broker accounts) and/or vendorIds (my vendors with a Masar account; VENDOR_NOT_LINKED), 1 to ${TENDER_INVITEES_MAX} in all, in waterfall order (TENDER_INVITEE_INVALID, USER_BLOCKED). deadline: future ISO date-time. targetRateSar optional. mode broadcast (everyone at once) or waterfall (one carrier at a time for stepMinutes, ${TENDER_STEP_MINUTES.min}–${TENDER_STEP_MINUTES.max}, default ${TENDER_STEP_MINUTES.default}). postToBoardOnClose: post the load to the board when the deadline passes without an award. Publishes tender.created and tender.invited. Takes an Idempotency-Key.`,
        body: createTenderBody,
        response: { 201: envelope(tenderSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('tenders.created', req.lang), data: await svc.create(app.requireUser(req), req.body) }),
  );

  app.get(
    '/tenders',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My tenders: sent (my loads) or received (invites to me)',
        description:
          'tab sent: tenders of my loads with every invite and answer side by side, the lowest compliant answer marked (lowestCompliantInviteId); tab received: tenders I was invited to (my waterfall turn come), with my invite only. Newest first; keyset paging with limit and cursor (the previous page’s nextCursor); no total.',
        querystring: tendersQuery,
        response: { 200: envelope(tenderPage) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.list(app.requireUser(req), req.query) }),
  );

  app.get(
    '/tenders/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'A tender',
        description: 'Its owner sees every invite; an invited carrier (its turn come) only its own; anyone else 404.',
        params: idParams,
        response: tenderData,
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.get(app.requireUser(req), req.params.id) }),
  );

  app.post(
    '/tenders/:id/answer',
    {
      config: { auth: 'user', roles: CARRIERS, approved: true },
      schema: {
        tags,
        summary: 'Answer a tender: accept, counter or decline',
        description:
          'The invited carrier: accept (at the target rate, else the load’s price), counter with amountSar, or decline. Once. Waterfall: only while it is my turn (TENDER_NOT_YOUR_TURN); a decline or counter invites the next carrier. Errors: TENDER_NOT_OPEN (awarded, closed, cancelled or past its deadline), TENDER_ALREADY_ANSWERED, USER_BLOCKED, 404 when not invited. Publishes tender.answered.',
        params: idParams,
        body: tenderAnswerBody,
        response: tenderData,
      },
    },
    async (req) => ({ message: message('tenders.answered', req.lang), data: await svc.answer(app.requireUser(req), req.params.id, req.body) }),
  );

  app.post(
    '/tenders/:id/award',
    {
      config: { auth: 'user', roles: TENDERERS, approved: true, plan: true },
      schema: {
        tags,
        summary: 'Award an accepted or countered answer: books the load',
        description:
          'The owner, with a plan. Books the load at the answered amount as accepting an offer does (offer.accepted, load.booked), then tender.invite_awarded, tender.awarded, and tender.invite_closed for every other open invite. Exactly one of racing awards wins; the others hear TENDER_NOT_OPEN. Errors: TENDER_NOT_AWARDABLE (not accepted or countered), SHIPMENT_ALREADY_ASSIGNED, SHIPMENT_CANCELLED, USER_BLOCKED.',
        params: idParams,
        body: tenderAwardBody,
        response: tenderData,
      },
    },
    async (req) => ({ message: message('tenders.awarded', req.lang), data: await svc.award(app.requireUser(req), req.params.id, req.body.inviteId) }),
  );

  app.post(
    '/tenders/:id/cancel',
    {
      config: { auth: 'user', roles: TENDERERS },
      schema: {
        tags,
        summary: 'Cancel an open tender',
        description: 'The owner. Open invites close (tender.invite_closed); tender.cancelled. TENDER_NOT_OPEN when no longer open.',
        params: idParams,
        response: tenderData,
      },
    },
    async (req) => ({ message: message('tenders.cancelled', req.lang), data: await svc.cancel(app.requireUser(req), req.params.id) }),
  );
}
