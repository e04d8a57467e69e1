import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createSavedSearchBody,
  envelope,
  idParams,
  message,
  recentSearchList,
  recentSearchSchema,
  recordRecentSearchBody,
  renameSavedSearchBody,
  SAVED_SEARCHES_MAX,
  RECENT_SEARCHES_MAX,
  savedSearchList,
  savedSearchSchema,
  searchKindQuery,
} from '@masar/shared';

/**
 * Saved and recent searches of loads and trucks (issue 19; spec §2, §7). Spec §7 names map here:
 * /recentLoads → GET /recentLoads (= GET /recentSearches?kind=loads), /recentTruckFilters → GET
 * /recentTruckFilters (= kind=trucks), /recentLoadsState → POST /recentSearches (record a run);
 * the saved truck searches the spec lists under /truckFilters are GET/POST/PATCH/DELETE
 * /savedSearches?kind=trucks (GET /truckFilters stays the truck search's options).
 */
export default async function searchesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.searches;
  const tags = ['searches'];

  app.get(
    '/savedSearches',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My saved searches of a kind (loads or trucks), newest first',
        description: `At most ${SAVED_SEARCHES_MAX} per kind, so the list is one page. filters: the search's normalised query (run it as GET /loads or GET /searchTrucks with these parameters).`,
        querystring: searchKindQuery,
        response: { 200: envelope(savedSearchList) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: { items: await svc.listSaved(app.requireUser(req), req.query.kind) } }),
  );

  app.post(
    '/savedSearches',
    {
      config: { auth: 'user', idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Save a search under a name',
        description: `kind loads: filters as GET /loads takes them; trucks: as GET /searchTrucks takes them (validated by the same schema; VALIDATION_FAILED on filters.*). Paging fields are dropped. The same filters saved again (same kind, same normalised filters) is 409 DUPLICATE_SEARCH ("duplicate search exists"); at most ${SAVED_SEARCHES_MAX} per kind (409 LIMIT_REACHED).`,
        body: createSavedSearchBody,
        response: { 201: envelope(savedSearchSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('searches.saved', req.lang), data: await svc.save(app.requireUser(req), req.body) }),
  );

  app.patch(
    '/savedSearches/:id',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Rename my saved search', params: idParams, body: renameSavedSearchBody, response: { 200: envelope(savedSearchSchema) } },
    },
    async (req) => ({ message: message('searches.renamed', req.lang), data: await svc.rename(app.requireUser(req), req.params.id, req.body.name) }),
  );

  app.delete(
    '/savedSearches/:id',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Delete my saved search (404 if not mine)', params: idParams, response: { 200: envelope(z.null()) } },
    },
    async (req) => {
      await svc.removeSaved(app.requireUser(req), req.params.id);
      return { message: message('searches.deleted', req.lang), data: null };
    },
  );

  const recentDescription = `My last ${RECENT_SEARCHES_MAX} searches of the kind, most recent first (recorded by POST /recentSearches).`;
  app.get(
    '/recentSearches',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My recent searches of a kind',
        description: recentDescription,
        querystring: searchKindQuery,
        response: { 200: envelope(recentSearchList) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: { items: await svc.listRecent(app.requireUser(req), req.query.kind) } }),
  );
  // spec §7 names: the recent load searches and the recent truck filters
  for (const [path, kind] of [
    ['/recentLoads', 'loads'],
    ['/recentTruckFilters', 'trucks'],
  ] as const) {
    app.get(
      path,
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: `My recent ${kind} searches (= GET /recentSearches?kind=${kind})`,
          description: recentDescription,
          response: { 200: envelope(recentSearchList) },
        },
      },
      async (req) => ({ message: message('common.ok', req.lang), data: { items: await svc.listRecent(app.requireUser(req), kind) } }),
    );
  }

  app.post(
    '/recentSearches',
    {
      config: { auth: 'user', idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Record a search I ran (spec §7 /recentLoadsState)',
        description: `The web app calls it when the user runs a search. Validated like POST /savedSearches; a search already among my recent ones moves to the top; only the last ${RECENT_SEARCHES_MAX} per kind are kept (in the same transaction).`,
        body: recordRecentSearchBody,
        response: { 201: envelope(recentSearchSchema) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send({ message: message('searches.recorded', req.lang), data: await svc.recordRecent(app.requireUser(req), req.body.kind, req.body.filters) }),
  );

  app.delete(
    '/recentSearches/:id',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Remove one of my recent searches (404 if not mine)', params: idParams, response: { 200: envelope(z.null()) } },
    },
    async (req) => {
      await svc.removeRecent(app.requireUser(req), req.params.id);
      return { message: message('searches.deleted', req.lang), data: null };
    },
  );
}
