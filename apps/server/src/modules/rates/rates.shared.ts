import type { RateFigures } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { passesRule } from './disclosure.ts';
import * as repo from './rates.repository.ts';

/*
 * The lane rate index (issue 20 "The lane rate index"; docs/rates.md): one rate record per booked
 * load, written by the outbox handler `lane-rates` on load.booked, taken out again by a
 * cancellation after booking, and daily lane aggregates (five geography levels × equipment and
 * '*') that the index query reads — never the records of a lane window. This file holds what the
 * use cases (use-cases/*.ts) share: buckets, dates, the outlier and minimum-sample rules, figures.
 */

// ---------------------------------------------------------------------------------------------
// Histogram buckets (docs/rates.md "Percentiles")

/** Bucket width: each bucket's upper edge is 2 % above its lower edge. */
export const BUCKET_RATIO = 1.02;
const LOG_RATIO = Math.log(BUCKET_RATIO);
/** SAR per trip: bucket 0 starts at 50 SAR; 400 buckets reach ≈ 137,600 SAR (values outside go to the end buckets). */
export const SAR_BUCKETS = { base: 50, count: 400 } as const;
/** SAR per km: bucket 0 starts at 0.2 SAR/km; 300 buckets reach ≈ 76 SAR/km. */
export const KM_BUCKETS = { base: 0.2, count: 300 } as const;

/** The bucket (0…count−1) of a positive value. */
export function bucketOf(v: number, b: { base: number; count: number }): number {
  if (!(v > 0)) return 0;
  return Math.min(b.count - 1, Math.max(0, Math.floor(Math.log(v / b.base) / LOG_RATIO)));
}

/**
 * The q-quantile (0…1) of a bucketed sample: the bucket holding rank q·n, interpolated
 * geometrically inside it. The true value lies in the same 2 %-wide bucket, so the error is under
 * 2 % of the value (docs/rates.md). Null for an empty histogram.
 */
export function quantileOf(hist: Map<number, number>, q: number, b: { base: number; count: number }): number | null {
  let n = 0;
  for (const c of hist.values()) n += c;
  if (n <= 0) return null;
  const keys = [...hist.keys()].filter((k) => (hist.get(k) ?? 0) > 0).sort((x, y) => x - y);
  const rank = q * n;
  let before = 0;
  for (const k of keys) {
    const c = hist.get(k)!;
    if (before + c >= rank) {
      const f = c > 0 ? Math.min(1, Math.max(0, (rank - before) / c)) : 0.5;
      return b.base * Math.pow(BUCKET_RATIO, k + f);
    }
    before += c;
  }
  const last = keys[keys.length - 1];
  return b.base * Math.pow(BUCKET_RATIO, last + 1);
}

// ---------------------------------------------------------------------------------------------
// Dates (Asia/Riyadh: UTC+3 all year)

const DAY_MS = 86_400_000;
const RIYADH_OFFSET_MS = 3 * 3_600_000;
/** The Riyadh calendar day 'YYYY-MM-DD' of an instant. */
export const riyadhDay = (d: Date): string => new Date(d.getTime() + RIYADH_OFFSET_MS).toISOString().slice(0, 10);
/** 'YYYY-MM-DD' plus `n` days. */
export const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------
// Outliers (docs/rates.md "Outliers")

/** MAD multiple beyond which a record is an outlier. */
export const OUTLIER_MADS = 3;
/** Consistency constant: 1.4826 · MAD estimates the standard deviation of a normal sample. */
export const MAD_SCALE = 1.4826;
/** The baseline: the lane's last 90 days (city → city, same equipment and kind), at most 500 records. */
export const OUTLIER_BASELINE_DAYS = 90;
export const OUTLIER_BASELINE_MAX = 500;
/** The rule applies only when the baseline has at least this many records. */
export const OUTLIER_MIN_BASELINE = 7;
/** A floor of the scaled MAD, as a share of the median (identical prices would otherwise flag any different one). */
export const OUTLIER_MIN_SPREAD = 0.02;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Is `perKm` (SAR/km) an outlier against the lane's baseline? |x − median| > 3 · max(1.4826 · MAD,
 * 2 % of the median). Never with fewer than 7 baseline records, nor without a per-km value.
 */
export function isOutlier(perKm: number | null, baseline: number[]): boolean {
  if (perKm === null || baseline.length < OUTLIER_MIN_BASELINE) return false;
  const med = median(baseline);
  const mad = median(baseline.map((x) => Math.abs(x - med)));
  const spread = Math.max(MAD_SCALE * mad, OUTLIER_MIN_SPREAD * med);
  return Math.abs(perKm - med) > OUTLIER_MADS * spread;
}

/** SAR per km of a booking, to 4 decimals; null without a distance. */
export const perKmOf = (priceSar: number, distanceKm: number): number | null => (distanceKm > 0 ? Math.round((priceSar / distanceKm) * 10_000) / 10_000 : null);

// ---------------------------------------------------------------------------------------------
// Aggregates

/** The five (level, origin key, destination key) places of a record's lane (docs/rates.md "Aggregates"). */
export function laneKeys(l: { originCityId: number; originRegionId: number; destinationCityId: number; destinationRegionId: number }) {
  return [
    { level: 'city_city' as const, originKey: l.originCityId, destinationKey: l.destinationCityId },
    { level: 'region_city' as const, originKey: l.originRegionId, destinationKey: l.destinationCityId },
    { level: 'city_region' as const, originKey: l.originCityId, destinationKey: l.destinationRegionId },
    { level: 'region_region' as const, originKey: l.originRegionId, destinationKey: l.destinationRegionId },
    { level: 'national' as const, originKey: 0, destinationKey: 0 },
  ];
}

// ---------------------------------------------------------------------------------------------
// Reading the aggregates

/** The sums of a set of daily rows. */
export interface Sample {
  records: number;
  sumSar: number;
  sumSqSar: number;
  sumPerKm: number;
  sumSqPerKm: number;
  outliers: number;
  histSar: Map<number, number>;
  histKm: Map<number, number>;
  companies: Map<string, number>;
}

/** The minimum-sample rule — one definition, in disclosure.ts (issue 46); kept under this name for its callers. */
export const enoughSample = passesRule;

export const round2 = (x: number) => Math.round(x * 100) / 100;

/** Average, median, percentiles and standard deviation of `n` values from their sums and histogram; null when n ≤ 0. */
export function figures(n: number, sum: number, sumSq: number, hist: Map<number, number>, b: { base: number; count: number }): RateFigures | null {
  if (n <= 0) return null;
  const avg = sum / n;
  const variance = n > 1 ? Math.max(0, (sumSq - (sum * sum) / n) / (n - 1)) : 0;
  const q = (p: number) => round2(quantileOf(hist, p, b) ?? avg);
  return { average: round2(avg), median: q(0.5), p25: q(0.25), p75: q(0.75), p2_5: q(0.025), p97_5: q(0.975), stdDev: round2(Math.sqrt(variance)) };
}

/** Cities (with region names) rarely change: cached per process after the first read. */
const cityCache = new Map<number, repo.CityRef>();
async function citiesOf(db: DbOrTx, ids: number[]): Promise<Map<number, repo.CityRef>> {
  const missing = ids.filter((i) => !cityCache.has(i));
  if (missing.length) for (const c of await repo.citiesByIds(db, missing)) cityCache.set(c.id, c);
  return new Map(ids.filter((i) => cityCache.has(i)).map((i) => [i, cityCache.get(i)!]));
}

/** The two cities of a lane (with their regions). NOT_FOUND for an unknown city. */
export async function lanePair(db: DbOrTx, originCityId: number, destinationCityId: number) {
  const cities = await citiesOf(db, [originCityId, destinationCityId]);
  const o = cities.get(originCityId);
  const d = cities.get(destinationCityId);
  if (!o || !d) throw new AppError('NOT_FOUND');
  return { o, d };
}
