import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ACCOUNT_TYPE,
  bookNowBody,
  createOfferBody,
  envelope,
  idParams,
  offerListResponse,
  offerRespondBody,
  offerSchema,
  offersQuery,
  message,
} from '@masar/shared';

/** Success messages of this module, en/ar. */

/**
 * Offers and bookings (issue 2; spec §4 bidding, §7 /offers, /offerRespond). Business rules in
 * offers.service.ts.
 */
export default async function offersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.offers;
  const tags = ['offers'];
  const offerData = { 200: envelope(offerSchema) };

  app.post(
    '/offers',
    {
      config: { auth: 'user', roles: [ACCOUNT_TYPE.carrier, ACCOUNT_TYPE.broker], approved: true, plan: true, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Bid on a posted load',
        description:
          'Carriers and brokers, approved, with a plan. Errors: OWN_LOAD_BID, SHIPMENT_ALREADY_ASSIGNED (assigned/completed), SHIPMENT_CANCELLED, BIDDING_CLOSED (unposted/expired), DUPLICATE_OFFER (an offer of mine is still pending).',
        body: createOfferBody,
        response: { 201: envelope(offerSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('offers.sent', req.lang), data: await svc.create(app.requireUser(req), req.body) }),
  );

  app.post(
    '/bookNow',
    {
      // a retried booking (same Idempotency-Key) returns the first answer; after a crash it
      // replays the committed transaction and reads the booking back
      config: { auth: 'user', roles: [ACCOUNT_TYPE.carrier, ACCOUNT_TYPE.broker], approved: true, plan: true, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Book a Book Now load at its posted price',
        description:
          "Verified (approved) carriers and brokers with a plan. Books the load in one step at its posted price (priceSar: the amount the carrier confirmed) and answers the accepted offer that records it; every other pending offer closes. Exactly one of racing bookings wins; the others hear SHIPMENT_ALREADY_ASSIGNED. Errors: BOOK_NOW_UNAVAILABLE (not Book Now), BOOK_NOW_NOT_TRUSTED (limited to the shipper's vendors), BOOK_NOW_PRICE_CHANGED, OWN_LOAD_BID, SHIPMENT_CANCELLED, BIDDING_CLOSED, USER_BLOCKED.",
        body: bookNowBody,
        response: { 201: envelope(offerSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('offers.booked', req.lang), data: await svc.bookNow(app.requireUser(req), req.body) }),
  );

  app.post(
    '/offerRespond',
    {
      // a retried answer (same Idempotency-Key) returns the first answer; after a crash it
      // replays the committed transaction and reads the offer back
      config: { auth: 'user', approved: true, idempotent: true, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Accept, reject or counter an offer',
        description:
          'Only the party that did not name the current price may answer (NOT_YOUR_TURN): the load owner answers the carrier and back. accept needs a plan (PLAN_REQUIRED) and books the load: exactly one accepted offer per load, every other pending offer closes; a lost race answers SHIPMENT_ALREADY_ASSIGNED.',
        body: offerRespondBody,
        response: offerData,
      },
    },
    async (req) => ({ message: message(`offers.${req.body.action}`, req.lang), data: await svc.respond(app.requireUser(req), req.body) }),
  );

  app.post(
    '/offers/:id/withdraw',
    { config: { auth: 'user', approved: true }, schema: { tags, summary: 'Withdraw my pending offer', params: idParams, response: offerData } },
    async (req) => ({ message: message('offers.withdrawn', req.lang), data: await svc.withdraw(app.requireUser(req), req.params.id) }),
  );

  app.get(
    '/offers',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Offers on a load, sent or received',
        description:
          '?loadId= the offers on a load (all for its owner, mine for a bidder); ?box=sent offers I made; ?box=received offers on my loads; neither: both. ?turn=mine keeps the open offers waiting for my answer (the other party named the last price). Most recently active first.',
        querystring: offersQuery,
        response: { 200: envelope(offerListResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.list(app.requireUser(req), req.query) }),
  );
}
