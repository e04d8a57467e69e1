import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { assignShipmentBody, assignmentSchema, envelope, loadIdParams, unassignShipmentBody, message } from '@masar/shared';

/** Assignment of a vehicle with its driver and trailer to a booked shipment (issue 7; spec §2 delivery tracking). */
export default async function assignmentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.assignment;
  const config = { auth: 'user' as const };
  const tags = ['assignment'];

  app.get(
    '/delivery-tracking/:loadId',
    {
      config,
      schema: {
        tags,
        summary: 'The vehicle, driver and trailer of a shipment',
        description: 'For the shipper and the awarded carrier; NOT_FOUND for anyone else. Parts are null until a vehicle is assigned.',
        params: loadIdParams,
        response: { 200: envelope(assignmentSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.get(app.requireUser(req), req.params.loadId) }),
  );
  app.post(
    '/delivery-tracking/assign-driver',
    {
      // no id is made and no gateway is called: a crash-recovered retry replays the transaction and reads the assignment back
      config: { ...config, idempotent: true, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Assign a vehicle (with its driver and trailer) to a booked shipment',
        description:
          'The awarded carrier only (the owner for an own-vehicle shipment, the vendor for a vendor shipment): unassigned → assigned (lifecycle.ts). ' +
          'Pick from GET /vehicles/for-assignment (NO_VEHICLES_FOR_ASSIGNMENT when none). Errors: NOT_AWARDED_CARRIER, INVALID_TRANSITION, ' +
          'VEHICLE_NOT_AVAILABLE (inactive, busy, or without an active driver and linked trailer), VEHICLE_WASL_REQUIRED (3.5 t and over, WASL not verified), ' +
          'VEHICLE_BUSY (the vehicle or driver runs another shipment). Send an Idempotency-Key.',
        body: assignShipmentBody,
        response: { 200: envelope(assignmentSchema) },
      },
    },
    async (req) => ({ message: message('assignment.assigned', req.lang), data: await svc.assign(app.requireUser(req), req.body.loadId, req.body.vehicleId) }),
  );
  app.post(
    '/delivery-tracking/:loadId/complete',
    {
      config,
      schema: {
        tags,
        summary: 'Complete a shipment that needs no Bayan (vehicle under 3.5 t)',
        description:
          'The awarded carrier or the owner, after the driver completed the job: assigned → completed. BAYAN_REQUIRED for a 3.5 t+ vehicle (close its Bayan instead), NOT_DELIVERED before the proof of drop.',
        params: loadIdParams,
        response: { 200: envelope(assignmentSchema) },
      },
    },
    async (req) => ({ message: message('assignment.completed', req.lang), data: await svc.complete(app.requireUser(req), req.params.loadId) }),
  );
  app.post(
    '/delivery-tracking/unassign-driver',
    {
      config,
      schema: {
        tags,
        summary: 'Take the vehicle and driver off a shipment',
        description: 'The awarded carrier, before the Bayan trip exists: assigned or pending Bayan → unassigned; the vehicle is free again.',
        body: unassignShipmentBody,
        response: { 200: envelope(assignmentSchema) },
      },
    },
    async (req) => ({ message: message('assignment.unassigned', req.lang), data: await svc.unassign(app.requireUser(req), req.body.loadId) }),
  );
}
