import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { initSync, MSTL } from '@bsull/augurs/mstl';

dayjs.extend(utc);

/*
 * The lane rate forecast (issue 20 "Rate forecast"; spec §2 /rate-forecast). Pure: no database,
 * no clock — the caller passes the daily series and the last day of history.
 *
 * Model: MSTL with a weekly season (period 7) and AutoETS on the seasonally adjusted series
 * (@bsull/augurs 0.10, Rust compiled to WASM), which returns prediction intervals; used when the
 * filled series spans at least two seasons (14 days). Below that — or if the fit fails — the
 * seasonal-naive forecast: the same weekday of the last observed week, with a band from its own
 * past one-week-ahead errors. Too little history (fewer than 7 observed days, or under 8 days
 * from the first to the last) is `not_enough_data`.
 *
 * Gaps: a day without records takes the value of the same weekday one week earlier (the weekly
 * pattern is what the model reads), else the previous day's value (carry forward). Filled days
 * are model input only: the backtest scores forecasts against observed days only.
 */

/** The prediction band's nominal level: 80 % of actual values should fall inside it. */
export const BAND_LEVEL = 0.8;
/** The season: a week of days. */
export const SEASON = 7;
/** Days ahead in the daily forecast (DAT RateCast's 8-day view). */
export const DAILY_HORIZON = 8;
/** Weeks ahead in the weekly forecast. */
export const WEEKLY_HORIZON = 12;
/** MSTL + AutoETS from this many days of (filled) history on: two weekly seasons. */
export const MIN_MSTL_DAYS = 2 * SEASON;
/** Below this many observed days (or a span under SEASON + 1 days) there is no forecast. */
export const MIN_OBSERVED_DAYS = SEASON;
/** Days of history the model reads at most (a year: enough for the weekly season and the trend). */
export const MAX_HISTORY_DAYS = 365;

export type ForecastModel = 'mstl_ets' | 'seasonal_naive' | 'not_enough_data';

/** One observed day of a lane: the Riyadh date and the average SAR per trip of its records. */
export interface DailyObservation {
  /** YYYY-MM-DD (Asia/Riyadh day). */
  day: string;
  avgSar: number;
}
/** A forecast day: point value and the BAND_LEVEL band, SAR per trip. */
export interface DailyForecast {
  date: string;
  value: number;
  low: number;
  high: number;
}
/** A forecast week (7 days from weekStart): the mean of its daily forecasts and bands, SAR per trip. */
export interface WeeklyForecast {
  weekStart: string;
  value: number;
  low: number;
  high: number;
}
export interface LaneForecast {
  model: ForecastModel;
  daily: DailyForecast[];
  weekly: WeeklyForecast[];
}

// ---------------------------------------------------------------------------------------------
// augurs' WASM: compiled once per process, synchronously, from the file shipped in the package
// (the package's async default init fetches a URL, which Node's fetch cannot do for file: URLs).
let wasmReady = false;
function ensureAugurs() {
  if (wasmReady) return;
  const js = createRequire(import.meta.url).resolve('@bsull/augurs/mstl');
  initSync({ module: readFileSync(js.replace(/mstl\.js$/, 'mstl_bg.wasm')) });
  wasmReady = true;
}

const addDays = (day: string, n: number) => dayjs.utc(day).add(n, 'day').format('YYYY-MM-DD');
const daysBetween = (a: string, b: string) => dayjs.utc(b).diff(dayjs.utc(a), 'day');
const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The daily series from the first observed day through `lastDay`, gaps filled (see the module
 * note). Answers `values` (SAR per trip, one per day) and `observed` (true where the day had
 * records). Observations after `lastDay` are ignored; at most MAX_HISTORY_DAYS days are kept.
 */
export function fillDaily(obs: DailyObservation[], lastDay: string): { firstDay: string; values: number[]; observed: boolean[] } {
  const usable = obs.filter((o) => o.day <= lastDay && Number.isFinite(o.avgSar)).sort((a, b) => (a.day < b.day ? -1 : 1));
  if (!usable.length) return { firstDay: lastDay, values: [], observed: [] };
  let firstDay = usable[0].day;
  if (daysBetween(firstDay, lastDay) + 1 > MAX_HISTORY_DAYS) firstDay = addDays(lastDay, -(MAX_HISTORY_DAYS - 1));
  const n = daysBetween(firstDay, lastDay) + 1;
  const values = new Array<number>(n).fill(NaN);
  const observed = new Array<boolean>(n).fill(false);
  for (const o of usable) {
    const i = daysBetween(firstDay, o.day);
    if (i >= 0 && i < n) {
      values[i] = o.avgSar;
      observed[i] = true;
    }
  }
  // a leading gap (history cut at MAX_HISTORY_DAYS) takes the first observed value
  const firstObs = observed.indexOf(true);
  for (let i = 0; i < n; i++) {
    if (observed[i]) continue;
    if (i >= SEASON) values[i] = values[i - SEASON];
    else values[i] = i > 0 && !Number.isNaN(values[i - 1]) ? values[i - 1] : values[firstObs];
  }
  return { firstDay, values, observed };
}

/** The q-quantile (0..1) of `xs` by linear interpolation; NaN for an empty list. */
function quantile(xs: number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/**
 * Seasonal-naive forecast of `horizon` days after `values` (filled daily series): day h repeats the
 * same weekday of the last week. The band: the empirical (1−level)/2 and (1+level)/2 quantiles of
 * the series' own one-week-ahead errors y[t] − y[t−7], widened by √k for a day k weeks ahead
 * (the seasonal-naive error variance grows with the number of seasons ahead; Hyndman & Athanasopoulos,
 * FPP3 §5.5). Needs at least SEASON + 1 values.
 */
export function seasonalNaive(values: number[], horizon: number, level = BAND_LEVEL): { point: number[]; lower: number[]; upper: number[] } {
  const n = values.length;
  if (n < SEASON + 1) throw new Error('seasonalNaive: needs at least 8 days');
  const errors: number[] = [];
  for (let t = SEASON; t < n; t++) errors.push(values[t] - values[t - SEASON]);
  const qLo = quantile(errors, (1 - level) / 2);
  const qHi = quantile(errors, (1 + level) / 2);
  const point: number[] = [];
  const lower: number[] = [];
  const upper: number[] = [];
  for (let h = 1; h <= horizon; h++) {
    const k = Math.ceil(h / SEASON);
    const v = values[n - 1 + h - k * SEASON];
    const widen = Math.sqrt(k);
    point.push(v);
    lower.push(v + Math.min(0, qLo) * widen);
    upper.push(v + Math.max(0, qHi) * widen);
  }
  return { point, lower, upper };
}

/** MSTL (weekly) + AutoETS forecast with its BAND_LEVEL intervals; throws when augurs cannot fit. */
export function mstlEts(values: number[], horizon: number, level = BAND_LEVEL): { point: number[]; lower: number[]; upper: number[] } {
  ensureAugurs();
  const model = MSTL.ets([SEASON]);
  try {
    model.fit(values);
    const f = model.predict(horizon, level);
    if (!f.intervals || f.point.some((v) => !Number.isFinite(v))) throw new Error('mstlEts: no intervals');
    return { point: f.point, lower: f.intervals.lower, upper: f.intervals.upper };
  } finally {
    model.free();
  }
}

/** Which model a filled series of `days` days (with `observedDays` observed) gets. */
export function modelFor(days: number, observedDays: number): ForecastModel {
  if (observedDays < MIN_OBSERVED_DAYS || days < SEASON + 1) return 'not_enough_data';
  return days >= MIN_MSTL_DAYS ? 'mstl_ets' : 'seasonal_naive';
}

/**
 * Forecast `horizon` days after a filled series with the model its length allows (MSTL + AutoETS
 * falling back to seasonal-naive when the fit fails). Prices are never negative: bounds are
 * clamped at 0. Answers the model actually used.
 */
export function forecastValues(
  values: number[],
  observedDays: number,
  horizon: number,
  opts: { model?: 'auto' | 'seasonal_naive' } = {},
): { model: ForecastModel; point: number[]; lower: number[]; upper: number[] } {
  let model = modelFor(values.length, observedDays);
  if (model === 'not_enough_data') return { model, point: [], lower: [], upper: [] };
  if (opts.model === 'seasonal_naive') model = 'seasonal_naive';
  let out: { point: number[]; lower: number[]; upper: number[] } | null = null;
  if (model === 'mstl_ets') {
    try {
      out = mstlEts(values, horizon);
    } catch {
      model = 'seasonal_naive';
    }
  }
  out ??= seasonalNaive(values, horizon);
  const clamp = (v: number) => Math.max(0, v);
  return {
    model,
    point: out.point.map(clamp),
    lower: out.lower.map((v, i) => clamp(Math.min(v, out.point[i]))),
    upper: out.upper.map((v, i) => clamp(Math.max(v, out.point[i]))),
  };
}

/** The band's half-widths multiplied by `k` around the point (bounds clamped at 0). */
function scaleBand<T extends { point: number[]; lower: number[]; upper: number[] }>(f: T, k: number): T {
  return {
    ...f,
    lower: f.lower.map((v, i) => Math.max(0, f.point[i] - k * (f.point[i] - v))),
    upper: f.upper.map((v, i) => f.point[i] + k * (v - f.point[i])),
  };
}

/**
 * How far outside its band an actual value fell, in band half-widths on its side: ≤ 1 inside,
 * > 1 outside. Null when that half-width is 0 (nothing to scale).
 */
function bandRatio(y: number, point: number, lower: number, upper: number): number | null {
  const half = y >= point ? upper - point : point - lower;
  if (!(half > 0)) return null;
  return Math.abs(y - point) / half;
}

/** The factor that makes a band cover BAND_LEVEL of past errors: their BAND_LEVEL quantile, within [0.5, 4]. */
const calibration = (ratios: number[]) => Math.min(4, Math.max(0.5, quantile(ratios, BAND_LEVEL)));
/** Fewer normalised errors than this: no calibration (factor 1). */
const MIN_CALIBRATION_POINTS = 7;

/**
 * The lane forecast after `lastDay` (the last complete day of history, YYYY-MM-DD): `daily` =
 * the DAILY_HORIZON days from lastDay + 1, `weekly` = WEEKLY_HORIZON weeks from lastDay + 1, each
 * the mean of its 7 daily forecasts, with the mean of their bounds as its band (exact for errors
 * that move together within a week, wider than needed otherwise — a conservative weekly band).
 * Values in SAR per trip, rounded to halalas. `not_enough_data` answers empty lists.
 * `bandScale`: the calibration of the MSTL band from the lane's own backtest errors
 * (BacktestResult.bandScale); the seasonal-naive band is empirical already and is not scaled.
 */
export function forecastLane(
  obs: DailyObservation[],
  lastDay: string,
  opts: { model?: 'auto' | 'seasonal_naive'; bandScale?: number; firstDay?: string } = {},
): LaneForecast {
  const { values, observed } = fillDaily(obs, lastDay);
  const observedDays = observed.filter(Boolean).length;
  // `firstDay` (default lastDay + 1): the answer starts there; the days between are forecast and dropped
  const skip = opts.firstDay ? Math.max(0, daysBetween(lastDay, opts.firstDay) - 1) : 0;
  const horizon = WEEKLY_HORIZON * SEASON + skip;
  const raw = forecastValues(values, observedDays, horizon, opts);
  if (raw.model === 'not_enough_data') return { model: raw.model, daily: [], weekly: [] };
  const f = raw.model === 'mstl_ets' && opts.bandScale ? scaleBand(raw, opts.bandScale) : raw;
  const daily: DailyForecast[] = f.point.slice(skip).map((v, i) => ({
    date: addDays(lastDay, skip + i + 1),
    value: round2(v),
    low: round2(f.lower[skip + i]),
    high: round2(f.upper[skip + i]),
  }));
  const weekly: WeeklyForecast[] = [];
  for (let w = 0; w < WEEKLY_HORIZON; w++) {
    const days = daily.slice(w * SEASON, (w + 1) * SEASON);
    const mean = (pick: (d: DailyForecast) => number) => round2(days.reduce((s, d) => s + pick(d), 0) / days.length);
    weekly.push({ weekStart: days[0].date, value: mean((d) => d.value), low: mean((d) => d.low), high: mean((d) => d.high) });
  }
  return { model: f.model, daily: daily.slice(0, DAILY_HORIZON), weekly };
}

/** One model's backtest score. */
export interface BacktestScore {
  /** Mean absolute error, SAR per trip, over the scored (observed) holdout days. */
  maeSar: number;
  /** MAE as a percentage of the mean actual value of those days (weighted absolute percentage error). */
  maePct: number;
  /** Share (0..1) of holdout days whose actual value fell inside the band. */
  bandCoverage: number;
  /** Holdout days scored. */
  points: number;
}
export interface BacktestResult {
  /** Forecast origins (weeks) that could be scored. */
  weeks: number;
  /** The product's model (MSTL + AutoETS where the history allows, as forecastLane chooses). */
  model: BacktestScore;
  /** The seasonal-naive baseline on the same holdout days. */
  naive: BacktestScore;
  /** The share of holdout days inside augurs' own (uncalibrated) MSTL band, for comparison. */
  rawModelCoverage: number;
  /**
   * The factor on the MSTL band's half-widths that makes it cover BAND_LEVEL of this backtest's
   * errors (1 when fewer than 7 MSTL-scored days): pass it to forecastLane as `bandScale`.
   */
  bandScale: number;
}

/**
 * Rolling-origin backtest over the last `weeks` weeks of a series ending at `lastDay`: for each
 * origin o = lastDay − 7w (w = weeks … 1) fit on the history up to o only, forecast the 7 days
 * after it, and score against the days that had records (filled days are not scored). The same
 * holdout days score the model and seasonal-naive. Origins with too little history are skipped;
 * `weeks` in the answer counts the scored ones. Null when none could be scored.
 *
 * The MSTL band is calibrated on the model's own past errors (RateCast's "band from the model's
 * own past errors"): augurs' interval leaves out the uncertainty of the estimated weekly season
 * and gap filling smooths the series, so it is too narrow. At each origin the band is scaled by
 * the BAND_LEVEL quantile of the earlier origins' errors measured in band half-widths (none
 * before 7 of them), so `model.bandCoverage` is out of sample: no origin's band saw its own days.
 */
export function backtest(obs: DailyObservation[], lastDay: string, weeks = 12): BacktestResult | null {
  const { values, observed } = fillDaily(obs, lastDay);
  const acc = { model: { abs: 0, inside: 0, rawInside: 0 }, naive: { abs: 0, inside: 0 }, actual: 0, points: 0 };
  // normalised errors of the MSTL bands of the origins scored so far (chronological)
  const ratios: number[] = [];
  let scoredWeeks = 0;
  for (let w = weeks; w >= 1; w--) {
    const cut = values.length - w * SEASON; // history = values[0, cut)
    if (cut < SEASON + 1) continue;
    const history = values.slice(0, cut);
    const observedDays = observed.slice(0, cut).filter(Boolean).length;
    const m = forecastValues(history, observedDays, SEASON);
    if (m.model === 'not_enough_data') continue;
    const nv = forecastValues(history, observedDays, SEASON, { model: 'seasonal_naive' });
    // the band as the product would have shown it then: calibrated on the earlier origins only
    const k = m.model === 'mstl_ets' && ratios.length >= MIN_CALIBRATION_POINTS ? calibration(ratios) : 1;
    const shown = scaleBand(m, k);
    const fresh: number[] = [];
    let scored = 0;
    for (let h = 0; h < SEASON; h++) {
      const i = cut + h;
      if (!observed[i]) continue;
      const y = values[i];
      scored++;
      acc.points++;
      acc.actual += y;
      acc.model.abs += Math.abs(y - m.point[h]);
      acc.naive.abs += Math.abs(y - nv.point[h]);
      if (y >= shown.lower[h] && y <= shown.upper[h]) acc.model.inside++;
      if (y >= m.lower[h] && y <= m.upper[h]) acc.model.rawInside++;
      if (y >= nv.lower[h] && y <= nv.upper[h]) acc.naive.inside++;
      const r = m.model === 'mstl_ets' ? bandRatio(y, m.point[h], m.lower[h], m.upper[h]) : null;
      if (r != null) fresh.push(r);
    }
    ratios.push(...fresh);
    if (scored) scoredWeeks++;
  }
  if (!acc.points) return null;
  const share = (n: number) => Math.round((1000 * n) / acc.points) / 1000;
  const score = (s: { abs: number; inside: number }): BacktestScore => ({
    maeSar: round2(s.abs / acc.points),
    maePct: round2((100 * s.abs) / acc.actual),
    bandCoverage: share(s.inside),
    points: acc.points,
  });
  return {
    weeks: scoredWeeks,
    model: score(acc.model),
    naive: score(acc.naive),
    rawModelCoverage: share(acc.model.rawInside),
    bandScale: ratios.length >= MIN_CALIBRATION_POINTS ? Math.round(calibration(ratios) * 1000) / 1000 : 1,
  };
}

/**
 * A synthetic lane for tests and the bench without a database: `days` daily averages ending at
 * `lastDay` — a base rate with a slow trend, a weekly pattern (Friday low, Sunday high) and
 * Gaussian noise of `noisePct` % of the base, from a seeded generator (same seed, same series);
 * `missingShare` of the days dropped at random.
 */
export function syntheticLane(opts: {
  lastDay: string;
  days: number;
  base?: number;
  noisePct?: number;
  missingShare?: number;
  seed?: number;
}): DailyObservation[] {
  const { lastDay, days, base = 2400, noisePct = 4, missingShare = 0, seed = 1 } = opts;
  let s = seed >>> 0 || 1;
  const rnd = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  // weekday factors, Sunday (0) … Saturday (6): the Saudi week starts on Sunday, Friday is quiet
  const weekly = [1.08, 1.05, 1.02, 1.0, 0.98, 0.88, 0.97];
  const out: DailyObservation[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = addDays(lastDay, -i);
    const t = days - 1 - i;
    const v = base * (1 + 0.0004 * t) * weekly[dayjs.utc(day).day()] + gauss() * base * (noisePct / 100);
    if (rnd() < missingShare) continue;
    out.push({ day, avgSar: round2(v) });
  }
  return out;
}
