import { z } from 'zod';
import { INT4_MAX } from '../input.ts';
import { emailSchema } from '../validation.ts';
import { RATE_KINDS } from './rates.ts';

/**
 * Rate forecast and rate-change alerts (issue 20; spec §2 /rate-forecast, /rate-change-alerts;
 * spec §3 "saved search and rate-change alert: lane, increment or decrement threshold, alert
 * e-mail; rate alert window 24 hours"). Rates are SAR per trip (average of a day's booked,
 * non-outlier, non-cancelled records on the lane: lane_rate_daily, migration 0111).
 */
export const FORECAST_MODELS = ['mstl_ets', 'seasonal_naive', 'not_enough_data'] as const;
export type ForecastModelName = (typeof FORECAST_MODELS)[number];
/** The nominal level of the forecast's prediction band (share of actual rates inside it). */
export const FORECAST_BAND_LEVEL = 0.8;

const cityId = z.coerce.number({ error: 'v.cityInvalid' }).int('v.cityInvalid').positive('v.cityInvalid').max(INT4_MAX, 'v.cityInvalid');
/** An equipment type code; empty or absent = every equipment ('*' in the aggregates). */
const equipment = z.string().trim().max(60).optional();

/** GET /rates/forecast query: a city→city lane, equipment (optional: all), spot or contract. */
export const rateForecastQuery = z.object({
  origin: cityId,
  destination: cityId,
  equipment,
  kind: z.enum(RATE_KINDS).default('spot'),
});
export type RateForecastQuery = z.infer<typeof rateForecastQuery>;

const cityName = z.object({ id: z.number().int(), nameEn: z.string(), nameAr: z.string() });
const band = { value: z.number(), low: z.number(), high: z.number() };

/**
 * The forecast of a lane: `history` = the published weekly averages of the last 26 Sunday–Saturday
 * weeks (date = the week's first day; weeks that fail docs/rates.md "Disclosure control" left out; issue 46),
 * `daily` = the next 8 days from today (Riyadh), `weekly` = the next 12 weeks from today; each with
 * the FORECAST_BAND_LEVEL band (`low`..`high`). `measuredError`: the model's own rolling-origin
 * backtest (one-week-ahead forecasts over the last `backtestWeeks` weeks) on this lane, or on the
 * national series (`scope: 'national'`) when the lane has too little history; null when neither has.
 */
export const rateForecastSchema = z.object({
  origin: cityName,
  destination: cityName,
  equipment: z.string().nullable(),
  kind: z.enum(RATE_KINDS),
  model: z.enum(FORECAST_MODELS),
  bandLevel: z.number(),
  /** The last day of history the forecast read (the end of the last complete publication week, Riyadh), YYYY-MM-DD. */
  asOf: z.string(),
  history: z.array(z.object({ date: z.string(), value: z.number(), records: z.number().int() })),
  daily: z.array(z.object({ date: z.string(), ...band })),
  weekly: z.array(z.object({ weekStart: z.string(), ...band })),
  measuredError: z
    .object({
      scope: z.enum(['lane', 'national']),
      maePct: z.number(),
      maeSar: z.number(),
      bandCoverage: z.number(),
      backtestWeeks: z.number().int(),
      naiveMaePct: z.number(),
    })
    .nullable(),
});
export type RateForecast = z.infer<typeof rateForecastSchema>;

// ---------------------------------------------------------------------------------------------
// Rate-change alerts

export const RATE_ALERT_DIRECTIONS = ['up', 'down', 'both'] as const;
export type RateAlertDirection = (typeof RATE_ALERT_DIRECTIONS)[number];
export const RATE_ALERT_UNITS = ['pct', 'sar'] as const;
export type RateAlertUnit = (typeof RATE_ALERT_UNITS)[number];
/** At most this many rate-change alerts per account (LIMIT_REACHED beyond). */
export const RATE_ALERTS_MAX = 20;
/** The comparison window of a rate-change alert, hours (spec §3 "rate alert window 24 hours"). */
export const RATE_ALERT_WINDOW_HOURS = 24;

const threshold = z.coerce.number({ error: 'v.rateAlertThreshold' }).positive('v.rateAlertThreshold').max(100_000, 'v.rateAlertThreshold');

/** POST /rateAlerts (Idempotency-Key): a lane, a direction and a threshold (% or SAR), the e-mail to alert. */
export const createRateAlertBody = z
  .object({
    originCityId: cityId,
    destinationCityId: cityId,
    equipment,
    kind: z.enum(RATE_KINDS).default('spot'),
    direction: z.enum(RATE_ALERT_DIRECTIONS),
    threshold,
    unit: z.enum(RATE_ALERT_UNITS),
    email: emailSchema,
  })
  .refine((b) => b.unit !== 'pct' || b.threshold <= 1000, { path: ['threshold'], message: 'v.rateAlertThreshold' });
export type CreateRateAlertBody = z.infer<typeof createRateAlertBody>;

/** PATCH /rateAlerts/:id: pause or resume, or change the threshold, direction or e-mail. */
export const updateRateAlertBody = z
  .object({
    active: z.boolean().optional(),
    direction: z.enum(RATE_ALERT_DIRECTIONS).optional(),
    threshold: threshold.optional(),
    unit: z.enum(RATE_ALERT_UNITS).optional(),
    email: emailSchema.optional(),
  })
  .refine((b) => b.unit !== 'pct' || b.threshold === undefined || b.threshold <= 1000, { path: ['threshold'], message: 'v.rateAlertThreshold' });
export type UpdateRateAlertBody = z.infer<typeof updateRateAlertBody>;

export const rateAlertSchema = z.object({
  id: z.uuid(),
  origin: cityName,
  destination: cityName,
  equipment: z.string().nullable(),
  kind: z.enum(RATE_KINDS),
  direction: z.enum(RATE_ALERT_DIRECTIONS),
  threshold: z.number(),
  unit: z.enum(RATE_ALERT_UNITS),
  email: z.string(),
  active: z.boolean(),
  createdAt: z.string(),
  /** When it last fired (null: never). */
  lastTriggeredAt: z.string().nullable(),
});
export type RateAlert = z.infer<typeof rateAlertSchema>;
/** GET /rateAlerts: every alert of my account (at most RATE_ALERTS_MAX), newest first. */
export const rateAlertList = z.object({ items: z.array(rateAlertSchema) });
