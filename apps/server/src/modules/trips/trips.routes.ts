import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ZodApp } from '../../lib/zod-app.ts';
import {
  daysToPaySchema,
  driverJobSchema,
  driverJobsResponse,
  envelope,
  idParams,
  loadTrackingSchema,
  paymentReceivedResponse,
  positionsAccepted,
  positionsBody,
  PROOF_MAX_BYTES,
  trackOverviewSchema,
  trackQuery,
  tripProofFields,
  tripProofSchema,
  tripSessionBody,
  tripSessionResponse,
  tripStepBody,
  vehicleTrackSchema,
  message,
} from '@masar/shared';
import type { TripsService } from './trips.service.ts';
import { AppError } from '../../lib/errors.ts';
import { readUpload } from '../../lib/upload.ts';

/**
 * A driver's write the server already had (a step or proof sent twice, or from a second phone;
 * issue 49) answers 200 with the record and this header, as the Idempotency-Key replay does.
 */
const REPLAYED_HEADER = 'idempotent-replayed';

/** The header a driver's browser sends its trip session token in. */
export const TRIP_TOKEN_HEADER = 'x-trip-token';

const tripTokenHeaders = z.object({ [TRIP_TOKEN_HEADER]: z.string().optional() });

/**
 * The driver's trip, proofs, tracking and payment follow-through (issue 7; spec §2 driver job
 * link, track vehicle /godsview, §6). Rules in use-cases/ (wired in trips.service.ts); docs/driver-trip.md.
 * Driver routes carry no account: the trip session token (POST /driver/trip/session) goes in
 * the X-Trip-Token header.
 */
export default async function tripsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await app.register(multipart, { limits: { fileSize: PROOF_MAX_BYTES + 1, files: 1, fields: 8 } });
  const svc = app.container.services.trips;
  driverRoutes(app, svc);
  proofRoutes(app, svc);
  trackingRoutes(app, svc);
  shipmentRoutes(app, svc);
}

const driverTags = ['trips'];

/** The driver of the request's trip session token (TRIP_SESSION_INVALID without one). */
const driverOf = (svc: TripsService, req: FastifyRequest) => {
  const h = req.headers[TRIP_TOKEN_HEADER];
  return svc.driverOf(typeof h === 'string' ? h : undefined);
};

/** The driver's trip session, jobs and steps. */
function driverRoutes(app: ZodApp, svc: TripsService) {
  const perIp = app.config.AUTH_RATE_PER_IP_PER_MIN > 0 ? { max: app.config.AUTH_RATE_PER_IP_PER_MIN, timeWindow: 60_000 } : false;
  app.post(
    '/driver/trip/session',
    {
      config: { auth: 'none', rateLimit: perIp },
      schema: {
        tags: driverTags,
        summary: 'Driver: open a trip session from the job link (phone + licence number)',
        description:
          'Spec §6: the driver of the job link proves phone and licence number (both checked against the drivers row). Returns a short-lived trip token (TRIP_SESSION_HOURS, default 12 h) for the X-Trip-Token header. Errors: DRIVER_LINK_INVALID, DRIVER_NOT_IDENTIFIED.',
        body: tripSessionBody,
        response: { 200: envelope(tripSessionResponse) },
      },
    },
    async (req) => ({ message: message('trips.identified', req.lang), data: await svc.openSession(req.body) }),
  );

  app.get(
    '/driver/trip',
    {
      config: { auth: 'none' },
      schema: {
        tags: driverTags,
        summary: 'Driver: my running shipments with stops, steps, proofs and the next step',
        description: 'X-Trip-Token required. Errors: TRIP_SESSION_INVALID.',
        headers: tripTokenHeaders,
        response: { 200: envelope(driverJobsResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.jobs(await driverOf(svc, req)) }),
  );

  app.post(
    '/driver/trip/steps',
    {
      // crash-safe replay (issue 22): the committed step is not recorded again; the job is read back
      config: { auth: 'none', idempotencyReplay: true },
      schema: {
        tags: driverTags,
        summary: "Driver: record the next step of a job (the server's time and the device's, geolocated when given)",
        description:
          'Steps in order: started, to_pickup, at_pickup, (pickup proof upload), to_drop, at_drop, (drop proof upload), completed. "completed" records the delivery. `recordedAt`: the device time of the tap (ISO 8601 with offset; queued offline and sent later), at most 2 min ahead of the server, not before the assignment, not before the previous step\'s. A step the server already has answers 200 with the job and `idempotent-replayed: true` (sent twice, or from a second phone). The position is measured against the step\'s stop (distanceKm, flagged beyond PROOF_GEOFENCE_KM). Errors: TRIP_SESSION_INVALID, TRIP_STEP_OUT_OF_ORDER (errors[0].message names the expected step), DEVICE_TIME_IN_FUTURE, DEVICE_TIME_BEFORE_ASSIGNMENT, TRIP_STEP_TIME_BEFORE_PREVIOUS, NOT_FOUND.',
        headers: tripTokenHeaders,
        body: tripStepBody,
        response: { 201: envelope(driverJobSchema), 200: envelope(driverJobSchema) },
      },
    },
    async (req, reply) => {
      const driverId = await driverOf(svc, req);
      const { job, replayed } = await svc.recordStep(driverId, req.body);
      if (replayed) void reply.status(200).header(REPLAYED_HEADER, 'true');
      else void reply.status(201);
      return reply.send({ message: message('trips.stepSaved', req.lang), data: job });
    },
  );
}

/** Proofs of pickup and drop: the driver's upload, the parties' download. */
function proofRoutes(app: ZodApp, svc: TripsService) {
  app.post(
    '/driver/trip/proofs',
    {
      // crash-safe replay (issue 22): the committed proof's id is the replay key
      config: { auth: 'none', idempotencyReplay: true },
      schema: {
        tags: driverTags,
        summary: 'Driver: upload the proof of pickup or drop (photo or PDF)',
        description:
          'multipart/form-data: fields loadId, stop (pickup|drop), lat, lng (or geoError), recordedAt (the device time of the photo, bounded as for steps) BEFORE the `file` part. JPEG, PNG, WebP or PDF by magic bytes, at most 10 MB. A proof farther than PROOF_GEOFENCE_KM (default 2 km) from its stop is flagged. A proof of a stop the server already has answers 200 with that proof and `idempotent-replayed: true`. Errors: TRIP_SESSION_INVALID, UPLOAD_FILE_FIRST, PROOF_TYPE_NOT_ALLOWED (415), PROOF_TOO_LARGE (413), TRIP_STEP_OUT_OF_ORDER, DEVICE_TIME_IN_FUTURE, DEVICE_TIME_BEFORE_ASSIGNMENT, TRIP_STEP_TIME_BEFORE_PREVIOUS, NOT_FOUND.',
        headers: tripTokenHeaders,
        consumes: ['multipart/form-data'],
        response: { 201: envelope(tripProofSchema), 200: envelope(tripProofSchema) },
      },
    },
    async (req, reply) => {
      const driverId = await driverOf(svc, req);
      const { data, part } = await readUpload(req, 'PROOF_TOO_LARGE');
      const fields: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(part.fields)) {
        const value = (v as { value?: unknown } | undefined)?.value;
        if (k !== 'file' && typeof value === 'string' && value !== '') fields[k] = value;
      }
      const f = tripProofFields.safeParse(fields);
      if (!f.success) throw new AppError('VALIDATION_FAILED', { errors: f.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) });
      const { proof, replayed } = await svc.uploadProof(driverId, f.data, data);
      if (replayed) void reply.status(200).header(REPLAYED_HEADER, 'true');
      else void reply.status(201);
      return reply.send({ message: message('trips.proofSaved', req.lang), data: proof });
    },
  );

  app.get(
    '/trip-proofs/:id',
    {
      config: { auth: 'none' },
      schema: {
        tags: driverTags,
        summary: 'Download a proof (shipper and carrier of the load, or the driver with X-Trip-Token)',
        description: 'Bearer token of the shipper or awarded carrier, or the X-Trip-Token of the driver who took it. Anyone else: NOT_FOUND.',
        params: idParams,
        headers: tripTokenHeaders,
      },
    },
    async (req, reply) => {
      const userId = req.auth?.userId ?? undefined;
      const h = req.headers[TRIP_TOKEN_HEADER];
      const driverId = !userId && typeof h === 'string' ? await svc.driverOf(h) : undefined;
      if (!userId && !driverId) throw new AppError('NOT_SIGNED_IN');
      const { proof, stream } = await svc.openProof({ userId, driverId }, req.params.id);
      const ext = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/webp': 'webp' }[proof.mime] ?? 'jpg';
      return reply
        .header('content-type', proof.mime)
        .header('content-length', proof.size)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `inline; filename="${proof.id}.${ext}"`)
        .send(stream);
    },
  );
}

/** Tracking (fleet area: API keys with fleet:read / fleet:write): positions in, a vehicle's trail, godsview. */
function trackingRoutes(app: ZodApp, svc: TripsService) {
  // The driver's job page posts a position once a minute: a token that posts far more is a runaway
  // page or someone replaying a leaked link. Keyed by a hash of the token (never the token itself);
  // requests without a trip token (API keys, signed-in owners) are limited by their key's budget.
  const perTripToken =
    app.config.TRIP_POSITIONS_PER_MIN > 0
      ? {
          max: app.config.TRIP_POSITIONS_PER_MIN,
          timeWindow: 60_000,
          allowList: (req: FastifyRequest) => typeof req.headers[TRIP_TOKEN_HEADER] !== 'string',
          keyGenerator: (req: FastifyRequest) => `trip:${createHash('sha256').update(String(req.headers[TRIP_TOKEN_HEADER])).digest('base64url').slice(0, 22)}`,
        }
      : false;
  const fleetTags = ['fleet'];
  app.post(
    '/vehicles/track/positions',
    {
      // an offline queue resends a batch under its own Idempotency-Key (issue 49); a repeated instant is stored once anyway
      config: { auth: 'none', acceptKey: true, rateLimit: perTripToken, idempotent: true, idempotencyReplay: true },
      schema: {
        tags: fleetTags,
        summary: 'Ingest vehicle positions (GPS integration by IMEI, or the driver during a trip)',
        description:
          "Either X-API-Key (scope fleet:write; or a signed-in owner) with `imei` of one of the owner's vehicles, or X-Trip-Token (the vehicle of the driver's running shipment). Up to 500 points: lat, lng, speed (km/h), heading (degrees), at (ISO time of the fix: at most 5 min in the future from an integration; from the driver's phone at most 2 min ahead and not before the assignment, DEVICE_TIME_IN_FUTURE / DEVICE_TIME_BEFORE_ASSIGNMENT). The server's time of receipt is kept beside each point. The trail keeps every point (a repeated instant once); the latest is kept per vehicle. A trip token may post TRIP_POSITIONS_PER_MIN times a minute (default 30; then 429 RATE_LIMITED). Errors: UNKNOWN_IMEI, NO_VEHICLE_ON_TRIP, TRIP_SESSION_INVALID, RATE_LIMITED.",
        headers: tripTokenHeaders,
        body: positionsBody,
        response: { 200: envelope(positionsAccepted) },
      },
    },
    async (req) => {
      const userId = req.auth?.userId;
      const h = req.headers[TRIP_TOKEN_HEADER];
      if (!userId && typeof h !== 'string') throw new AppError('UNAUTHORIZED');
      const sender = userId ? { userId } : { driverId: await svc.driverOf(h) };
      return { message: message('trips.positions', req.lang), data: await svc.ingest(sender, req.body) };
    },
  );
  app.get(
    '/vehicles/track',
    {
      config: { auth: 'user' },
      schema: {
        tags: fleetTags,
        summary: "A vehicle's latest position and trail",
        description: 'My vehicle: latest position and the trail of the last `hours` (default 12, at most 72), at most 2000 newest points, oldest first.',
        querystring: trackQuery,
        response: { 200: envelope(vehicleTrackSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.vehicleTrack(app.requireUser(req), req.query.vehicleId, req.query.hours) }),
  );
  app.get(
    '/vehicles/track/overview',
    {
      config: { auth: 'user' },
      schema: {
        tags: fleetTags,
        summary: 'Godsview: my running shipments and my vehicles with their latest positions',
        response: { 200: envelope(trackOverviewSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.overview(app.requireUser(req)) }),
  );
}

/** A shipment's tracking and payment follow-through. */
function shipmentRoutes(app: ZodApp, svc: TripsService) {
  const loadTags = ['loads'];
  app.get(
    '/loads/:id/tracking',
    {
      config: { auth: 'user' },
      schema: {
        tags: loadTags,
        summary: "A shipment's tracking: trail, latest position, steps, proofs, remaining km and ETA",
        description:
          'Shipper and awarded carrier only (others NOT_FOUND). Remaining distance is great-circle (to the pickup and on to the drop before the proof of pickup); ETA at an assumed 70 km/h.',
        params: idParams,
        response: { 200: envelope(loadTrackingSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.loadTracking(app.requireUser(req), req.params.id) }),
  );
  app.post(
    '/loads/:id/payment-received',
    {
      config: { auth: 'user', sessionOnly: true },
      schema: {
        tags: loadTags,
        summary: 'Awarded carrier: mark the payment received (once the shipment is completed)',
        description:
          'Only once the shipment is completed (issue 48). Errors: NOT_FOUND, FORBIDDEN (not the awarded carrier), INVALID_TRANSITION (cancelled), SHIPMENT_NOT_COMPLETED, PAYMENT_ALREADY_RECEIVED.',
        params: idParams,
        response: { 200: envelope(paymentReceivedResponse) },
      },
    },
    async (req) => ({ message: message('trips.paid', req.lang), data: await svc.paymentReceived(app.requireUser(req), req.params.id) }),
  );
  app.get(
    '/shippers/:id/days-to-pay',
    {
      config: { auth: 'user' },
      schema: {
        tags: loadTags,
        summary: "A shipper's average days-to-pay",
        description: 'Mean days from delivery to payment received over its newest 50 paid shipments; averageDays null when none is paid yet.',
        params: idParams,
        response: { 200: envelope(daysToPaySchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.daysToPay(req.params.id) }),
  );
}
