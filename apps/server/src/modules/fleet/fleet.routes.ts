import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
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
  type MessageKey,
  type Vehicle,
  type WaslResultView,
} from '@masar/shared';
import type { CurrentUser } from '../auth/auth.types.ts';
import { FLEET_ROLES, type FleetService } from './fleet.service.ts';

const auth = { auth: 'user' as const, roles: FLEET_ROLES };
const tags = ['fleet'];
const nullData = { 200: envelope(z.null()) };
type FleetApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/** A kind of fleet item (vehicles, trailers, drivers): what its CRUD and state routes differ in. */
interface FleetResource<Q extends z.ZodType, L extends z.ZodType, In extends z.ZodType, Upd extends z.ZodType, Item extends z.ZodType> {
  /** The collection, e.g. '/vehicles'; an item is `${path}/:id`. */
  path: string;
  /** The item's name in the summaries ('My vehicles', 'Add a vehicle', 'A vehicle of mine' …). */
  noun: string;
  schemas: { listQuery: Q; list: L; input: In; update: Upd; item: Item };
  /** The create's description: its errors. */
  createDescription: string;
  deleteSummary: string;
  activateSummary: string;
  /** The message of a create and an edit (spec §8 "success messages exist for vehicle, trailer … saves"). */
  saved: MessageKey;
  service: {
    list(user: CurrentUser, q: z.output<Q>): Promise<z.output<L>>;
    create(user: CurrentUser, b: z.output<In>): Promise<z.output<Item>>;
    get(user: CurrentUser, id: string): Promise<z.output<Item>>;
    update(user: CurrentUser, id: string, b: z.output<Upd>): Promise<z.output<Item>>;
    remove(user: CurrentUser, id: string): Promise<null>;
    suspend(user: CurrentUser, id: string): Promise<z.output<Item>>;
    activate(user: CurrentUser, id: string): Promise<z.output<Item>>;
  };
  /** Further routes on the collection (/vehicles/for-assignment), registered after its POST and before the item routes. */
  collectionRoutes?: () => void;
}

/**
 * GET and POST `path`, GET, PATCH and DELETE `path/:id`, POST `path/:id/suspend` and `/activate`,
 * in this order (the order of the OpenAPI document). A create is 201 and replays on an
 * Idempotency-Key retry (`idempotencyReplay`); a delete answers data null.
 */
function registerFleetResource<Q extends z.ZodType, L extends z.ZodType, In extends z.ZodType, Upd extends z.ZodType, Item extends z.ZodType>(
  app: FleetApp,
  r: FleetResource<Q, L, In, Upd, Item>,
) {
  const { path, noun, service } = r;
  // plain zod types here: the routes validate and serialise with them at run time, and
  // FleetResource ties them to the service's types where the resource is configured
  const schemas: Record<keyof typeof r.schemas, z.ZodType> = r.schemas;
  const item = `${path}/:id`;
  const data = { 200: envelope(schemas.item) };
  app.get(
    path,
    { config: auth, schema: { tags, summary: `My ${noun}s`, querystring: schemas.listQuery, response: { 200: envelope(schemas.list) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await service.list(app.requireUser(req), req.query as z.output<Q>) }),
  );
  app.post(
    path,
    {
      config: { ...auth, idempotencyReplay: true },
      schema: { tags, summary: `Add a ${noun}`, description: r.createDescription, body: schemas.input, response: { 201: envelope(schemas.item) } },
    },
    async (req, reply) =>
      reply.status(201).send({ message: message(r.saved, req.lang), data: await service.create(app.requireUser(req), req.body as z.output<In>) }),
  );
  r.collectionRoutes?.();
  app.get(item, { config: auth, schema: { tags, summary: `A ${noun} of mine`, params: idParams, response: data } }, async (req) => ({
    message: message('common.ok', req.lang),
    data: await service.get(app.requireUser(req), req.params.id),
  }));
  app.patch(item, { config: auth, schema: { tags, summary: `Edit a ${noun}`, params: idParams, body: schemas.update, response: data } }, async (req) => ({
    message: message(r.saved, req.lang),
    data: await service.update(app.requireUser(req), req.params.id, req.body as z.output<Upd>),
  }));
  app.delete(item, { config: auth, schema: { tags, summary: r.deleteSummary, params: idParams, response: nullData } }, async (req) => {
    await service.remove(app.requireUser(req), req.params.id);
    return { message: message('fleet.deleted', req.lang), data: null };
  });
  app.post(`${item}/suspend`, { config: auth, schema: { tags, summary: `Suspend a ${noun}`, params: idParams, response: data } }, async (req) => ({
    message: message('fleet.suspended', req.lang),
    data: await service.suspend(app.requireUser(req), req.params.id),
  }));
  app.post(`${item}/activate`, { config: auth, schema: { tags, summary: r.activateSummary, params: idParams, response: data } }, async (req) => ({
    message: message('fleet.activated', req.lang),
    data: await service.activate(app.requireUser(req), req.params.id),
  }));
}

/** The fleet table (tabs across kinds). */
function fleetTableRoutes(app: FleetApp, svc: FleetService) {
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
}

/** WASL registration of a vehicle or a driver (issue 7). */
function waslRoutes(app: FleetApp, svc: FleetService) {
  const waslMsg = (s: string) => (s === 'verified' ? 'fleet.waslVerified' : s === 'not_required' ? 'fleet.waslNotRequired' : 'fleet.waslNotVerified');
  const waslRoute = (path: string, summary: string, description: string, register: (user: CurrentUser, id: string) => Promise<WaslResultView>) =>
    app.post(
      path,
      { config: { ...auth, idempotent: false }, schema: { tags, summary, description, params: idParams, response: { 200: envelope(waslResultSchema) } } },
      async (req) => {
        const data = await register(app.requireUser(req), req.params.id);
        return { message: message(waslMsg(data.waslStatus), req.lang, req.digits), data };
      },
    );
  waslRoute(
    '/vehicles/:id/wasl',
    'Register a vehicle with WASL (plate, plate type, sequence number)',
    'Answers the vehicle’s WASL status: verified, not_verified with WASL’s reasons, or not_required under 3.5 t (nothing sent). Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED, WASL_UNAVAILABLE.',
    svc.registerVehicleWasl,
  );
  waslRoute(
    '/drivers/:id/wasl',
    'Register a driver with WASL (identity, date of birth Hijri and Gregorian, mobile)',
    'Answers the driver’s WASL status: verified, or not_verified with WASL’s reasons. Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED, WASL_UNAVAILABLE.',
    svc.registerDriverWasl,
  );
}

/** Vehicles: CRUD and state, vehicles for assignment, their driver and trailer. */
function vehicleRoutes(app: FleetApp, svc: FleetService) {
  registerFleetResource(app, {
    path: '/vehicles',
    noun: 'vehicle',
    schemas: { listQuery: vehicleListQuery, list: vehicleListResponse, input: vehicleInput, update: vehicleUpdate, item: vehicleSchema },
    createDescription:
      'Errors: DUPLICATE_PLATE (a live vehicle on the platform has this plate), INVALID_EQUIPMENT, INVALID_VENDOR, INVALID_FILE, DRIVER_ALREADY_ASSIGNED, TRAILER_ALREADY_LINKED, WRONG_ROLE (shipper with a vendor vehicle).',
    deleteSummary: 'Delete a vehicle (soft: state deleted; frees its driver and trailer)',
    activateSummary: 'Reactivate a suspended vehicle',
    saved: 'fleet.vehicleSaved',
    service: {
      list: svc.listVehicles,
      create: svc.createVehicle,
      get: svc.getVehicle,
      update: svc.updateVehicle,
      remove: svc.deleteVehicle,
      suspend: svc.suspendVehicle,
      activate: svc.activateVehicle,
    },
    collectionRoutes: () =>
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
      ),
  });
  // a vehicle's driver and trailer: POST …/<on> with the part's id in the body, POST …/<off> takes it off
  const vehicleData = { 200: envelope(vehicleSchema) };
  const vehiclePart = <B extends z.ZodType>(p: {
    on: string;
    off: string;
    summaries: [on: string, off: string];
    body: B;
    partId: (body: z.output<B>) => string;
    set: (user: CurrentUser, id: string, partId: string | null) => Promise<Vehicle>;
  }) => {
    app.post(
      `/vehicles/:id/${p.on}`,
      { config: auth, schema: { tags, summary: p.summaries[0], params: idParams, body: p.body, response: vehicleData } },
      async (req) => ({
        message: message('fleet.statusUpdated', req.lang),
        data: await p.set(app.requireUser(req), req.params.id, p.partId(req.body as z.output<B>)),
      }),
    );
    app.post(`/vehicles/:id/${p.off}`, { config: auth, schema: { tags, summary: p.summaries[1], params: idParams, response: vehicleData } }, async (req) => ({
      message: message('fleet.statusUpdated', req.lang),
      data: await p.set(app.requireUser(req), req.params.id, null),
    }));
  };
  vehiclePart({
    on: 'assign-driver',
    off: 'unassign-driver',
    summaries: ['Assign one of my drivers', 'Unassign the driver'],
    body: assignDriverBody,
    partId: (b) => b.driverId,
    set: svc.assignDriver,
  });
  vehiclePart({
    on: 'link-trailer',
    off: 'unlink-trailer',
    summaries: ['Link one of my trailers', 'Unlink the trailer'],
    body: linkTrailerBody,
    partId: (b) => b.trailerId,
    set: svc.linkTrailer,
  });
}

/** Trailers: CRUD and state. */
function trailerRoutes(app: FleetApp, svc: FleetService) {
  registerFleetResource(app, {
    path: '/trailers',
    noun: 'trailer',
    schemas: { listQuery: trailerListQuery, list: trailerListResponse, input: trailerInput, update: trailerUpdate, item: trailerSchema },
    createDescription: 'Errors: DUPLICATE_TRAILER_NUMBER (per owner).',
    deleteSummary: 'Delete a trailer (soft; unlinks it)',
    activateSummary: 'Reactivate a trailer',
    saved: 'fleet.trailerSaved',
    service: {
      list: svc.listTrailers,
      create: svc.createTrailer,
      get: svc.getTrailer,
      update: svc.updateTrailer,
      remove: svc.deleteTrailer,
      suspend: svc.suspendTrailer,
      activate: svc.activateTrailer,
    },
  });
}

/** Drivers: CRUD and state, the driver's job link and its SMS. */
function driverRoutes(app: FleetApp, svc: FleetService) {
  registerFleetResource(app, {
    path: '/drivers',
    noun: 'driver',
    schemas: { listQuery: driverListQuery, list: driverListResponse, input: driverInput, update: driverUpdate, item: driverSchema },
    createDescription: 'Errors: MOI_EXISTS (platform-wide), DRIVER_EXISTS (same ID/Iqama in my fleet), INVALID_FILE.',
    deleteSummary: 'Delete a driver (soft; unassigns them)',
    activateSummary: 'Reactivate a driver',
    saved: 'fleet.driverSaved',
    service: {
      list: svc.listDrivers,
      create: svc.createDriver,
      get: svc.getDriver,
      update: svc.updateDriver,
      remove: svc.deleteDriver,
      suspend: svc.suspendDriver,
      activate: svc.activateDriver,
    },
  });
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
}

/** Trusted drivers (drivers of my own fleet). */
function trustedDriverRoutes(app: FleetApp, svc: FleetService) {
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
    { config: auth, schema: { tags, summary: 'Mark one of my drivers as trusted', body: trustedDriverBody, response: { 200: envelope(driverSchema) } } },
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

/**
 * Fleet management (issue 3; spec §2, §3, §4, §5, §7 /vehicles /trailers /drivers). Role and
 * ownership rules: fleet.service.ts and docs/fleet.md.
 */
export default async function fleetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.fleet;
  // registration order is the OpenAPI document's order
  fleetTableRoutes(app, svc);
  waslRoutes(app, svc);
  vehicleRoutes(app, svc);
  trailerRoutes(app, svc);
  driverRoutes(app, svc);
  trustedDriverRoutes(app, svc);
}
