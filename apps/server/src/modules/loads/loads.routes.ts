import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
  updateLoadBody,
  type Language,
} from '@masar/shared';

/** Success messages of this module (spec §8 "success messages"), en/ar. */
const MESSAGES = {
  ok: { en: 'OK', ar: 'تم' },
  created: { en: 'Load posted successfully.', ar: 'تم نشر الشحنة بنجاح.' },
  draft: { en: 'Load saved as unposted.', ar: 'تم حفظ الشحنة كغير منشورة.' },
  updated: { en: 'Load updated successfully.', ar: 'تم تحديث الشحنة بنجاح.' },
  updatedOffersDeleted: {
    en: 'Load updated. Its offers were removed because the lane or equipment changed.',
    ar: 'تم تحديث الشحنة. حُذفت العروض عليها لتغيّر المسار أو نوع المعدة.',
  },
  deleted: { en: 'Load deleted.', ar: 'تم حذف الشحنة.' },
  unposted: { en: 'Load unposted.', ar: 'تم إلغاء نشر الشحنة.' },
  reposted: { en: 'Load reposted.', ar: 'تمت إعادة نشر الشحنة.' },
  duplicated: { en: 'Load duplicated as unposted.', ar: 'تم نسخ الشحنة كغير منشورة.' },
} as const;
const msg = (key: keyof typeof MESSAGES, lang: Language) => MESSAGES[key][lang];

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
      config: { auth: 'user', roles: POSTERS, approved: true, plan: true },
      schema: {
        tags,
        summary: 'Post a load (or save it unposted with post=false)',
        description:
          'Shippers and brokers, approved, with an active plan. Cities, equipment and goods types are checked against the reference data (INVALID_CITY, INVALID_EQUIPMENT, INVALID_GOODS_TYPE). distanceKm comes from the routing gateway over all stops in order; ratePerKm = price / distanceKm.',
        body: createLoadBody,
        response: { 201: envelope(loadSchema) },
      },
    },
    async (req, reply) => {
      const load = await svc.create(app.requireUser(req), req.body);
      return reply.status(201).send({ message: msg(load.status === 'posted' ? 'created' : 'draft', req.lang), data: load });
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
          'Open loads only (posted, not expired). pickupCityId + radius: first pickup within radius km (great-circle from the city centre) — without radius, that city only; same for dropCityId/dropRadius. Each item has deadheadKm when pickupCityId is given. Sorts: newest, pickup (earliest first), price and ratePerKm (highest first), deadhead (nearest first). Guests may search.',
        querystring: searchLoadsQuery,
        response: { 200: envelope(loadListResponse) },
      },
    },
    // The page's JSON comes serialized (and validated by loadListResponse) once per cached page;
    // Fastify sends a string with a JSON content type as is, so the typed serializer is skipped.
    async (req, reply) => {
      const body = `{"message":${JSON.stringify(msg('ok', req.lang))},"data":${await svc.searchJson(req.query, req.auth?.userId ?? null)}}`;
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
    async (req) => ({ message: msg('ok', req.lang), data: await svc.get(req.params.id, req.auth?.userId ?? null) }),
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
    async (req) => ({ message: msg('ok', req.lang), data: { items: await svc.timeline(app.requireUser(req), req.params.id) } }),
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
      return { message: msg(offersDeleted ? 'updatedOffersDeleted' : 'updated', req.lang), data: load };
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
      return { message: msg('deleted', req.lang), data: null };
    },
  );

  app.post(
    '/loads/:id/unpost',
    { config: { auth: 'user', roles: POSTERS }, schema: { tags, summary: 'Take a posted load off the board', params: idParams, response: loadData } },
    async (req) => ({ message: msg('unposted', req.lang), data: await svc.unpost(app.requireUser(req), req.params.id) }),
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
    async (req) => ({ message: msg('reposted', req.lang), data: await svc.repost(app.requireUser(req), req.params.id, req.body?.stopDates) }),
  );

  app.post(
    '/loads/:id/duplicate',
    {
      config: { auth: 'user', roles: POSTERS, idempotent: true },
      schema: { tags, summary: 'Copy a load as a new unposted load', params: idParams, response: loadData },
    },
    async (req) => ({ message: msg('duplicated', req.lang), data: await svc.duplicate(app.requireUser(req), req.params.id) }),
  );

  app.get(
    '/my-loads',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My loads by tab, with the count of every tab',
        description:
          'posted / unposted: my loads in that state; offers: my open loads with pending offers plus loads where I have a pending offer; active: assigned loads where I am shipper or carrier; finished: completed, cancelled or expired.',
        querystring: myLoadsQuery,
        response: { 200: envelope(myLoadsResponse) },
      },
    },
    async (req) => ({ message: msg('ok', req.lang), data: await svc.myLoads(app.requireUser(req), req.query.tab, req.query.limit, req.query.skip) }),
  );
}
