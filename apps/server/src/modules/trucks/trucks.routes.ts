import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ZodApp } from '../../lib/zod-app.ts';
import { countReply, envelopeBytes } from '../../lib/page-cache.ts';
import {
  ACCOUNT_TYPE,
  backhaulQuery,
  backhaulsResponse,
  createTruckBody,
  envelope,
  idParams,
  inOutQuery,
  INOUT_WINDOW_MAX_DAYS,
  INOUT_FIGURES_TTL_MS,
  loadInOutResponse,
  LOAD_TYPES,
  matchingLoadsResponse,
  matchingQuery,
  matchingTrucksResponse,
  message,
  myTrucksQuery,
  repostTruckBody,
  SEARCH_PICKUP_RADIUS_KM,
  searchTrucksQuery,
  TRUCK_DESTINATIONS_MAX,
  TRUCK_RATE_BASIS,
  TRUCK_SORTS,
  TRUCK_WINDOW_MAX_DAYS,
  truckFiltersResponse,
  truckInOutResponse,
  truckPage,
  boardCountResponse,
  type TruckPage,
  truckSchema,
  updateTruckBody,
} from '@masar/shared';
import type { TrucksService } from './trucks.service.ts';

/** Carriers and brokers (TMS) post trucks (spec §6). */
const TRUCK_POSTERS = [ACCOUNT_TYPE.carrier, ACCOUNT_TYPE.broker];

/**
 * Truck posts (issue 19; spec §2 post trucks / search trucks, §7 /truck, /trucks, /truck/unpost,
 * /truck/duplicate, /searchTrucks, /truckFilters) and matching with loads both ways. Business
 * rules in use-cases/ (wired in trucks.service.ts); status changes in lifecycle.ts.
 */
export default async function trucksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.trucks;
  myTruckRoutes(app, svc);
  truckBoardRoutes(app, svc);
  truckCountRoute(app, svc);
  truckRoutes(app, svc);
  matchingRoutes(app, svc);
}

const tags = ['trucks'];
const truckData = { 200: envelope(truckSchema) };

/** Post a truck; my truck posts. */
function myTruckRoutes(app: ZodApp, svc: TrucksService) {
  app.post(
    '/truck',
    {
      config: { auth: 'user', roles: TRUCK_POSTERS, approved: true, plan: true, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Post a truck (or save it unposted with post=false)',
        description: `Carriers and brokers, approved, with an active plan. FTL or LTL; availability from availableFrom to availableTo (default: a day; at most ${TRUCK_WINDOW_MAX_DAYS} days, ending in the future): the post expires then (truck.expired). Origin city with an optional pickup radius; destinations: anywhere, or up to ${TRUCK_DESTINATIONS_MAX} cities and regions. Minimum rate SAR per trip or per km. Equipment from /equipment-types (INVALID_EQUIPMENT). Capacity kg; LTL also pallets and/or deck space (cm). vehicleId/trailerId: an active vehicle/trailer of my fleet (TRUCK_VEHICLE_INVALID); the vehicle's own trailer by default. Publishes truck.posted (or truck.created when unposted).`,
        body: createTruckBody,
        response: { 201: envelope(truckSchema) },
      },
    },
    async (req, reply) => {
      const truck = await svc.create(app.requireUser(req), req.body);
      return reply.status(201).send({ message: message(truck.status === 'posted' ? 'trucks.created' : 'trucks.draft', req.lang), data: truck });
    },
  );

  app.get(
    '/trucks',
    {
      config: { auth: 'user', roles: TRUCK_POSTERS },
      schema: {
        tags,
        summary: 'My truck posts, newest first',
        description:
          'tab: all (every truck but deleted ones), posted (on the board), unposted, expired. Paging: limit and cursor = the previous page’s nextCursor.',
        querystring: myTrucksQuery,
        response: { 200: envelope(truckPage) },
      },
    },
    async (req) => ({
      message: message('common.ok', req.lang),
      data: await svc.mine(app.requireUser(req), req.query.tab, req.query.limit, req.query.cursor),
    }),
  );
}

/** GET /searchTrucks/count (issue 45): the truck board's capped count on its own request, off the page. */
function truckCountRoute(app: ZodApp, svc: TrucksService) {
  app.get(
    '/searchTrucks/count',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Count the truck board',
        description:
          'How many posted trucks GET /searchTrucks\' filters match (limit, cursor and sort ignored): total exact up to 1,000, totalCapped when there are more ("1,000+"). Its own request, so a truck board page never waits for the count (issue 45): fetch it after the page\'s rows. Remembered under the versions of the truck origins the search covers (a truck write there changes it at once) and cacheable for a short time (Cache-Control: private, max-age=15).',
        querystring: searchTrucksQuery,
        response: { 200: envelope(boardCountResponse) },
      },
    },
    async (req, reply) => countReply(reply, message('common.ok', req.lang), svc.count(req.query)),
  );
}

/** The truck board, the in/out logs and the board's filters. */
function truckBoardRoutes(app: ZodApp, svc: TrucksService) {
  app.get(
    '/searchTrucks',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Search the truck board',
        description:
          'Posted trucks whose window has not ended. originCityId + radius: the truck’s origin within radius km (great-circle from the city centre; without radius: that city). destinationCityId: trucks going there (that city or its region named, or anywhere). equipmentType, loadType, date (available some time in the 24 h from it), minCapacityKg. Sorts: deadhead (nearest origin first, then earliest; date without an origin), date (earliest availability), rate (lowest minimum rate). Each item has deadheadKm when originCityId is given. Paging: limit and cursor (keyset); no total is counted. Pages are cached up to SEARCH_CACHE_TTL_MS under the versions of the truck origins they cover: a truck write shows at once.',
        querystring: searchTrucksQuery,
        response: { 200: envelope(truckPage) },
      },
    },
    // the page's JSON comes serialized in UTF-8 (validated by truckPage) once per cached page, and
    // is sent as is (a Buffer skips the typed serializer), as GET /loads does
    async (req, reply) => {
      const body = envelopeBytes(message('common.ok', req.lang), await svc.searchJson(req.query, req.auth?.userId ?? null));
      return reply.type('application/json; charset=utf-8').send(body as unknown as { message: string; data: TruckPage });
    },
  );

  // Truck in/out and shipment in/out (issue 19; spec §2, §7 /truckInOutLogs, /loadInOutLogs and
  // their /refresh). The page is always read; the area figures (counts, ratio) may be up to
  // INOUT_FIGURES_TTL_MS old, and …/refresh reads them fresh too.
  const window = `Window: from–to (ISO; default now .. +7 days; at most ${INOUT_WINDOW_MAX_DAYS} days; v.dateRange, v.inoutWindow). cityId + radius (the spec's radius options; without: that city). Counts of both directions, each exact up to 1,000 (capped: "1,000+"). ratio: loads and trucks posted in the circle in the last 24 h (not deleted), loads ÷ trucks. Paging: limit and cursor (keyset). The page is always read fresh; the counts and the ratio may be up to ${INOUT_FIGURES_TTL_MS / 1000} s old (kept per area and window, to the minute), and …/refresh reads them fresh as well.`;
  for (const path of ['/truckInOutLogs', '/truckInOutLogs/refresh']) {
    app.get(
      path,
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: path.endsWith('refresh') ? 'Truck in/out log, counts and ratio read fresh' : 'Truck in/out log of a city',
          description: `direction=in: posted trucks going to a city of the circle or to a region one of its cities is in ("anywhere" is not arriving); out: posted trucks whose origin is in the circle. Both: free some time in the window (availability overlaps it), earliest first. Unposted, expired and deleted trucks never show. ${window}`,
          querystring: inOutQuery,
          response: { 200: envelope(truckInOutResponse) },
        },
      },
      async (req) => ({ message: message('common.ok', req.lang), data: await svc.truckInOut(req.query, req.auth?.userId ?? null, path.endsWith('refresh')) }),
    );
  }
  for (const path of ['/loadInOutLogs', '/loadInOutLogs/refresh']) {
    app.get(
      path,
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: path.endsWith('refresh') ? 'Shipment in/out log, counts and ratio read fresh' : 'Shipment in/out log of a city',
          description: `Open marketplace loads (posted, not expired). direction=in: last drop in the circle, delivery date in the window, earliest delivery first; out: first pickup in the circle, pickup date in the window, earliest pickup first. ${window}`,
          querystring: inOutQuery,
          response: { 200: envelope(loadInOutResponse) },
        },
      },
      async (req) => ({ message: message('common.ok', req.lang), data: await svc.loadInOut(req.query, req.auth?.userId ?? null, path.endsWith('refresh')) }),
    );
  }

  app.get(
    '/truckFilters',
    {
      config: { auth: 'token' },
      schema: { tags, summary: 'What the truck search offers (radius options, sorts, load types)', response: { 200: envelope(truckFiltersResponse) } },
    },
    async (req) => ({
      message: message('common.ok', req.lang),
      data: {
        radiusOptionsKm: [...SEARCH_PICKUP_RADIUS_KM],
        sorts: [...TRUCK_SORTS],
        loadTypes: [...LOAD_TYPES],
        rateBasis: [...TRUCK_RATE_BASIS],
        destinationsMax: TRUCK_DESTINATIONS_MAX,
        windowMaxDays: TRUCK_WINDOW_MAX_DAYS,
      },
    }),
  );
}

/** One truck: details, and the owner's edit, delete, unpost, repost and duplicate. */
function truckRoutes(app: ZodApp, svc: TrucksService) {
  app.get(
    '/truck/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Truck details',
        description:
          'Posted trucks for any signed-in user (with the carrier’s company, verification and fact-based `record`, docs/account-record.md); unposted, expired ones only for the owner (404 otherwise).',
        params: idParams,
        response: truckData,
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.details(req.params.id, req.auth?.userId ?? null) }),
  );

  app.patch(
    '/truck/:id',
    {
      config: { auth: 'user', roles: TRUCK_POSTERS, approved: true },
      schema: {
        tags,
        summary: 'Edit a truck post',
        description:
          'Owner only. Any subset of the post fields; the destinations (anywhere, cities, regions) are replaced together. Publishes truck.edited { fields }.',
        params: idParams,
        body: updateTruckBody,
        response: truckData,
      },
    },
    async (req) => ({ message: message('trucks.updated', req.lang), data: await svc.update(app.requireUser(req), req.params.id, req.body) }),
  );

  app.delete(
    '/truck/:id',
    {
      config: { auth: 'user', roles: TRUCK_POSTERS },
      schema: { tags, summary: 'Delete a truck post (truck.deleted)', params: idParams, response: { 200: envelope(z.null()) } },
    },
    async (req) => {
      await svc.remove(app.requireUser(req), req.params.id);
      return { message: message('trucks.deleted', req.lang), data: null };
    },
  );

  app.post(
    '/truck/:id/unpost',
    {
      config: { auth: 'user', roles: TRUCK_POSTERS },
      schema: { tags, summary: 'Take a posted truck off the board (truck.unposted)', params: idParams, response: truckData },
    },
    async (req) => ({ message: message('trucks.unposted', req.lang), data: await svc.unpost(app.requireUser(req), req.params.id) }),
  );

  app.post(
    '/truck/:id/repost',
    {
      config: { auth: 'user', roles: TRUCK_POSTERS, approved: true, plan: true },
      schema: {
        tags,
        summary: 'Repost an unposted or expired truck (truck.posted)',
        description: 'Optionally with a new availability window; one is needed once the old window has ended (TRUCK_REPOST_NEEDS_DATES).',
        params: idParams,
        body: repostTruckBody.nullish(),
        response: truckData,
      },
    },
    async (req) => ({ message: message('trucks.reposted', req.lang), data: await svc.repost(app.requireUser(req), req.params.id, req.body ?? undefined) }),
  );

  app.post(
    '/truck/:id/duplicate',
    {
      config: { auth: 'user', roles: TRUCK_POSTERS, idempotent: true, idempotencyReplay: true },
      schema: { tags, summary: 'Copy a truck post as a new unposted one (truck.created)', params: idParams, response: truckData },
    },
    async (req) => ({ message: message('trucks.duplicated', req.lang), data: await svc.duplicate(app.requireUser(req), req.params.id) }),
  );
}

/** Matching both ways (my truck's loads and backhauls, my load's trucks). */
function matchingRoutes(app: ZodApp, svc: TrucksService) {
  app.get(
    '/truck/:id/matching-loads',
    {
      config: { auth: 'user', roles: TRUCK_POSTERS },
      schema: {
        tags,
        summary: 'Open loads matching my posted truck',
        description:
          'Owner only. Marketplace loads whose first pickup is within radius km of the truck’s origin (default: the truck’s radius, else 200), picked up inside its window, same equipment, weight within its capacity, dropping where it goes. Ranked by deadhead, then the highest rate per km. Empty when the truck is not posted.',
        params: idParams,
        querystring: matchingQuery,
        response: { 200: envelope(matchingLoadsResponse) },
      },
    },
    async (req) => ({
      message: message('common.ok', req.lang),
      data: await svc.matchingLoads(app.requireUser(req), req.params.id, req.query.radius, req.query.limit),
    }),
  );

  app.get(
    '/truck/:id/backhauls',
    {
      config: { auth: 'user', roles: TRUCK_POSTERS },
      schema: {
        tags,
        summary: 'Backhauls for my posted truck, from its destination city',
        description:
          'Owner only (404 otherwise). The truck must go to exactly one destination city (400 BACKHAUL_TRUCK_DESTINATION for anywhere, regions or several cities). Open marketplace loads whose first pickup is within radius km (a radius option, default 200) of that city and picked up in the 7 days from the day its availability ends (00:00 Riyadh); equipmentType optional. Ranked by deadhead, then rate per km (highest first); top limit (≤ 50). Empty when the truck is not posted.',
        params: idParams,
        querystring: backhaulQuery,
        response: { 200: envelope(backhaulsResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.backhauls(app.requireUser(req), req.params.id, req.query) }),
  );

  app.get(
    '/loads/:id/matching-trucks',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Posted trucks matching my posted load',
        description:
          'The load’s shipper only. Trucks whose origin is within radius km of the first pickup (default 200), available at the pickup (window), same equipment, capacity ≥ the load’s weight, going to its drop (anywhere, the city or its region). Ranked by deadhead, then the truck’s rate per km on this load (per-trip rates divided by the load’s distance). Empty when the load is not open.',
        params: idParams,
        querystring: matchingQuery,
        response: { 200: envelope(matchingTrucksResponse) },
      },
    },
    async (req) => ({
      message: message('common.ok', req.lang),
      data: await svc.matchingTrucks(app.requireUser(req), req.params.id, req.query.radius, req.query.limit),
    }),
  );
}
