import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignDriverBody,
  driverInput,
  driverLinkResponse,
  driverLinkSmsResponse,
  driverListQuery,
  driverListResponse,
  driverSchema,
  driverUpdate,
  envelope,
  fleetListResponse,
  fleetQuery,
  idParams,
  linkTrailerBody,
  trailerInput,
  trailerListQuery,
  trailerListResponse,
  trailerSchema,
  trailerUpdate,
  trustedDriverBody,
  trustedDriversQuery,
  vehicleInput,
  vehicleListQuery,
  vehicleListResponse,
  vehicleSchema,
  vehicleUpdate,
  waslResultSchema,
  message,
} from '@masar/shared';
import { FLEET_ROLES } from './fleet.service.ts';

/** Success messages (spec §8 "success messages exist for vehicle, trailer … saves"). */
/** A route message in `lang`; its numbers (`{3.5}`) in the reader's digit system. */

/**
 * Fleet management (issue 3; spec §2, §3, §4, §5, §7 /vehicles /trailers /drivers). Role and
 * ownership rules: fleet.service.ts and docs/fleet.md.
 */
export default async function fleetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.fleet;
  const auth = { auth: 'user' as const, roles: FLEET_ROLES };
  const tags = ['fleet'];
  const nullData = { 200: envelope(z.null()) };

  app.get(
    '/fleet',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Fleet table: tabs All (0), Driver (1), Trailer (2), Vehicle (3)',
        description:
          'search, state (default: all but deleted), availability and wasl (vehicles only), limit/skip. Newest first; counts per kind for the tab badges.',
        querystring: fleetQuery,
        response: { 200: envelope(fleetListResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.fleet(app.requireUser(req), req.query) }),
  );

  // ---------- WASL (issue 7) ----------
  const waslMsg = (s: string) => (s === 'verified' ? 'fleet.waslVerified' : s === 'not_required' ? 'fleet.waslNotRequired' : 'fleet.waslNotVerified');
  app.post(
    '/vehicles/:id/wasl',
    {
      config: { ...auth, idempotent: false },
      schema: {
        tags,
        summary: 'Register a vehicle with WASL (plate, plate type, sequence number)',
        description:
          'Answers the vehicle’s WASL status: verified, not_verified with WASL’s reasons, or not_required under 3.5 t (nothing sent). Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED, WASL_UNAVAILABLE.',
        params: idParams,
        response: { 200: envelope(waslResultSchema) },
      },
    },
    async (req) => {
      const data = await svc.registerVehicleWasl(app.requireUser(req), req.params.id);
      return { message: message(waslMsg(data.waslStatus), req.lang, req.digits), data };
    },
  );
  app.post(
    '/drivers/:id/wasl',
    {
      config: { ...auth, idempotent: false },
      schema: {
        tags,
        summary: 'Register a driver with WASL (identity, date of birth Hijri and Gregorian, mobile)',
        description:
          'Answers the driver’s WASL status: verified, or not_verified with WASL’s reasons. Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED, WASL_UNAVAILABLE.',
        params: idParams,
        response: { 200: envelope(waslResultSchema) },
      },
    },
    async (req) => {
      const data = await svc.registerDriverWasl(app.requireUser(req), req.params.id);
      return { message: message(waslMsg(data.waslStatus), req.lang, req.digits), data };
    },
  );

  // ---------- vehicles ----------
  const vehicleData = { 200: envelope(vehicleSchema) };
  app.get(
    '/vehicles',
    { config: auth, schema: { tags, summary: 'My vehicles', querystring: vehicleListQuery, response: { 200: envelope(vehicleListResponse) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.listVehicles(app.requireUser(req), req.query) }),
  );
  app.get(
    '/vehicles/for-assignment',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Vehicles available for assignment',
        description: 'Active, free vehicles with an active driver AND a linked active trailer. None → 404 NO_VEHICLES_FOR_ASSIGNMENT (spec §8).',
        response: { 200: envelope(vehicleListResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.forAssignment(app.requireUser(req)) }),
  );
  app.post(
    '/vehicles',
    {
      config: { ...auth, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Add a vehicle',
        description:
          'Errors: DUPLICATE_PLATE (a live vehicle on the platform has this plate), INVALID_EQUIPMENT, INVALID_VENDOR, INVALID_FILE, DRIVER_ALREADY_ASSIGNED, TRAILER_ALREADY_LINKED, WRONG_ROLE (shipper with a vendor vehicle).',
        body: vehicleInput,
        response: { 201: envelope(vehicleSchema) },
      },
    },
    async (req, reply) =>
      reply.status(201).send({ message: message('fleet.vehicleSaved', req.lang), data: await svc.createVehicle(app.requireUser(req), req.body) }),
  );
  app.get('/vehicles/:id', { config: auth, schema: { tags, summary: 'A vehicle of mine', params: idParams, response: vehicleData } }, async (req) => ({
    message: message('common.ok', req.lang),
    data: await svc.getVehicle(app.requireUser(req), req.params.id),
  }));
  app.patch(
    '/vehicles/:id',
    { config: auth, schema: { tags, summary: 'Edit a vehicle', params: idParams, body: vehicleUpdate, response: vehicleData } },
    async (req) => ({
      message: message('fleet.vehicleSaved', req.lang),
      data: await svc.updateVehicle(app.requireUser(req), req.params.id, req.body),
    }),
  );
  app.delete(
    '/vehicles/:id',
    { config: auth, schema: { tags, summary: 'Delete a vehicle (soft: state deleted; frees its driver and trailer)', params: idParams, response: nullData } },
    async (req) => {
      await svc.deleteVehicle(app.requireUser(req), req.params.id);
      return { message: message('fleet.deleted', req.lang), data: null };
    },
  );
  app.post('/vehicles/:id/suspend', { config: auth, schema: { tags, summary: 'Suspend a vehicle', params: idParams, response: vehicleData } }, async (req) => ({
    message: message('fleet.suspended', req.lang),
    data: await svc.suspendVehicle(app.requireUser(req), req.params.id),
  }));
  app.post(
    '/vehicles/:id/activate',
    { config: auth, schema: { tags, summary: 'Reactivate a suspended vehicle', params: idParams, response: vehicleData } },
    async (req) => ({
      message: message('fleet.activated', req.lang),
      data: await svc.activateVehicle(app.requireUser(req), req.params.id),
    }),
  );
  app.post(
    '/vehicles/:id/assign-driver',
    { config: auth, schema: { tags, summary: 'Assign one of my drivers', params: idParams, body: assignDriverBody, response: vehicleData } },
    async (req) => ({
      message: message('fleet.statusUpdated', req.lang),
      data: await svc.assignDriver(app.requireUser(req), req.params.id, req.body.driverId),
    }),
  );
  app.post(
    '/vehicles/:id/unassign-driver',
    { config: auth, schema: { tags, summary: 'Unassign the driver', params: idParams, response: vehicleData } },
    async (req) => ({
      message: message('fleet.statusUpdated', req.lang),
      data: await svc.assignDriver(app.requireUser(req), req.params.id, null),
    }),
  );
  app.post(
    '/vehicles/:id/link-trailer',
    { config: auth, schema: { tags, summary: 'Link one of my trailers', params: idParams, body: linkTrailerBody, response: vehicleData } },
    async (req) => ({
      message: message('fleet.statusUpdated', req.lang),
      data: await svc.linkTrailer(app.requireUser(req), req.params.id, req.body.trailerId),
    }),
  );
  app.post(
    '/vehicles/:id/unlink-trailer',
    { config: auth, schema: { tags, summary: 'Unlink the trailer', params: idParams, response: vehicleData } },
    async (req) => ({
      message: message('fleet.statusUpdated', req.lang),
      data: await svc.linkTrailer(app.requireUser(req), req.params.id, null),
    }),
  );

  // ---------- trailers ----------
  const trailerData = { 200: envelope(trailerSchema) };
  app.get(
    '/trailers',
    { config: auth, schema: { tags, summary: 'My trailers', querystring: trailerListQuery, response: { 200: envelope(trailerListResponse) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.listTrailers(app.requireUser(req), req.query) }),
  );
  app.post(
    '/trailers',
    {
      config: { ...auth, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Add a trailer',
        description: 'Errors: DUPLICATE_TRAILER_NUMBER (per owner).',
        body: trailerInput,
        response: { 201: envelope(trailerSchema) },
      },
    },
    async (req, reply) =>
      reply.status(201).send({ message: message('fleet.trailerSaved', req.lang), data: await svc.createTrailer(app.requireUser(req), req.body) }),
  );
  app.get('/trailers/:id', { config: auth, schema: { tags, summary: 'A trailer of mine', params: idParams, response: trailerData } }, async (req) => ({
    message: message('common.ok', req.lang),
    data: await svc.getTrailer(app.requireUser(req), req.params.id),
  }));
  app.patch(
    '/trailers/:id',
    { config: auth, schema: { tags, summary: 'Edit a trailer', params: idParams, body: trailerUpdate, response: trailerData } },
    async (req) => ({
      message: message('fleet.trailerSaved', req.lang),
      data: await svc.updateTrailer(app.requireUser(req), req.params.id, req.body),
    }),
  );
  app.delete(
    '/trailers/:id',
    { config: auth, schema: { tags, summary: 'Delete a trailer (soft; unlinks it)', params: idParams, response: nullData } },
    async (req) => {
      await svc.deleteTrailer(app.requireUser(req), req.params.id);
      return { message: message('fleet.deleted', req.lang), data: null };
    },
  );
  app.post('/trailers/:id/suspend', { config: auth, schema: { tags, summary: 'Suspend a trailer', params: idParams, response: trailerData } }, async (req) => ({
    message: message('fleet.suspended', req.lang),
    data: await svc.suspendTrailer(app.requireUser(req), req.params.id),
  }));
  app.post(
    '/trailers/:id/activate',
    { config: auth, schema: { tags, summary: 'Reactivate a trailer', params: idParams, response: trailerData } },
    async (req) => ({
      message: message('fleet.activated', req.lang),
      data: await svc.activateTrailer(app.requireUser(req), req.params.id),
    }),
  );

  // ---------- drivers ----------
  const driverData = { 200: envelope(driverSchema) };
  app.get(
    '/drivers',
    { config: auth, schema: { tags, summary: 'My drivers', querystring: driverListQuery, response: { 200: envelope(driverListResponse) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.listDrivers(app.requireUser(req), req.query) }),
  );
  app.post(
    '/drivers',
    {
      config: { ...auth, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Add a driver',
        description: 'Errors: MOI_EXISTS (platform-wide), DRIVER_EXISTS (same ID/Iqama in my fleet), INVALID_FILE.',
        body: driverInput,
        response: { 201: envelope(driverSchema) },
      },
    },
    async (req, reply) =>
      reply.status(201).send({ message: message('fleet.driverSaved', req.lang), data: await svc.createDriver(app.requireUser(req), req.body) }),
  );
  app.get('/drivers/:id', { config: auth, schema: { tags, summary: 'A driver of mine', params: idParams, response: driverData } }, async (req) => ({
    message: message('common.ok', req.lang),
    data: await svc.getDriver(app.requireUser(req), req.params.id),
  }));
  app.patch(
    '/drivers/:id',
    { config: auth, schema: { tags, summary: 'Edit a driver', params: idParams, body: driverUpdate, response: driverData } },
    async (req) => ({
      message: message('fleet.driverSaved', req.lang),
      data: await svc.updateDriver(app.requireUser(req), req.params.id, req.body),
    }),
  );
  app.delete(
    '/drivers/:id',
    { config: auth, schema: { tags, summary: 'Delete a driver (soft; unassigns them)', params: idParams, response: nullData } },
    async (req) => {
      await svc.deleteDriver(app.requireUser(req), req.params.id);
      return { message: message('fleet.deleted', req.lang), data: null };
    },
  );
  app.post('/drivers/:id/suspend', { config: auth, schema: { tags, summary: 'Suspend a driver', params: idParams, response: driverData } }, async (req) => ({
    message: message('fleet.suspended', req.lang),
    data: await svc.suspendDriver(app.requireUser(req), req.params.id),
  }));
  app.post(
    '/drivers/:id/activate',
    { config: auth, schema: { tags, summary: 'Reactivate a driver', params: idParams, response: driverData } },
    async (req) => ({
      message: message('fleet.activated', req.lang),
      data: await svc.activateDriver(app.requireUser(req), req.params.id),
    }),
  );
  app.get(
    '/drivers/:id/link',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Share driver link: a signed job link (JWT, purpose driver-job, 7 days)',
        params: idParams,
        response: { 200: envelope(driverLinkResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.driverLink(app.requireUser(req), req.params.id) }),
  );
  app.post(
    '/drivers/:id/link/sms',
    {
      // a few per hour and user: each one is an SMS we pay for, to a phone the owner typed in
      config: { ...auth, rateLimit: { max: 5, timeWindow: '1 hour' } },
      schema: {
        tags,
        summary: "Send the driver's job link to the driver's phone by SMS (issue 23)",
        description:
          'Signs a fresh job link (as GET /drivers/:id/link) and sends it through the SMS gateway in the request language. 502 SMS_SEND_FAILED when the gateway refuses.',
        params: idParams,
        response: { 200: envelope(driverLinkSmsResponse) },
      },
    },
    async (req) => ({ message: message('fleet.linkSent', req.lang), data: await svc.sendDriverLinkSms(app.requireUser(req), req.params.id, req.lang) }),
  );

  // ---------- trusted drivers ----------
  app.get(
    '/trusted-drivers',
    {
      config: auth,
      schema: {
        tags,
        summary: 'My trusted drivers',
        description: 'Drivers of my own fleet I marked as trusted; search by name, phone, licence or ID.',
        querystring: trustedDriversQuery,
        response: { 200: envelope(driverListResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.listDrivers(app.requireUser(req), { ...req.query, trustedOnly: true }) }),
  );
  app.post(
    '/trusted-drivers',
    { config: auth, schema: { tags, summary: 'Mark one of my drivers as trusted', body: trustedDriverBody, response: driverData } },
    async (req) => ({ message: message('fleet.statusUpdated', req.lang), data: await svc.trust(app.requireUser(req), req.body.driverId) }),
  );
  app.delete(
    '/trusted-drivers/:id',
    { config: auth, schema: { tags, summary: 'Remove a driver (id) from my trusted drivers', params: idParams, response: nullData } },
    async (req) => {
      await svc.untrust(app.requireUser(req), req.params.id);
      return { message: message('fleet.statusUpdated', req.lang), data: null };
    },
  );
}
