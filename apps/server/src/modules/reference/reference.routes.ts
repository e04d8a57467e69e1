import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { citiesQuery, citiesResponse, districtSchema, envelope, equipmentTypeSchema, goodsTypeSchema, regionSchema } from '@masar/shared';
import * as repo from './reference.repository.ts';

const ok = <T>(data: T) => ({ message: 'OK', data });

/** Reference data: cities (en/ar search), regions, districts, goods types, equipment types. Public. */
export default async function referenceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const tags = ['reference'];
  app.get(
    '/cities',
    {
      config: { auth: 'none' },
      schema: { tags, summary: 'Search Saudi cities by English or Arabic name', querystring: citiesQuery, response: { 200: envelope(citiesResponse) } },
    },
    async (req) => ok(await repo.searchCities(db, req.query.search, req.query.limit, req.query.ids?.split(',').map(Number))),
  );
  app.get(
    '/regions',
    { config: { auth: 'none' }, schema: { tags, summary: 'Saudi regions', response: { 200: envelope(z.object({ items: z.array(regionSchema) })) } } },
    async () => ok({ items: await repo.listRegions(db) }),
  );
  app.get(
    '/districts',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Districts of a city',
        querystring: z.object({ cityId: z.coerce.number().int().positive() }),
        response: { 200: envelope(z.object({ items: z.array(districtSchema) })) },
      },
    },
    async (req) => ok({ items: await repo.listDistricts(db, req.query.cityId) }),
  );
  app.get(
    '/goodTypes',
    {
      config: { auth: 'none' },
      schema: { tags, summary: 'Goods types (HS-mapped categories)', response: { 200: envelope(z.object({ items: z.array(goodsTypeSchema) })) } },
    },
    async () => ok({ items: await repo.listGoodsTypes(db) }),
  );
  app.get(
    '/equipmentTypes',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Equipment (truck) types used in Saudi road freight',
        response: { 200: envelope(z.object({ items: z.array(equipmentTypeSchema) })) },
      },
    },
    async () => ok({ items: await repo.listEquipmentTypes(db) }),
  );
}
