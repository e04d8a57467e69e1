import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countReply, envelopeBytes } from '../../lib/page-cache.ts';
import {
  loadTimelineResponse,
  ACCOUNT_TYPE,
  createLoadBody,
  envelope,
  idParams,
  loadListResponse,
  loadSchema,
  myLoadsQuery,
  myLoadsResponse,
  repostLoadBody,
  searchLoadsQuery,
  boardCountResponse,
  updateLoadBody,
  changeAudienceBody,
  extendDatesBody,
  EXTEND_DATES_MAX_DAYS,
  message,
  backhaulLoadsQuery,
  backhaulsResponse,
} from '@masar/shared';

/** Success messages of this module (spec §8 "success messages"), en/ar. */

/** Shippers and brokers post and manage loads (spec §6). */
const POSTERS = [ACCOUNT_TYPE.shipper, ACCOUNT_TYPE.broker];

/**
 * Loads (issue 2; spec §2, §4, §5, §7): post, board search by pickup city and radius, details,
 * edit, delete, unpost/repost/duplicate, my loads. Business rules in loads.service.ts.
 */
export default async function loadsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.loads;
  const tags = ['loads'];
  const loadData = { 200: envelope(loadSchema) };

  app.post(
    '/loads',
    {
      config: { auth: 'user', roles: POSTERS, approved: true, plan: true, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Post a load (or save it unposted with post=false)',
        description:
          'Shippers and brokers, approved, with an active plan. Cities, equipment and goods types are checked against the reference data (INVALID_CITY, INVALID_EQUIPMENT, INVALID_GOODS_TYPE). distanceKm comes from the routing gateway over all stops in order; ratePerKm = price / distanceKm. shipmentType: 1 marketplace (the public board), 2 my vendors (vendorIds, each linked by phone or e-mail to a registered carrier or broker, else VENDOR_NOT_LINKED; visible and biddable only for them), 3 own vehicle (created booked: status unassigned, carrierId = me, never on the board). Terms: pickup window (pickupLatest ≥ first pickup, ≤ last drop), pickup/drop hours, payment method, paid by, payment terms (days), detention (free hours, SAR per hour), delivery type and to, tradable.',
        body: createLoadBody,
        response: { 201: envelope(loadSchema) },
      },
    },
    async (req, reply) => {
      const load = await svc.create(app.requireUser(req), req.body);
      const key = load.status === 'posted' ? 'loads.created' : load.status === 'unassigned' ? 'loads.ownVehicle' : 'loads.draft';
      return reply.status(201).send({ message: message(key, req.lang), data: load });
    },
  );

  app.get(
    '/loads',
    {
      config: { auth: 'token' },
      schema: {
        tags,
        summary: 'Search the load board',
        description:
          "Open loads only (posted, not expired). pickupCityId + radius: first pickup within radius km (great-circle from the city centre) — without radius, that city only; same for dropCityId/dropRadius. Each item has deadheadKm when pickupCityId is given. Sorts: newest, pickup (earliest first), price and ratePerKm (highest first), deadhead (nearest first, then earliest pickup); ties by id. Paging: skip ≤ 1,000 (deeper: 400 VALIDATION_FAILED on skip, use the cursor), or cursor = the previous page's nextCursor (keyset: any depth at the cost of one page; a cursor of another sort is a 400). Guests may search.",
        querystring: searchLoadsQuery,
        response: { 200: envelope(loadListResponse) },
      },
    },
    // The page's JSON comes serialized in UTF-8 (and validated by loadListResponse) once per cached
    // page; Fastify sends a Buffer as is, so the typed serializer is skipped.
    async (req, reply) => {
      const body = envelopeBytes(message('common.ok', req.lang), await svc.searchJson(req.query, req.auth?.userId ?? null));
      return reply.type('application/json; charset=utf-8').send(body as unknown as { message: string; data: z.infer<typeof loadListResponse> });
    },
  );

  app.get(
    '/loads/:id',
    {
      config: { auth: 'token' },
      schema: {
        tags,
        summary: 'Load details',
        description: 'Posted loads for anyone; other states only for the owner, the booked carrier and bidders.',
        params: idParams,
        response: loadData,
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.get(req.params.id, req.auth?.userId ?? null) }),
  );

  app.get(
    '/loads/:id/timeline',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "A load's timeline: every change with who and when",
        description:
          "Events of the load (posted, offers, booked, cancelled, expired), oldest first, delivered from the events outbox (a second or so after they happen). Only the load's shipper and its booked carrier; anyone else gets 404.",
        params: idParams,
        response: { 200: envelope(loadTimelineResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: { items: await svc.timeline(app.requireUser(req), req.params.id) } }),
  );

  app.patch(
    '/loads/:id',
    {
      config: { auth: 'user', roles: POSTERS, approved: true },
      schema: {
        tags,
        summary: 'Edit a posted or unposted load',
        description: 'Owner only (LOAD_NOT_EDITABLE once assigned). Changing the stop cities or the equipment deletes every offer on the load (spec §4).',
        params: idParams,
        body: updateLoadBody,
        response: loadData,
      },
    },
    async (req) => {
      const { load, offersDeleted } = await svc.update(app.requireUser(req), req.params.id, req.body);
      return { message: message(offersDeleted ? 'loads.updatedOffersDeleted' : 'loads.updated', req.lang), data: load };
    },
  );

  app.delete(
    '/loads/:id',
    {
      config: { auth: 'user', roles: POSTERS },
      schema: { tags, summary: 'Delete a load (not once assigned); its open offers close', params: idParams, response: { 200: envelope(z.null()) } },
    },
    async (req) => {
      await svc.remove(app.requireUser(req), req.params.id);
      return { message: message('loads.deleted', req.lang), data: null };
    },
  );

  app.post(
    '/loads/:id/unpost',
    { config: { auth: 'user', roles: POSTERS }, schema: { tags, summary: 'Take a posted load off the board', params: idParams, response: loadData } },
    async (req) => ({ message: message('loads.unposted', req.lang), data: await svc.unpost(app.requireUser(req), req.params.id) }),
  );

  app.post(
    '/loads/:id/repost',
    {
      config: { auth: 'user', roles: POSTERS, approved: true, plan: true },
      schema: {
        tags,
        summary: 'Repost an unposted or expired load',
        description: 'Optional stopDates (one per stop, in order). The first pickup must be in the future (REPOST_NEEDS_FUTURE_PICKUP).',
        params: idParams,
        body: repostLoadBody.nullish(),
        response: loadData,
      },
    },
    async (req) => ({ message: message('loads.reposted', req.lang), data: await svc.repost(app.requireUser(req), req.params.id, req.body?.stopDates) }),
  );

  app.post(
    '/loads/:id/duplicate',
    {
      config: { auth: 'user', roles: POSTERS, idempotent: true, idempotencyReplay: true },
      schema: { tags, summary: 'Copy a load as a new unposted load', params: idParams, response: loadData },
    },
    async (req) => ({ message: message('loads.duplicated', req.lang), data: await svc.duplicate(app.requireUser(req), req.params.id) }),
  );

  app.post(
    '/loads/:id/audience',
    {
      config: { auth: 'user', roles: POSTERS, approved: true },
      schema: {
        tags,
        summary: 'Change where a shipment goes: marketplace, my vendors or my own vehicle',
        description:
          'Owner only, while posted, unposted or expired (LOAD_NOT_EDITABLE otherwise). 2: vendorIds required (VENDOR_NOT_LINKED when a vendor has no account); narrowing to vendors or own vehicle closes the pending offers. 3 books the shipment for my own vehicle (status unassigned). Publishes load.edited { audience }.',
        params: idParams,
        body: changeAudienceBody,
        response: loadData,
      },
    },
    async (req) => ({ message: message('loads.audience', req.lang), data: await svc.changeAudience(app.requireUser(req), req.params.id, req.body) }),
  );

  app.post(
    '/loads/:id/extend-dates',
    {
      config: { auth: 'user', roles: POSTERS },
      schema: {
        tags,
        summary: 'Extend the pickup or delivery date',
        description: `Owner only. pickupDate moves the first stop, deliveryDate the last; each later by at most ${EXTEND_DATES_MAX_DAYS} days beyond its current date, into the future, with the stops in order (EXTEND_DATES_RANGE). Allowed unless completed or cancelled (LOAD_NOT_EDITABLE). Publishes load.dates_extended.`,
        params: idParams,
        body: extendDatesBody,
        response: loadData,
      },
    },
    async (req) => ({ message: message('loads.extended', req.lang), data: await svc.extendDates(app.requireUser(req), req.params.id, req.body) }),
  );

  app.post(
    '/loads/:id/bookmark',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Bookmark a load (idempotent)',
        description: 'Any load the caller may see (404 otherwise).',
        params: idParams,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await svc.bookmark(app.requireUser(req), req.params.id);
      return { message: message('loads.bookmarked', req.lang), data: null };
    },
  );

  app.delete(
    '/loads/:id/bookmark',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Remove a bookmark', params: idParams, response: { 200: envelope(z.null()) } },
    },
    async (req) => {
      await svc.unbookmark(app.requireUser(req), req.params.id);
      return { message: message('loads.unbookmarked', req.lang), data: null };
    },
  );

  // spec §7 names both /backHaulLoads and /get/backHaulLoads: one handler
  for (const path of ['/backHaulLoads', '/get/backHaulLoads']) {
    app.get(
      path,
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: path === '/backHaulLoads' ? 'Backhauls for a shipment I carry' : 'Backhauls for a shipment I carry (alias of GET /backHaulLoads)',
          description:
            'loadId: a shipment booked by me (unassigned, assigned or pending Bayan; 409 BACKHAUL_NOT_BOOKED otherwise; 404 when I am not its carrier, the shipper included). Open marketplace loads whose first pickup is within radius km (a radius option, default 200) of its last drop and picked up in the 7 days from its delivery day (00:00 Riyadh); equipmentType optional. Ranked by deadhead (km from the drop to the pickup), then rate per km (highest first); top limit (≤ 50). from: the anchor city and time.',
          querystring: backhaulLoadsQuery,
          response: { 200: envelope(backhaulsResponse) },
        },
      },
      async (req) => ({ message: message('common.ok', req.lang), data: await svc.backhauls(app.requireUser(req), req.query.loadId, req.query) }),
    );
  }

  app.get(
    '/my-loads',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My loads by tab, with the count of every tab',
        description:
          "posted / unposted: my loads in that state; offers: my open loads with pending offers plus loads where I have a pending offer; active: booked loads (unassigned, assigned, pending_bayan) where I am shipper or carrier; finished: completed, cancelled or expired; unassigned / assigned / pending_bayan / completed / cancelled: that status, as shipper or carrier; expired: my expired loads; bookmarks: loads I bookmarked (newest bookmark first); customers: open vendor shipments offered to me. Each item carries options (More Options for me). Paging: skip ≤ 1,000 (deeper: 400 VALIDATION_FAILED on skip) or cursor = the previous page's nextCursor of the same tab.",
        querystring: myLoadsQuery,
        response: { 200: envelope(myLoadsResponse) },
      },
    },
    async (req) => ({
      message: message('common.ok', req.lang),
      data: await svc.myLoads(app.requireUser(req), req.query.tab, req.query.limit, req.query.skip, req.query.cursor),
    }),
  );
}

/** GET /loads/count (issue 45): the board's capped count on its own request, off the page's miss path (registered by modules/index.ts). */
export async function boardCountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.loads;
  const tags = ['loads'];
  app.get(
    '/loads/count',
    {
      config: { auth: 'token' },
      schema: {
        tags,
        summary: 'Count the load board',
        description:
          'How many open loads GET /loads\' filters match (paging and sort ignored): total exact up to 1,000, totalCapped when there are more ("1,000+"). Its own request, so a board page never waits for the count (issue 45): fetch it after the page\'s rows. Cacheable for a short time (Cache-Control: private, max-age=15). Guests may count.',
        querystring: searchLoadsQuery,
        response: { 200: envelope(boardCountResponse) },
      },
    },
    async (req, reply) => countReply(reply, message('common.ok', req.lang), svc.count(req.query, req.auth?.userId ?? null)),
  );
}
