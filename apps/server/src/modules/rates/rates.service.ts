import {
  isEvent,
  RATE_LEVELS,
  RATE_MAX_COMPANY_SHARE,
  RATE_MIN_COMPANIES,
  RATE_MIN_RECORDS,
  RATE_WINDOWS,
  type DomainEventType,
  type LaneRate,
  type LaneRateHistory,
  type LaneRateHistoryQuery,
  type LaneRateQuery,
  type RateFigures,
  type RateKind,
  type RateLevel,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { replayEvents, type EventHandler, type OutboxEvent } from '../events/events.service.ts';
import { rateFactsOf, type RateFacts } from '../loads/loads.service.ts';
import * as repo from './rates.repository.ts';

/*
 * The lane rate index (issue 20 "The lane rate index"; docs/rates.md): one rate record per booked
 * load, written by the outbox handler `lane-rates` on load.booked, taken out again by a
 * cancellation after booking, and daily lane aggregates (five geography levels × equipment and
 * '*') that the index query reads — never the records of a lane window.
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

/**
 * The ten daily deltas of one record (5 levels × its equipment and '*'), `sign` +1 (added) or −1
 * (cancelled). An outlier moves only the `outliers` count.
 */
export function recordDeltas(r: repo.RateRecordRow, sign: 1 | -1): repo.DailyDelta[] {
  const counted = !r.outlier;
  const s = counted ? sign : 0;
  const histSar = counted ? { [bucketOf(r.priceSar, SAR_BUCKETS)]: sign } : {};
  const histKm = counted && r.perKmSar !== null ? { [bucketOf(r.perKmSar, KM_BUCKETS)]: sign } : {};
  const companies = counted ? { [r.companyId]: sign } : {};
  const out: repo.DailyDelta[] = [];
  for (const k of laneKeys(r))
    for (const equipment of [r.equipment, '*'])
      out.push({
        ...k,
        equipment,
        kind: r.kind,
        day: r.bookedOn,
        records: s,
        sumSar: s * r.priceSar,
        sumSqSar: s * r.priceSar * r.priceSar,
        sumKm: s * r.distanceKm,
        sumPerKm: r.perKmSar === null ? 0 : s * r.perKmSar,
        sumSqPerKm: r.perKmSar === null ? 0 : s * r.perKmSar * r.perKmSar,
        outliers: counted ? 0 : sign,
        histSar,
        histKm,
        companies,
      });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The handler

/** The event types the index takes (the backfill replays exactly these). */
export const RATE_EVENT_TYPES = ['load.booked', 'load.cancelled', 'load.bayan_cancelled'] as const satisfies readonly DomainEventType[];
/** Load statuses of a booked shipment (a cancellation from one of them takes the record out). */
const BOOKED_STATUSES = new Set(['unassigned', 'assigned', 'pending_bayan']);

/** Kind and source of a booking by how it was booked (docs/rates.md "Kinds"). */
export const KIND_OF: Record<RateFacts['via'], { kind: RateKind; source: repo.RateRecordRow['source'] }> = {
  own_vehicle: { kind: 'contract', source: 'own_vehicle' },
  vendor: { kind: 'contract', source: 'vendor' },
  tender: { kind: 'contract', source: 'tender' },
  offer: { kind: 'spot', source: 'offer' },
  book_now: { kind: 'spot', source: 'book_now' },
};

/** The rate record of a booked load's facts (outlier not yet decided). */
export function recordOf(loadId: string, f: RateFacts, bookedAt: Date, priceSar: number): repo.RateRecordRow {
  const { kind, source } = KIND_OF[f.via];
  return {
    loadId,
    kind,
    source,
    companyId: f.shipperId,
    carrierId: f.carrierId,
    bookedAt,
    bookedOn: riyadhDay(bookedAt),
    originCityId: f.originCityId,
    originRegionId: f.originRegionId,
    destinationCityId: f.destinationCityId,
    destinationRegionId: f.destinationRegionId,
    equipment: f.equipment,
    loadType: f.loadType === 'LTL' ? 'ltl' : 'ftl',
    distanceKm: f.distanceKm,
    weightKg: f.weightKg,
    priceSar,
    perKmSar: f.distanceKm > 0 ? Math.round((priceSar / f.distanceKm) * 10_000) / 10_000 : null,
    outlier: false,
  };
}

/** Decide a new record's outlier flag against the lane's stored baseline (the 90 days up to its day). */
async function flagOutlier(tx: DbOrTx, r: repo.RateRecordRow): Promise<repo.RateRecordRow> {
  const baseline = await repo.laneBaseline(tx, r, addDays(r.bookedOn, -OUTLIER_BASELINE_DAYS), r.bookedOn, OUTLIER_BASELINE_MAX);
  return { ...r, outlier: isOutlier(r.perKmSar, baseline) };
}

/**
 * Take one event into the index (idempotent: a record is inserted once and cancelled once, and
 * the aggregates move only then, in the same transaction). load.booked → the load's rate facts
 * through the loads module (null: not booked — nothing); load.cancelled / load.bayan_cancelled
 * from a booked status → cancelled_at set and the record subtracted.
 */
export async function applyRateEvent(
  tx: DbOrTx,
  e: OutboxEvent,
  facts: (db: DbOrTx, loadId: string) => Promise<RateFacts | null> = rateFactsOf,
): Promise<void> {
  if (!isEvent(e, ...RATE_EVENT_TYPES)) return;
  const loadId = e.data.loadId;
  if (isEvent(e, 'load.booked')) {
    const f = await facts(tx, loadId);
    if (!f) return;
    const price = e.data.bookedPriceSar !== undefined ? Number(e.data.bookedPriceSar) : Number(f.priceSar);
    if (!(price > 0)) return;
    const r = await flagOutlier(tx, recordOf(loadId, f, e.createdAt, price));
    if (await repo.insertRecord(tx, r)) await repo.addDaily(tx, recordDeltas(r, 1));
    return;
  }
  const from = e.data.status?.from ?? (isEvent(e, 'load.cancelled') ? e.data.previousStatus : undefined);
  if (!from || !BOOKED_STATUSES.has(from)) return;
  const r = await repo.setCancelled(tx, loadId, e.createdAt);
  if (r) await repo.addDaily(tx, recordDeltas(r, -1));
}

/** The outbox consumer that keeps the index (registered in container.ts, after account-record). */
export const laneRatesHandler: EventHandler = {
  name: 'lane-rates',
  handle: (tx, e) => applyRateEvent(tx, e),
};

// ---------------------------------------------------------------------------------------------
// Reading the aggregates

/** The sums of a set of daily rows. */
interface Sample {
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

function sampleOf(rows: repo.DailyRow[]): Sample {
  const s: Sample = {
    records: 0,
    sumSar: 0,
    sumSqSar: 0,
    sumPerKm: 0,
    sumSqPerKm: 0,
    outliers: 0,
    histSar: new Map(),
    histKm: new Map(),
    companies: new Map(),
  };
  const add = <K>(m: Map<K, number>, k: K, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (const r of rows) {
    s.records += r.records;
    s.sumSar += r.sum_sar;
    s.sumSqSar += r.sum_sq_sar;
    s.sumPerKm += r.sum_per_km;
    s.sumSqPerKm += r.sum_sq_per_km;
    s.outliers += r.outliers;
    for (const [k, v] of Object.entries(r.hist_sar)) add(s.histSar, Number(k), v);
    for (const [k, v] of Object.entries(r.hist_km)) add(s.histKm, Number(k), v);
    for (const [k, v] of Object.entries(r.companies)) add(s.companies, k, v);
  }
  return s;
}

/** A summary summed in the database as a Sample (its company map is not needed: the counts come with it). */
function summarySample(r: repo.LaneSummaryRow): Sample {
  const toMap = (h: Record<string, number> | null) => new Map(Object.entries(h ?? {}).map(([k, v]) => [Number(k), Number(v)]));
  return {
    records: r.records,
    sumSar: r.sum_sar,
    sumSqSar: r.sum_sq_sar,
    sumPerKm: r.sum_per_km,
    sumSqPerKm: r.sum_sq_per_km,
    outliers: r.outliers,
    histSar: toMap(r.hist_sar),
    histKm: toMap(r.hist_km),
    companies: new Map(),
  };
}

/** Companies with records in a sample, and the largest company's count. */
function companiesOf(s: Sample): { companies: number; top: number } {
  let companies = 0;
  let top = 0;
  for (const v of s.companies.values())
    if (v > 0) {
      companies++;
      top = Math.max(top, v);
    }
  return { companies, top };
}

/**
 * The minimum-sample rule (issue 20): at least RATE_MIN_RECORDS (7) records from at least
 * RATE_MIN_COMPANIES (3) companies, and no company over RATE_MAX_COMPANY_SHARE (40 %) of them —
 * 40 % counted in whole records, rounded to the nearest (docs/rates.md "Minimum sample"): with 7
 * records from 3 companies one company holds at least 3 (43 %), and the issue's own rule says 7
 * from 3 is a figure; so 3 of 7 or 8 passes, 4 of 8 (50 %) does not.
 */
export function enoughSample(records: number, companies: number, topCompanyRecords: number): boolean {
  return records >= RATE_MIN_RECORDS && companies >= RATE_MIN_COMPANIES && topCompanyRecords <= Math.round(RATE_MAX_COMPANY_SHARE * records);
}

const round2 = (x: number) => Math.round(x * 100) / 100;

function figures(n: number, sum: number, sumSq: number, hist: Map<number, number>, b: { base: number; count: number }): RateFigures | null {
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

/** The places a level names: city or region of each end, or null (national). */
function placesAt(level: RateLevel, o: repo.CityRef, d: repo.CityRef) {
  const city = (c: repo.CityRef) => ({ id: c.id, en: c.name_en, ar: c.name_ar });
  const region = (c: repo.CityRef) => ({ id: c.region_id, en: c.region_en, ar: c.region_ar });
  switch (level) {
    case 'city_city':
      return { origin: city(o), destination: city(d) };
    case 'region_city':
      return { origin: region(o), destination: city(d) };
    case 'city_region':
      return { origin: city(o), destination: region(d) };
    case 'region_region':
      return { origin: region(o), destination: region(d) };
    default:
      return { origin: null, destination: null };
  }
}

/** Options of laneDailySeries (the forecast's input). */
export interface LaneSeriesQuery {
  originCityId: number;
  destinationCityId: number;
  /** An equipment code; omitted: every equipment ('*'). */
  equipment?: string | null;
  kind: RateKind;
  /** 'YYYY-MM-DD' (Riyadh days, inclusive). */
  from: string;
  to: string;
}

/**
 * The city → city daily series of a lane for the forecast (issue 20 "Rate forecast"): days with
 * records only, oldest first; `avgSar` = SAR per trip (sum_sar / records), `avgPerKm` = SAR per km
 * weighted by distance (sum_sar / sum_km; null when no km). Outliers and cancelled bookings are
 * not in the aggregates.
 */
export async function laneDailySeries(db: DbOrTx, q: LaneSeriesQuery): Promise<{ day: string; records: number; avgSar: number; avgPerKm: number | null }[]> {
  const rows = await repo.citySeries(db, { ...q, equipment: q.equipment ?? '*' }, q.from, q.to);
  return rows.map((r) => ({
    day: r.day,
    records: r.records,
    avgSar: round2(r.sum_sar / r.records),
    avgPerKm: r.sum_km > 0 ? Math.round((r.sum_sar / r.sum_km) * 10_000) / 10_000 : null,
  }));
}

/** A record to load in bulk (the demo seed): a booking with its lane and company; the outlier flag is decided here. */
export type BulkRateRecord = Omit<repo.RateRecordRow, 'outlier' | 'bookedOn' | 'perKmSar'>;

/**
 * The rates service: the index query (with widening), the 13-month history, the forecast's daily
 * series, the backfill and the bulk load of the demo seed.
 */
export function createRatesService(deps: { db: Db; readDb?: Db }) {
  const { db } = deps;
  const readDb = deps.readDb ?? db;

  async function lanePair(originCityId: number, destinationCityId: number) {
    const cities = await citiesOf(readDb, [originCityId, destinationCityId]);
    const o = cities.get(originCityId);
    const d = cities.get(destinationCityId);
    if (!o || !d) throw new AppError('NOT_FOUND');
    return { o, d };
  }

  return {
    /**
     * GET /rates/lane (issue 20; aliases /spotMarketRate, /laneAnalytics): the figure of a lane ×
     * equipment × kind × window, widening — every geography level at the asked window, narrowest
     * first (city→city, region→city, city→region, region→region, national), then the same at the
     * next longer window — until a sample passes the minimum-sample rule; else `enough: false`.
     * `own`: the viewer's company on the city → city lane in the window used (or asked).
     * NOT_FOUND for an unknown city. Reads only lane_rate_daily (≤ 365 rows per level read).
     */
    async laneRate(viewer: Pick<CurrentUser, 'id'>, q: LaneRateQuery, today = riyadhDay(new Date())): Promise<LaneRate> {
      const { o, d } = await lanePair(q.origin, q.destination);
      const equipment = q.equipment ?? '*';
      const keys = laneKeys({ originCityId: o.id, originRegionId: o.region_id, destinationCityId: d.id, destinationRegionId: d.region_id });
      const windows = RATE_WINDOWS.filter((w) => w >= q.window);
      let found: { level: RateLevel; window: number; s: Sample; companies: number } | null = null;
      search: for (const w of windows) {
        const from = addDays(today, -(w - 1));
        for (const level of RATE_LEVELS) {
          const k = keys.find((x) => x.level === level)!;
          const r = await repo.laneSummary(readDb, { ...k, equipment, kind: q.kind }, from, today, RATE_MIN_RECORDS);
          if (enoughSample(r.records, r.companies, r.top)) {
            found = { level, window: w, s: summarySample(r), companies: r.companies };
            break search;
          }
        }
      }
      const own = await repo.ownOnLane(
        readDb,
        { companyId: viewer.id, originCityId: o.id, destinationCityId: d.id, equipment: q.equipment ?? null, kind: q.kind },
        addDays(today, -((found?.window ?? q.window) - 1)),
      );
      const base = {
        kind: q.kind,
        equipment: q.equipment ?? null,
        windowRequested: q.window,
        own: { average: own.average === null ? null : round2(own.average), records: own.records },
      };
      if (!found) return { ...base, enough: false, geography: null, window: null, perTrip: null, perKm: null, records: 0, companies: 0, outliersExcluded: 0 };
      const { s } = found;
      let kmN = 0;
      for (const v of s.histKm.values()) kmN += v;
      return {
        ...base,
        enough: true,
        geography: { level: found.level, ...placesAt(found.level, o, d) },
        window: found.window,
        perTrip: figures(s.records, s.sumSar, s.sumSqSar, s.histSar, SAR_BUCKETS),
        perKm: figures(kmN, s.sumPerKm, s.sumSqPerKm, s.histKm, KM_BUCKETS),
        records: s.records,
        companies: found.companies,
        outliersExcluded: s.outliers,
      };
    },

    /**
     * GET /rates/lane/history: 13 monthly points of the city → city lane (the current month and the
     * 12 before; Riyadh calendar), each with average, p25, p75 when the month passes the
     * minimum-sample rule (no widening; else null figures), and the viewer's own bookings on the
     * lane in those months (newest first, up to 100).
     */
    async history(viewer: Pick<CurrentUser, 'id'>, q: LaneRateHistoryQuery, today = riyadhDay(new Date())): Promise<LaneRateHistory> {
      const { o, d } = await lanePair(q.origin, q.destination);
      const [y, m] = today.split('-').map(Number);
      const months: string[] = [];
      for (let i = 12; i >= 0; i--) {
        const t = new Date(Date.UTC(y, m - 1 - i, 1));
        months.push(t.toISOString().slice(0, 7));
      }
      const from = `${months[0]}-01`;
      // the monthly rollup: one row per month (the current one to date)
      const rows = await repo.laneMonths(
        readDb,
        { level: 'city_city', originKey: o.id, destinationKey: d.id, equipment: q.equipment ?? '*', kind: q.kind },
        from,
        `${months[12]}-01`,
      );
      const byMonth = new Map<string, repo.DailyRow[]>();
      for (const r of rows) byMonth.set(r.day.slice(0, 7), [r]);
      const points = months.map((month) => {
        const s = sampleOf(byMonth.get(month) ?? []);
        const c = companiesOf(s);
        if (!enoughSample(s.records, c.companies, c.top)) return { month, average: null, p25: null, p75: null, records: s.records };
        const f = figures(s.records, s.sumSar, s.sumSqSar, s.histSar, SAR_BUCKETS)!;
        return { month, average: f.average, p25: f.p25, p75: f.p75, records: s.records };
      });
      const own = await repo.ownBookings(
        readDb,
        { companyId: viewer.id, originCityId: o.id, destinationCityId: d.id, equipment: q.equipment ?? null, kind: q.kind },
        from,
      );
      return { months: points, own: own.map((b) => ({ date: b.day, priceSar: b.price })) };
    },

    /** The forecast's daily series (see laneDailySeries). */
    laneDailySeries: (q: LaneSeriesQuery) => laneDailySeries(readDb, q),

    /**
     * Load many bookings at once (the demo seed; docs/rates.md "Demo history"), in one
     * transaction: records sorted by time, each flagged against the lane's earlier records of the
     * batch (the outlier rule's 90-day baseline, kept in memory), inserted in chunks (existing
     * loads skipped), and their aggregates grouped in the database in one statement (aggregateRecords). Returns how many records
     * were inserted and how many of them are outliers.
     */
    async recordBulk(input: BulkRateRecord[]): Promise<{ inserted: number; outliers: number }> {
      const sorted = [...input].sort((a, b) => a.bookedAt.getTime() - b.bookedAt.getTime());
      const lanes = new Map<string, { day: string; v: number }[]>();
      const rows: repo.RateRecordRow[] = sorted.map((b) => {
        const bookedOn = riyadhDay(b.bookedAt);
        const perKmSar = b.distanceKm > 0 ? Math.round((b.priceSar / b.distanceKm) * 10_000) / 10_000 : null;
        const key = `${b.originCityId}|${b.destinationCityId}|${b.equipment}|${b.kind}`;
        const lane = lanes.get(key) ?? [];
        lanes.set(key, lane);
        const since = addDays(bookedOn, -OUTLIER_BASELINE_DAYS);
        const baseline: number[] = [];
        for (let i = lane.length - 1; i >= 0 && baseline.length < OUTLIER_BASELINE_MAX && lane[i].day >= since; i--) baseline.push(lane[i].v);
        const r = { ...b, bookedOn, perKmSar, outlier: isOutlier(perKmSar, baseline) };
        if (perKmSar !== null) lane.push({ day: bookedOn, v: perKmSar });
        return r;
      });
      return db.transaction(async (tx) => {
        const ids = await repo.insertRecords(tx, rows);
        const kept = rows.filter((r) => ids.has(r.loadId));
        if (kept.length) await repo.aggregateRecords(tx, [...ids]);
        return { inserted: kept.length, outliers: kept.filter((r) => r.outlier).length };
      });
    },

    /** Whether a company has any rate record (the demo seed asks before loading its history again). */
    companyHasRecords: (companyId: string) => repo.companyHasRecords(db, companyId),

    /**
     * Build the index from the outbox's history (bookings before the handler existed): replays
     * RATE_EVENT_TYPES through the handler, skipping events it took. Safe to run again.
     */
    backfill: (batchSize?: number) => replayEvents(db, laneRatesHandler, RATE_EVENT_TYPES, batchSize),
  };
}

export type RatesService = ReturnType<typeof createRatesService>;
