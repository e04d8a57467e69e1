import { RATE_LEVELS, RATE_MIN_RECORDS, RATE_WINDOWS, type LaneRate, type LaneRateQuery, type RateLevel } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { RatesDeps } from '../deps.ts';
import * as repo from '../rates.repository.ts';
import { addDays, enoughSample, figures, KM_BUCKETS, laneKeys, lanePair, riyadhDay, round2, SAR_BUCKETS, type Sample } from '../rates.shared.ts';

export type LaneRateDeps = Pick<RatesDeps, 'readDb'>;

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

/**
 * GET /rates/lane (issue 20; aliases /spotMarketRate, /laneAnalytics): the figure of a lane ×
 * equipment × kind × window, widening — every geography level at the asked window, narrowest
 * first (city→city, region→city, city→region, region→region, national), then the same at the
 * next longer window — until a sample passes the minimum-sample rule; else `enough: false`.
 * `own`: the viewer's company on the city → city lane in the window used (or asked).
 * NOT_FOUND for an unknown city. Reads only lane_rate_daily (≤ 365 rows per level read).
 */
export async function laneRate({ readDb }: LaneRateDeps, viewer: Pick<CurrentUser, 'id'>, q: LaneRateQuery, today = riyadhDay(new Date())): Promise<LaneRate> {
  const { o, d } = await lanePair(readDb, q.origin, q.destination);
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
}
