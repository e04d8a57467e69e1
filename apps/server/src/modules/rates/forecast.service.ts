import { Worker } from 'node:worker_threads';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { LRUCache } from 'lru-cache';
import type { RateForecast, RateForecastQuery, RateKind } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { cityNamesByIds } from '../reference/reference.service.ts';
import { BAND_LEVEL, MAX_HISTORY_DAYS, backtest, fillDaily, forecastLane, modelFor, type BacktestResult } from './forecast.ts';
import { disclosureOf, laneCell, publicationEnd, segments } from './disclosure.ts';
import { readGrid } from './disclosure.repository.ts';
import * as repo from './forecast.repository.ts';
import { citiesByIds } from './rates.repository.ts';

dayjs.extend(utc);

/** Publication weeks of history the answer shows (the chart's past; issue 46: weekly, last 26 weeks). */
export const HISTORY_WEEKS = 26;
/** Publication weeks the model reads (a year). */
export const INPUT_WEEKS = 52;
/** Weeks of rolling-origin backtest behind `measuredError`. */
export const BACKTEST_WEEKS = 12;
/** A lane backtest with fewer scored holdout days than this falls back to the national series. */
const MIN_BACKTEST_POINTS = 14;

/** The Riyadh calendar day (UTC+3 all year) of an instant, YYYY-MM-DD. */
export const riyadhDay = (at: Date) => dayjs.utc(at).add(3, 'hour').format('YYYY-MM-DD');

/**
 * Runs forecast.ts's `backtest` and `forecastLane` in one worker thread (forecast.worker.ts), so a
 * fit never blocks the event loop; requests queue in the worker, one at a time. The worker is
 * started on first use and unref'd (it never keeps the process alive); if it cannot start or dies,
 * the calls run inline (same functions, same answers) and the next call starts a new worker.
 */
export function createForecastRunner(opts: { inline?: boolean } = {}) {
  let worker: Worker | null = null;
  let seq = 0;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    worker = null;
  };
  function start(): Worker | null {
    if (opts.inline) return null;
    if (worker) return worker;
    try {
      const w = new Worker(new URL('./forecast.worker.ts', import.meta.url));
      w.unref();
      w.on('message', (m: { id: number; result?: unknown; error?: string }) => {
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.result);
      });
      w.on('error', (err) => failAll(err));
      w.on('exit', () => failAll(new Error('forecast worker exited')));
      worker = w;
      return w;
    } catch {
      return null;
    }
  }
  async function call<T>(op: 'backtest' | 'forecast', args: unknown[], inline: () => T): Promise<T> {
    const w = start();
    if (!w) return inline();
    const id = ++seq;
    try {
      return await new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve, reject });
        w.postMessage({ id, op, args });
      });
    } catch {
      // the worker died, or the call failed there: the same call inline (a model error throws again)
      return inline();
    }
  }
  return {
    backtest: (...args: Parameters<typeof backtest>) => call('backtest', args, () => backtest(...args)),
    forecastLane: (...args: Parameters<typeof forecastLane>) => call('forecast', args, () => forecastLane(...args)),
    /** Whether the calls run in the worker thread now (false: inline). */
    inWorker: () => worker !== null,
    async close() {
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}

/** What the forecast service is given (by the container). */
export interface ForecastDeps {
  db: Db;
  readDb?: Db;
  /** City names by id in a language (modules/reference): the lane's names in the answer. */
  cityNames: typeof cityNamesByIds;
  now?: () => Date;
  cacheSize?: number;
  inline?: boolean;
}

/**
 * The lane's publication weeks of the last INPUT_WEEKS that disclosure control allows (disclosure.ts;
 * issue 46), oldest first: each week's start (Sunday), its average in SAR (2 decimals), its records,
 * and `week`, how many weeks before the last complete one (0 = it).
 */
async function publishedWeeks(db: Db, origin: number, destination: number, lane: { equipment: string; kind: RateKind }, asOf: string) {
  const cities = await citiesByIds(db, [origin, destination]);
  const region = (id: number) => cities.find((c) => c.id === id)!.region_id;
  const gridLane = { originCityId: origin, originRegionId: region(origin), destinationCityId: destination, destinationRegionId: region(destination), ...lane };
  const disclosure = disclosureOf(await readGrid(db, gridLane, asOf), { historyWeeks: INPUT_WEEKS });
  const sums = new Map((await repo.laneWeeks(db, { originKey: origin, destinationKey: destination, ...lane }, asOf, INPUT_WEEKS)).map((w) => [w.week, w]));
  const weeks: { weekStart: string; value: number; records: number; week: number }[] = [];
  for (let k = INPUT_WEEKS - 1; k >= 0; k--) {
    const w = sums.get(k);
    if (!w || !disclosure.allows({ cell: laneCell(gridLane, 'city_city'), segments: segments.week(k) })) continue;
    const weekStart = dayjs
      .utc(asOf)
      .subtract(7 * k + 6, 'day')
      .format('YYYY-MM-DD');
    weeks.push({ weekStart, value: Math.round((w.sumSar / w.records) * 100) / 100, records: w.records, week: k });
  }
  return weeks;
}

/**
 * The lane rate forecast (issue 20 "Rate forecast"; spec §2 /rate-forecast): reads the lane's daily
 * averages (lane_rate_daily, city→city, the equipment or '*', spot or contract) up to yesterday in
 * Riyadh, fits the model of forecast.ts and backtests it. A fitted answer is kept in memory per
 * (lane, equipment, kind, day) — an LRU of `cacheSize` entries — since fitting costs CPU and the
 * inputs change at most once a day for the days it reads (today is not read).
 */
export function createForecastService(deps: ForecastDeps) {
  const run = createForecastRunner({ inline: deps.inline });
  const db = deps.readDb ?? deps.db;
  const now = deps.now ?? (() => new Date());
  const cache = new LRUCache<string, Omit<RateForecast, 'origin' | 'destination'>>({ max: deps.cacheSize ?? 500 });

  async function measured(
    lane: Omit<Parameters<typeof repo.laneDays>[1], 'level' | 'originKey' | 'destinationKey'>,
    laneDays: repo.LaneDay[],
    asOf: string,
  ): Promise<{ error: RateForecast['measuredError']; bandScale: number }> {
    const toObs = (rows: repo.LaneDay[]) => rows.map((r) => ({ day: r.day, avgSar: r.avgSar }));
    const pick = (r: BacktestResult | null, scope: 'lane' | 'national') =>
      r && r.model.points >= MIN_BACKTEST_POINTS
        ? {
            error: {
              scope,
              maePct: r.model.maePct,
              maeSar: r.model.maeSar,
              bandCoverage: r.model.bandCoverage,
              backtestWeeks: r.weeks,
              naiveMaePct: r.naive.maePct,
            },
            bandScale: r.bandScale,
          }
        : null;
    const own = pick(await run.backtest(toObs(laneDays), asOf, BACKTEST_WEEKS), 'lane');
    if (own) return own;
    const from = dayjs
      .utc(asOf)
      .subtract(MAX_HISTORY_DAYS - 1, 'day')
      .format('YYYY-MM-DD');
    const national = await repo.laneDays(db, { ...lane, level: 'national', originKey: 0, destinationKey: 0 }, from, asOf);
    return pick(await run.backtest(toObs(national), asOf, BACKTEST_WEEKS), 'national') ?? { error: null, bandScale: 1 };
  }

  return {
    /**
     * The forecast of a city→city lane (GET /rates/forecast). INVALID_CITY (400) for an unknown
     * city. `model` 'not_enough_data' with empty daily/weekly when the lane has under a week of
     * records in the last year (history still shows what there is).
     */
    async forecast(q: RateForecastQuery): Promise<RateForecast> {
      const [en, ar] = await Promise.all([deps.cityNames(db, [q.origin, q.destination], 'en'), deps.cityNames(db, [q.origin, q.destination], 'ar')]);
      if (!en.has(q.origin) || !en.has(q.destination)) throw new AppError('INVALID_CITY');
      const city = (id: number) => ({ id, nameEn: en.get(id)!, nameAr: ar.get(id) ?? en.get(id)! });
      const equipment = q.equipment ? q.equipment : '*';
      const today = riyadhDay(now());
      // the model reads published figures only (disclosure.ts; issue 46): the lane's publication weeks
      // that pass the minimum-sample rule and complementary suppression, each day of a week at the
      // week's average; history up to the last complete week
      const asOf = publicationEnd(today);
      const key = `${q.origin}|${q.destination}|${equipment}|${q.kind}|${today}`;
      let fitted = cache.get(key);
      if (!fitted) {
        const lane = { equipment, kind: q.kind };
        const weeks = await publishedWeeks(db, q.origin, q.destination, lane, asOf);
        const obs = weeks.flatMap((w) =>
          Array.from({ length: 7 }, (_, i) => ({ day: dayjs.utc(w.weekStart).add(i, 'day').format('YYYY-MM-DD'), avgSar: w.value })),
        );
        const filled = fillDaily(obs, asOf);
        const enough = modelFor(filled.values.length, filled.observed.filter(Boolean).length) !== 'not_enough_data';
        // the backtest first: its errors calibrate the band of the forecast (forecast.ts backtest)
        const days = obs.map((o) => ({ day: o.day, records: 0, avgSar: o.avgSar }));
        const m = enough ? await measured(lane, days, asOf) : { error: null, bandScale: 1 };
        const f = await run.forecastLane(obs, asOf, { bandScale: m.bandScale, firstDay: today });
        fitted = {
          equipment: equipment === '*' ? null : equipment,
          kind: q.kind,
          model: f.model,
          bandLevel: BAND_LEVEL,
          asOf,
          history: weeks.filter((w) => w.week < HISTORY_WEEKS).map((w) => ({ date: w.weekStart, value: w.value, records: w.records })),
          daily: f.daily,
          weekly: f.weekly,
          measuredError: f.model === 'not_enough_data' ? null : m.error,
        };
        cache.set(key, fitted);
      }
      return { origin: city(q.origin), destination: city(q.destination), ...fitted };
    },
    /** Forget every cached forecast (tests; after a backfill of lane_rate_daily). */
    clearCache() {
      cache.clear();
    },
    /** Stop the fitting worker (the container's close). */
    close: () => run.close(),
  };
}

export type ForecastService = ReturnType<typeof createForecastService>;
