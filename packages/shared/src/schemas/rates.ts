import { z } from 'zod';
import { refId } from './common.ts';

/**
 * The lane rate index (issue 20 "The lane rate index"; spec §2 market rates, §7 /spotMarketRate,
 * /laneAnalytics; docs/rates.md). Figures come from Masar's own bookings (rate records), kept in
 * daily lane aggregates by the `lane-rates` outbox handler.
 */

/** Windows of the index, days (365 = one year); spot defaults to 30. */
export const RATE_WINDOWS = [7, 15, 30, 60, 90, 365] as const;
export type RateWindow = (typeof RATE_WINDOWS)[number];

/**
 * The geography levels, narrowest first: the order the index widens in (docs/rates.md
 * "Widening"). city_city: origin city → destination city; region_city: origin region →
 * destination city; city_region: origin city → destination region; region_region; national.
 */
export const RATE_LEVELS = ['city_city', 'region_city', 'city_region', 'region_region', 'national'] as const;
export type RateLevel = (typeof RATE_LEVELS)[number];

export const RATE_KINDS = ['spot', 'contract'] as const;
export type RateKind = (typeof RATE_KINDS)[number];

/** Minimum sample of a figure: at least this many records … */
export const RATE_MIN_RECORDS = 7;
/** … from at least this many companies … */
export const RATE_MIN_COMPANIES = 3;
/** … and no company holding more than this share of them. */
export const RATE_MAX_COMPANY_SHARE = 0.4;

/** `GET /rates/lane` (and the aliases /spotMarketRate, /laneAnalytics) query. */
export const laneRateQuery = z.object({
  origin: refId(),
  destination: refId(),
  /** An equipment code; omitted: every equipment. */
  equipment: z.string().trim().min(1).max(60).optional(),
  kind: z.enum(RATE_KINDS).default('spot'),
  window: z.coerce
    .number()
    .int()
    .refine((w) => (RATE_WINDOWS as readonly number[]).includes(w), 'v.rateWindow')
    .default(30),
});
export type LaneRateQuery = z.infer<typeof laneRateQuery>;

/** `GET /rates/lane/history` query. */
export const laneRateHistoryQuery = laneRateQuery.omit({ window: true });
export type LaneRateHistoryQuery = z.infer<typeof laneRateHistoryQuery>;

/** A set of figures in one unit (SAR per trip, or SAR per km). Percentiles from 2 %-wide buckets (±1 %). */
export const rateFiguresSchema = z.object({
  average: z.number(),
  median: z.number(),
  /** 25th percentile ("low" of the middle half). */
  p25: z.number(),
  /** 75th percentile ("high"). */
  p75: z.number(),
  p2_5: z.number(),
  p97_5: z.number(),
  /** Sample standard deviation (0 with one record). */
  stdDev: z.number(),
});
export type RateFigures = z.infer<typeof rateFiguresSchema>;

const placeName = z.object({ id: z.number().int(), en: z.string(), ar: z.string() });

/** The answer of the index: a figure, or `enough: false` ("not enough data"). */
export const laneRateSchema = z.object({
  enough: z.boolean(),
  /**
   * What the answer is (issue 46 "Honest thin lanes"): OK — the lane's own (city → city) figure;
   * LANE_NOT_ENOUGH_DATA — the lane itself has not enough data and the figure is of the wider
   * geography named in `geography` (never to be shown under the lane's name); NOT_ENOUGH_DATA — no
   * figure at any level.
   */
  code: z.enum(['OK', 'LANE_NOT_ENOUGH_DATA', 'NOT_ENOUGH_DATA']),
  /** The days the figure covers (YYYY-MM-DD, inclusive): whole Sunday–Saturday weeks ending with the last complete one (null without a figure). */
  period: z.object({ from: z.string(), to: z.string() }).nullable(),
  kind: z.enum(RATE_KINDS),
  equipment: z.string().nullable(),
  /** The window asked for, days. */
  windowRequested: z.number().int(),
  /** The geography and window the figure is based on (null when not enough data). */
  geography: z
    .object({
      level: z.enum(RATE_LEVELS),
      /** The origin and destination at that level: a city, a region, or null (national). */
      origin: placeName.nullable(),
      destination: placeName.nullable(),
    })
    .nullable(),
  window: z.number().int().nullable(),
  perTrip: rateFiguresSchema.nullable(),
  perKm: rateFiguresSchema.nullable(),
  records: z.number().int(),
  companies: z.number().int(),
  /** Records of the geography and window flagged as outliers (kept, not in the figures). */
  outliersExcluded: z.number().int(),
  /** The signed-in company's own bookings on the city → city lane in the window used (or asked): average SAR per trip. */
  own: z.object({ average: z.number().nullable(), records: z.number().int() }),
});
export type LaneRate = z.infer<typeof laneRateSchema>;

/** One month of a lane's history (city → city); null figures when the month has not enough data. */
export const laneRateMonthSchema = z.object({
  /** 'YYYY-MM' (Riyadh calendar). */
  month: z.string(),
  average: z.number().nullable(),
  p25: z.number().nullable(),
  p75: z.number().nullable(),
  records: z.number().int(),
});

export const laneRateHistorySchema = z.object({
  months: z.array(laneRateMonthSchema),
  /** The viewer's own bookings on the lane in the 13 months, newest first (up to 100). */
  own: z.array(z.object({ date: z.string(), priceSar: z.number() })),
});
export type LaneRateHistory = z.infer<typeof laneRateHistorySchema>;
