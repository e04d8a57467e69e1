import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, laneRateHistoryQuery, laneRateHistorySchema, laneRateQuery, laneRateSchema, message } from '@masar/shared';

const LANE_DESCRIPTION =
  'The lane rate index (issue 20; docs/rates.md): average and median SAR per trip and per km, low–high (25th–75th) and 2.5th–97.5th percentiles, ' +
  'standard deviation, records and companies of Masar bookings on a lane × equipment × kind (spot: accepted offers and Book Now; contract: tenders, ' +
  'vendor and own-vehicle assignments) over a window (7, 15, 30, 60, 90 or 365 days; default 30), counted in whole Sunday–Saturday weeks ending with ' +
  'the last complete week (1, 2, 4, 9, 13 or 52 weeks; `period`), so the answer changes once a week. A figure is published only when it has at least 7 ' +
  'records from at least 3 companies with no company over 40 % of them, and when it differs from every other figure a reader can obtain (other ' +
  'windows, levels, equipment, the history, last week) by none or by such a set (complementary suppression; issue 46, docs/rates.md "Disclosure ' +
  'control"); otherwise the geography widens (city→city, region→city, city→region, region→region, national), then the window — `geography` and ' +
  '`window` say what was used, `code` LANE_NOT_ENOUGH_DATA when it is not the lane itself; when none qualifies, `enough: false`, code ' +
  'NOT_ENOUGH_DATA ("not enough data"). Percentiles come from ' +
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
          'The current month and the 12 before (Riyadh calendar) on the city→city lane, up to the end of the last complete Sunday–Saturday week: ' +
          'average, p25, p75 and records per month; the figures are null in a month that may not be published (7 records, 3 companies, none over 40 %, ' +
          'and no difference with another figure that fails the same rule; issue 46; no widening). `own`: my bookings on the lane in those months, newest first ' +
          '(up to 100). Errors: NOT_FOUND (unknown city).',
        querystring: laneRateHistoryQuery,
        response: { 200: envelope(laneRateHistorySchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.history(app.requireUser(req), req.query) }),
  );
}
