import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, laneRateHistoryQuery, laneRateHistorySchema, laneRateQuery, laneRateSchema, message } from '@masar/shared';

const LANE_DESCRIPTION =
  'The lane rate index (issue 20; docs/rates.md): average and median SAR per trip and per km, low–high (25th–75th) and 2.5th–97.5th percentiles, ' +
  'standard deviation, records and companies of Masar bookings on a lane × equipment × kind (spot: accepted offers and Book Now; contract: tenders, ' +
  'vendor and own-vehicle assignments) over a window (7, 15, 30, 60, 90 or 365 days; default 30). A figure needs at least 7 records from at least 3 ' +
  'companies with no company over 40 % of them; otherwise the geography widens (city→city, region→city, city→region, region→region, national), ' +
  'then the window — `geography` and `window` say what was used; when none qualifies, `enough: false` ("not enough data"). Percentiles come from ' +
  '2 %-wide buckets (within 2 %). `own`: the signed-in company on the city→city lane. Errors: NOT_FOUND (unknown city).';

/** Market rates (issue 20 "The lane rate index"; spec §2 market rates, §7 /spotMarketRate, /laneAnalytics). Rules in rates.service.ts. */
export default async function ratesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.rates;
  const tags = ['rates'];

  for (const [url, summary] of [
    ['/rates/lane', "A lane's market rate (spot or contract)"],
    ['/spotMarketRate', "A lane's market rate (spec §7 name; same as GET /rates/lane)"],
    ['/laneAnalytics', "A lane's market rate (spec §7 name; same as GET /rates/lane; the 13-month history is GET /rates/lane/history)"],
  ] as const)
    app.get(
      url,
      {
        config: { auth: 'user' },
        schema: { tags, summary, description: LANE_DESCRIPTION, querystring: laneRateQuery, response: { 200: envelope(laneRateSchema) } },
      },
      async (req) => ({ message: message('common.ok', req.lang), data: await svc.laneRate(app.requireUser(req), req.query) }),
    );

  app.get(
    '/rates/lane/history',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "A lane's 13-month rate history and my bookings on it",
        description:
          'The current month and the 12 before (Riyadh calendar) on the city→city lane: average, p25, p75 and records per month; the figures are null in a ' +
          'month without enough data (7 records, 3 companies, none over 40 %; no widening). `own`: my bookings on the lane in those months, newest first ' +
          '(up to 100). Errors: NOT_FOUND (unknown city).',
        querystring: laneRateHistoryQuery,
        response: { 200: envelope(laneRateHistorySchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.history(app.requireUser(req), req.query) }),
  );
}
