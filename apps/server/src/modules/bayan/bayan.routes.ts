import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ACCOUNT_TYPE,
  bayanListQuery,
  bayanListResponse,
  bayanTripSchema,
  cancelBayanBody,
  closeBayanBody,
  createBayanBody,
  envelope,
  idParams,
  loadBayanQuery,
  loadBayanSchema,
  waybillConfigResponse,
  waybillConfigSchema,
  message,
} from '@masar/shared';

/**
 * Bayan trips and waybills (issue 7; spec §1, §4, §5, §7 `/bayan/list`) and the waybill config
 * of the account. Rules: bayan.service.ts and docs/bayan-wasl.md. Shippers, carriers and brokers.
 */
export default async function bayanRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.bayan;
  const auth = { auth: 'user' as const, roles: [ACCOUNT_TYPE.shipper, ACCOUNT_TYPE.carrier, ACCOUNT_TYPE.broker] };
  const tags = ['bayan'];
  const tripData = { 200: envelope(bayanTripSchema) };

  app.get(
    '/bayan/list',
    {
      config: auth,
      schema: {
        tags,
        summary: 'My Bayan trips (as carrier or shipper), newest first',
        description:
          'Filters: status, created between from and to, reference (shipment reference or waybill number, prefix). Keyset pagination: pass nextCursor as cursor; no total is counted.',
        querystring: bayanListQuery,
        response: { 200: envelope(bayanListResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.list(app.requireUser(req), req.query) }),
  );

  app.post(
    '/bayan/trips',
    {
      // crash-safe replay (issue 22): the reservation's transaction is replayed and Bayan, sent
      // the same Idempotency-Key (load + attempt), answers the same trip
      config: { ...auth, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Create the Bayan trip and waybill of an assigned shipment (the confirmation step)',
        description:
          'The awarded carrier files the vehicle and driver assigned on the shipment. 201: created (Bayan trip id and waybill number). 202: Bayan did not answer; the shipment is pending_bayan and a job retries. Errors: NOT_FOUND, FORBIDDEN, BAYAN_NOT_ASSIGNED, BAYAN_EXISTS, BAYAN_ASSIGNMENT_MISMATCH (vehicle or driver not the ones assigned from the awarded carrier’s fleet), BAYAN_UNDER_MIN_WEIGHT (vehicle under 3.5 t), WASL_NOT_VERIFIED, INVALID_TRANSITION, BAYAN_REJECTED.',
        body: createBayanBody,
        response: { 201: envelope(bayanTripSchema), 202: envelope(bayanTripSchema) },
      },
    },
    async (req, reply) => {
      const { trip, created } = await svc.create(app.requireUser(req), req.body);
      return reply.status(created ? 201 : 202).send({ message: message(created ? 'bayan.created' : 'bayan.pending', req.lang), data: trip });
    },
  );

  app.get(
    '/bayan/trips',
    {
      config: auth,
      schema: {
        tags,
        summary: 'The Bayan of one shipment (trip id, waybill number, status) or null',
        description: 'For the shipment page; shipper or awarded carrier. Errors: NOT_FOUND.',
        querystring: loadBayanQuery,
        response: { 200: envelope(loadBayanSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.forLoad(app.requireUser(req), req.query.loadId) }),
  );

  app.get(
    '/bayan/trips/:id',
    { config: auth, schema: { tags, summary: 'One Bayan trip', description: 'Errors: NOT_FOUND.', params: idParams, response: tripData } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.get(app.requireUser(req), req.params.id) }),
  );

  app.post(
    '/bayan/trips/:id/close',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Close the waybill with the actual delivery time: the shipment becomes completed',
        description:
          "Only after the driver completed the job (proof of drop): else NOT_DELIVERED — unless the shipper overrides with overrideReason, recorded as load.delivery_override on the timeline (a carrier's override is DELIVERY_OVERRIDE_FORBIDDEN). Errors: NOT_FOUND, BAYAN_NOT_ACTIVE, INVALID_TRANSITION, NOT_DELIVERED, DELIVERY_OVERRIDE_FORBIDDEN, BAYAN_UNAVAILABLE, BAYAN_REJECTED.",
        params: idParams,
        body: closeBayanBody,
        response: tripData,
      },
    },
    async (req) => ({
      message: message('bayan.closed', req.lang),
      data: await svc.close(app.requireUser(req), req.params.id, new Date(req.body.deliveredAt), req.body.overrideReason),
    }),
  );

  app.post(
    '/bayan/trips/:id/cancel',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Cancel the Bayan with a reason: the shipment is cancelled too',
        description: 'Reasons: recipient_refused, damage, theft. Errors: NOT_FOUND, BAYAN_NOT_ACTIVE, INVALID_TRANSITION, BAYAN_UNAVAILABLE, BAYAN_REJECTED.',
        params: idParams,
        body: cancelBayanBody,
        response: tripData,
      },
    },
    async (req) => ({ message: message('bayan.cancelled', req.lang), data: await svc.cancel(app.requireUser(req), req.params.id, req.body.reason) }),
  );

  app.get(
    '/bayan/trips/:id/print',
    {
      config: auth,
      schema: {
        tags,
        summary: 'The Bayan permit and waybill as a PDF (application/pdf)',
        description: 'Errors: NOT_FOUND, BAYAN_NOT_ACTIVE, BAYAN_UNAVAILABLE.',
        params: idParams,
      },
    },
    async (req, reply) => {
      const { pdf, name } = await svc.print(app.requireUser(req), req.params.id);
      return reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${name}.pdf"`).send(pdf);
    },
  );

  app.get(
    '/account/waybill-config',
    { config: auth, schema: { tags, summary: 'My waybill sender defaults', response: { 200: envelope(waybillConfigResponse) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.waybillConfig(app.requireUser(req)) }),
  );
  app.put(
    '/account/waybill-config',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Save my waybill sender defaults (name, phone, address, city)',
        description: 'Errors: INVALID_CITY.',
        body: waybillConfigSchema,
        response: { 200: envelope(waybillConfigResponse) },
      },
    },
    async (req) => ({ message: message('bayan.saved', req.lang), data: await svc.putWaybillConfig(app.requireUser(req), req.body) }),
  );
}
