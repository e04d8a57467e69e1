import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ACCOUNT_TYPE,
  carrierRevenueSchema,
  dashboardPeriodQuery,
  dashboardSchema,
  envelope,
  loadStatisticsSchema,
  message,
  offerStatisticsSchema,
  popularRoutesSchema,
} from '@masar/shared';

/**
 * The dashboards (issue 20; spec §2 statistic keys and carrier insights; §7 /loadStatistics,
 * /getOfferStatistics, /carrierPopularRoutes, /carrierLoadsRevenue). The signed-in account's own
 * figures (a team member sees its owner's), read from the aggregates the `dashboards` outbox
 * handler keeps (docs/dashboards.md); periods in Riyadh time against the previous equal period.
 */
export default async function dashboardsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.dashboards;
  const tags = ['dashboards'];
  const period = 'period: week (This Week, from Sunday), month (This Month) or year (This Year), to today in Riyadh time; default month. ';

  app.get(
    '/dashboard',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Everything my dashboard shows, in one call',
        description:
          period +
          'shipper: the six statistic keys (loads_posted, loads_assigned, loads_open, loads_expired, avg_offers_per_load, final_value) each {value, previous, changePct}, spend by lane (top 10 by SAR), on-time pickup and delivery of my carriers. ' +
          'carrier: offers made/won/lost and revenue, popular routes (top 10 by loads), top lanes (by revenue), revenue trend and the 12-month SAR/km trend. A broker has both sides.',
        querystring: dashboardPeriodQuery,
        response: { 200: envelope(dashboardSchema) },
      },
    },
    async (req) => {
      const user = app.requireUser(req);
      // a shipper account has no carrier side, a carrier no shipper side; a broker has both
      const sides = { shipper: user.accountType !== ACCOUNT_TYPE.carrier, carrier: user.accountType !== ACCOUNT_TYPE.shipper };
      return { message: message('common.ok', req.lang), data: await svc.dashboard(user.id, req.query.period, req.lang, sides) };
    },
  );

  app.get(
    '/loadStatistics',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'The statistic keys of my loads for a period',
        description: period + 'Each key {value, previous, changePct}; changePct null when the previous period is 0.',
        querystring: dashboardPeriodQuery,
        response: { 200: envelope(loadStatisticsSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.loadStatistics(app.requireUser(req).id, req.query.period) }),
  );

  app.get(
    '/getOfferStatistics',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My offers as a carrier: made, won, lost, revenue',
        description: period + 'won: loads booked to me; lost: my offers closed or rejected by the shipper.',
        querystring: dashboardPeriodQuery,
        response: { 200: envelope(offerStatisticsSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.offerStatistics(app.requireUser(req).id, req.query.period) }),
  );

  app.get(
    '/carrierPopularRoutes',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My most booked lanes as a carrier',
        description: period + 'Top 10 lanes (origin city → destination city) by loads booked to me in the period.',
        querystring: dashboardPeriodQuery,
        response: { 200: envelope(popularRoutesSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.popularRoutes(app.requireUser(req).id, req.query.period, req.lang) }),
  );

  app.get(
    '/carrierLoadsRevenue',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My revenue trend as a carrier',
        description: period + 'Revenue and loads per day (week, month) or per month (year); rateTrend: my average SAR/km per month over the last 12 months.',
        querystring: dashboardPeriodQuery,
        response: { 200: envelope(carrierRevenueSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.carrierRevenue(app.requireUser(req).id, req.query.period) }),
  );
}
