import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, message, rateForecastQuery, rateForecastSchema } from '@masar/shared';

/** Forecast requests per client IP per minute (public: guests use the /rate-forecast page). */
const PER_MINUTE = 60;

/**
 * The lane rate forecast (issue 20; spec §2 /rate-forecast). Public — the /rate-forecast page
 * works for guests — and limited per client IP. docs/rate-forecast.md.
 */
export default async function forecastRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.forecast;
  app.get(
    '/rates/forecast',
    {
      config: { auth: 'none', rateLimit: { max: PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['rates'],
        summary: 'Rate forecast of a lane: the next 8 days and 12 weeks with an 80 % band',
        description: `A city→city lane (origin and destination city ids), an equipment type code (absent: every equipment) and spot or contract (default spot). From the lane's published weekly averages (booked, non-outlier, non-cancelled records; Sunday–Saturday weeks up to the last complete one, each published only when it passes the disclosure rule of docs/rates.md: 7 records, 3 companies, none over 40 %, no isolating difference; issue 46), each day of a week at its week's average: model \`mstl_ets\` (MSTL with a weekly season + AutoETS, @bsull/augurs) from two weeks of history, \`seasonal_naive\` (same weekday last week) below that, \`not_enough_data\` under a week of records. \`daily\`: the next 8 days from today; \`weekly\`: the next 12 weeks, each the mean of its days; \`low\`..\`high\`: the 80 % prediction band (the MSTL band calibrated on the lane's own backtest errors). \`history\`: the published weeks of the last 26 (date = the week's Sunday; a week that may not be published is left out). \`asOf\`: the last day of the last complete week. \`measuredError\`: the model's rolling-origin backtest (one-week-ahead forecasts over the last 12 weeks) on this lane, or on the national series when the lane has too little (scope), with the seasonal-naive baseline's error beside it. Errors: INVALID_CITY (400), VALIDATION_FAILED (400), RATE_LIMITED (429, ${PER_MINUTE} per IP per minute).`,
        querystring: rateForecastQuery,
        response: { 200: envelope(rateForecastSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.forecast(req.query) }),
  );
}
