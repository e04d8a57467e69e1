/**
 * The rate forecast's backtest figures (issue 20 "Backtested: MAE and band coverage of the model
 * against seasonal-naive"): `npm run bench:forecast`.
 *
 * Source of the lanes:
 * - a database's lane_rate_daily (DATABASE_URL, else the embedded PGlite in DATA_DIR — stop the
 *   server first: one process per data directory): the LANES (default 20) city→city lanes
 *   (equipment '*', spot) with the most days of records in the last year, plus the national series;
 * - SYNTHETIC=1 (or no DATABASE_URL and no DATA_DIR): LANES synthetic lanes (forecast.ts
 *   syntheticLane: trend, a weekly pattern, 2–8 % noise, 0–30 % of days without bookings).
 *
 * Per lane, the rolling-origin backtest of forecast.ts over the last WEEKS (default 12) weeks:
 * one-week-ahead forecasts from each weekly origin, scored on the days that had records —
 * MAE (SAR and % of the mean actual) of the product's model (MSTL + AutoETS from two weeks of
 * history) and of seasonal-naive, and the share of actual days inside each 80 % band. Then the
 * pooled figures and the time to fit one lane (p50/p95). Prints figures; asserts nothing.
 */
import { resolve } from 'node:path';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { backtest, BAND_LEVEL, forecastLane, syntheticLane, type BacktestResult, type DailyObservation } from '../apps/server/src/modules/rates/forecast.ts';
import { riyadhDay } from '../apps/server/src/modules/rates/forecast.service.ts';

const LANES = Number(process.env.LANES ?? 20);
const WEEKS = Number(process.env.WEEKS ?? 12);
const synthetic = process.env.SYNTHETIC === '1' || (!process.env.DATABASE_URL && !process.env.DATA_DIR);
const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = process.env.DATA_DIR ? resolve(process.env.DATA_DIR) : undefined;

const yesterday = (() => {
  const d = new Date(`${riyadhDay(new Date())}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
})();
const yearBefore = (() => {
  const d = new Date(`${yesterday}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 364);
  return d.toISOString().slice(0, 10);
})();

interface Lane {
  name: string;
  obs: DailyObservation[];
}

async function lanesFromDb(): Promise<Lane[]> {
  const database = await openDatabase({ databaseUrl, dataDir, poolMax: 2 });
  try {
    await migrate(database);
    const lanes = await database.query<{ level: string; o: number; d: number; name: string; days: number }>(
      `select l.level, l.origin_key as o, l.destination_key as d, l.days::int as days,
              case when l.level = 'national' then 'national (all lanes)' else coalesce(oc.name_en, l.origin_key::text) || ' → ' || coalesce(dc.name_en, l.destination_key::text) end as name
         from (select level, origin_key, destination_key, count(*) as days from lane_rate_daily
                where level in ('city_city', 'national') and equipment = '*' and kind = 'spot' and records > 0 and day between $1::date and $2::date
                group by level, origin_key, destination_key having count(*) >= 14) l
         left join cities oc on l.level = 'city_city' and oc.id = l.origin_key
         left join cities dc on l.level = 'city_city' and dc.id = l.destination_key
        order by l.level = 'national' desc, l.days desc limit $3`,
      [yearBefore, yesterday, LANES + 1],
    );
    const out: Lane[] = [];
    for (const l of lanes) {
      const rows = await database.query<{ day: string; avg: number }>(
        `select to_char(day, 'YYYY-MM-DD') as day, (sum_sar / records)::float8 as avg from lane_rate_daily
          where level = $1 and origin_key = $2 and destination_key = $3 and equipment = '*' and kind = 'spot' and records > 0
            and day between $4::date and $5::date order by day`,
        [l.level, l.o, l.d, yearBefore, yesterday],
      );
      out.push({ name: `${l.name} (${l.days} d)`, obs: rows.map((r) => ({ day: r.day, avgSar: Number(r.avg) })) });
    }
    return out;
  } finally {
    await database.close();
  }
}

function syntheticLanes(): Lane[] {
  return Array.from({ length: LANES }, (_, i) => {
    const noisePct = 2 + (i % 4) * 2;
    const missingShare = (i % 4) * 0.1;
    const days = [60, 120, 240, 365][i % 4];
    return {
      name: `synthetic #${i + 1} (${days} d, noise ${noisePct} %, ${Math.round(missingShare * 100)} % gaps)`,
      obs: syntheticLane({ lastDay: yesterday, days, base: 1500 + 150 * i, noisePct, missingShare, seed: i + 1 }),
    };
  });
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lanes = synthetic ? syntheticLanes() : await lanesFromDb();
console.log(
  `Rate forecast backtest — ${synthetic ? 'synthetic lanes' : 'lane_rate_daily'}; ${WEEKS} weekly origins, 7-day horizon; band ${BAND_LEVEL * 100} %`,
);
console.log(
  `${pad('lane', 58)} ${pad('weeks', 5)} ${pad('pts', 4)} ${pad('model MAE SAR', 13)} ${pad('model MAE %', 11)} ${pad('naive MAE %', 11)} ${pad('model cover', 11)} ${pad('raw cover', 9)} naive cover`,
);
const pooled = { model: { abs: 0, inside: 0, raw: 0 }, naive: { abs: 0, inside: 0 }, actual: 0, points: 0 };
const missMs: number[] = [];
const cover = (x: number) => `${(x * 100).toFixed(0)} %`;
for (const lane of lanes) {
  // a cache miss of GET /rates/forecast: the backtest (its errors calibrate the band), then the forecast
  const t0 = performance.now();
  const r: BacktestResult | null = backtest(lane.obs, yesterday, WEEKS);
  forecastLane(lane.obs, yesterday, { bandScale: r?.bandScale });
  missMs.push(performance.now() - t0);
  if (!r) {
    console.log(`${pad(lane.name.slice(0, 58), 58)} (too little history to backtest)`);
    continue;
  }
  console.log(
    `${pad(lane.name.slice(0, 58), 58)} ${pad(r.weeks, 5)} ${pad(r.model.points, 4)} ${pad(r.model.maeSar.toFixed(0), 13)} ${pad(r.model.maePct.toFixed(1), 11)} ${pad(r.naive.maePct.toFixed(1), 11)} ${pad(cover(r.model.bandCoverage), 11)} ${pad(cover(r.rawModelCoverage), 9)} ${cover(r.naive.bandCoverage)}`,
  );
  // pooled, weighted by points; the mean actual of the lane is MAE SAR / MAE %
  const meanActual = r.model.maePct > 0 ? (100 * r.model.maeSar) / r.model.maePct : 0;
  pooled.actual += meanActual * r.model.points;
  pooled.points += r.model.points;
  pooled.model.abs += r.model.maeSar * r.model.points;
  pooled.naive.abs += r.naive.maeSar * r.naive.points;
  pooled.model.inside += r.model.bandCoverage * r.model.points;
  pooled.model.raw += r.rawModelCoverage * r.model.points;
  pooled.naive.inside += r.naive.bandCoverage * r.naive.points;
}
if (pooled.points) {
  const p = pooled.points;
  console.log(
    `${pad('ALL (pooled)', 58)} ${pad('', 5)} ${pad(p, 4)} ${pad((pooled.model.abs / p).toFixed(0), 13)} ${pad(((100 * pooled.model.abs) / pooled.actual).toFixed(1), 11)} ${pad(((100 * pooled.naive.abs) / pooled.actual).toFixed(1), 11)} ${pad(cover(pooled.model.inside / p), 11)} ${pad(cover(pooled.model.raw / p), 9)} ${cover(pooled.naive.inside / p)}`,
  );
}
const sorted = [...missMs].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
console.log(
  `backtest + forecast of one lane (a cache miss of GET /rates/forecast): p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms over ${sorted.length} lanes`,
);
console.log("model cover: the calibrated band (out of sample); raw cover: augurs' own MSTL band; naive cover: the seasonal-naive band.");
