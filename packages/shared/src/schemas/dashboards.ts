import { z } from 'zod';

/**
 * The dashboards (issue 20 "Dashboards"; spec §2 statistic keys and carrier insights; §7
 * /loadStatistics, /getOfferStatistics, /carrierPopularRoutes, /carrierLoadsRevenue). Every
 * figure is read from aggregates the `dashboards` outbox handler keeps (docs/dashboards.md).
 * Money is SAR as a number with two decimals at most; periods are in Riyadh time (UTC+3).
 */

/** The dashboard period filter: This Week (from Sunday), This Month, This Year, each to today. */
export const DASHBOARD_PERIODS = ['week', 'month', 'year'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
export const dashboardPeriodQuery = z.object({ period: z.enum(DASHBOARD_PERIODS).default('month') });

/** The spec's statistic keys, in the order the dashboard shows them. */
export const STATISTIC_KEYS = ['loads_posted', 'loads_assigned', 'loads_open', 'loads_expired', 'avg_offers_per_load', 'final_value'] as const;
export type StatisticKey = (typeof STATISTIC_KEYS)[number];

/** A figure of this period against the previous equal period; changePct null when previous is 0. */
export const statisticSchema = z.object({
  value: z.number(),
  previous: z.number(),
  /** (value − previous) / previous × 100, one decimal; null when previous is 0. */
  changePct: z.number().nullable(),
});
export type Statistic = z.infer<typeof statisticSchema>;

/** The days a period covers (Riyadh calendar days, inclusive) and the previous equal period. */
export const periodRangeSchema = z.object({
  period: z.enum(DASHBOARD_PERIODS),
  from: z.string().describe('YYYY-MM-DD (Riyadh)'),
  to: z.string().describe('YYYY-MM-DD (Riyadh), today'),
  previousFrom: z.string(),
  previousTo: z.string(),
});

/** GET /loadStatistics: the six statistic keys (the account as shipper — its own loads). */
export const loadStatisticsSchema = z.object({
  range: periodRangeSchema,
  stats: z.object({
    loads_posted: statisticSchema,
    loads_assigned: statisticSchema,
    /** The loads on the board now; previous: at the end of the previous period. */
    loads_open: statisticSchema,
    loads_expired: statisticSchema,
    /** Offers received on the loads first posted in the period ÷ those loads (one decimal). */
    avg_offers_per_load: statisticSchema,
    /** SAR of the loads booked to a carrier in the period (the shipper's spend). */
    final_value: statisticSchema,
  }),
});
export type LoadStatistics = z.infer<typeof loadStatisticsSchema>;

/** A lane (origin city → destination city) with its bookings in the period. */
export const dashboardLaneSchema = z.object({
  originCityId: z.number().int(),
  originCity: z.string(),
  destinationCityId: z.number().int(),
  destinationCity: z.string(),
  loads: z.number().int(),
  valueSar: z.number(),
  /** Average price per booking, SAR. */
  avgSar: z.number(),
  /** SAR per km over the lane's bookings; null when no distance. */
  perKmSar: z.number().nullable(),
});
export type DashboardLane = z.infer<typeof dashboardLaneSchema>;

/** On-time arrivals of the carriers on my loads in the period (whole %; null when none measured). */
export const carrierOnTimeSchema = z.object({
  pickupsMeasured: z.number().int(),
  onTimePickupPct: z.number().int().nullable(),
  deliveriesMeasured: z.number().int(),
  onTimeDeliveryPct: z.number().int().nullable(),
});

/** GET /getOfferStatistics: the account's offers as a carrier in the period. */
export const offerStatisticsSchema = z.object({
  range: periodRangeSchema,
  offersMade: statisticSchema,
  won: statisticSchema,
  lost: statisticSchema,
  /** won ÷ (won + lost), whole %; null when neither. */
  winRatePct: z.number().int().nullable(),
  revenueSar: statisticSchema,
});
export type OfferStatistics = z.infer<typeof offerStatisticsSchema>;

/** GET /carrierPopularRoutes: the account's lanes as a carrier in the period, most loads first (top 10). */
export const popularRoutesSchema = z.object({ range: periodRangeSchema, items: z.array(dashboardLaneSchema) });

/** One bucket of a trend: a Riyadh day (week, month) or month (year; the 1st). */
export const trendPointSchema = z.object({
  /** YYYY-MM-DD: the day, or the month's first day. */
  bucket: z.string(),
  revenueSar: z.number(),
  loads: z.number().int(),
});

/** The carrier's own average SAR per km per month (the last 12 months); the market line comes from the rates module. */
export const rateTrendPointSchema = z.object({ month: z.string(), perKmSar: z.number().nullable(), loads: z.number().int() });

/** GET /carrierLoadsRevenue: revenue per day (week, month) or per month (year), and the rate trend. */
export const carrierRevenueSchema = z.object({
  range: periodRangeSchema,
  granularity: z.enum(['day', 'month']),
  points: z.array(trendPointSchema),
  rateTrend: z.array(rateTrendPointSchema),
});
export type CarrierRevenue = z.infer<typeof carrierRevenueSchema>;

/** GET /dashboard: everything one dashboard page shows, in one call. */
export const dashboardSchema = z.object({
  range: periodRangeSchema,
  /** The account as shipper (shippers, brokers): the statistic keys, spend by lane, my carriers' on time. */
  shipper: z.object({
    stats: loadStatisticsSchema.shape.stats,
    spendByLane: z.array(dashboardLaneSchema),
    carrierOnTime: carrierOnTimeSchema,
  }),
  /** The account as carrier (carriers, brokers): offers won/lost, revenue, its lanes, trends. */
  carrier: z.object({
    offers: offerStatisticsSchema.omit({ range: true }),
    popularRoutes: z.array(dashboardLaneSchema),
    /** Top lanes by revenue. */
    topLanes: z.array(dashboardLaneSchema),
    revenue: carrierRevenueSchema.omit({ range: true }),
  }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
