import { RATE_LEVELS, RATE_MIN_RECORDS, RATE_WINDOWS, type LaneRate, type LaneRateQuery, type RateLevel, type RateWindow } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { RatesDeps } from '../deps.ts';
import * as repo from '../rates.repository.ts';
import { disclosureOf, laneCell, publicationEnd, segments, WINDOW_WEEKS, windowPeriod } from '../disclosure.ts';
import { readGrid } from '../disclosure.repository.ts';
import { figures, KM_BUCKETS, laneKeys, lanePair, riyadhDay, round2, SAR_BUCKETS, type Sample } from '../rates.shared.ts';

export type LaneRateDeps = Pick<RatesDeps, 'readDb'>;

/** A summary summed in the database as a Sample (its company map is not needed: the counts come with it). */
export function summarySample(r: repo.LaneSummaryRow): Sample {
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
 * next longer window — until a figure may be published (disclosure.ts: the minimum-sample rule
 * and complementary suppression, issue 46); else `enough: false`, code NOT_ENOUGH_DATA. Windows
 * are whole Sunday–Saturday weeks ending with the last complete week (WINDOW_WEEKS; `period`).
 * `code` LANE_NOT_ENOUGH_DATA when the figure is of a wider geography than the city → city lane.
 * `own`: the viewer's company on the city → city lane in the period used (or asked). NOT_FOUND for
 * an unknown city.
 */
export async function laneRate({ readDb }: LaneRateDeps, viewer: Pick<CurrentUser, 'id'>, q: LaneRateQuery, today = riyadhDay(new Date())): Promise<LaneRate> {
  const { o, d } = await lanePair(readDb, q.origin, q.destination);
  const equipment = q.equipment ?? '*';
  const keys = laneKeys({ originCityId: o.id, originRegionId: o.region_id, destinationCityId: d.id, destinationRegionId: d.region_id });
  const end = publicationEnd(today);
  const gridLane = { originCityId: o.id, originRegionId: o.region_id, destinationCityId: d.id, destinationRegionId: d.region_id, equipment, kind: q.kind };
  const disclosure = disclosureOf(await readGrid(readDb, gridLane, end));
  const windows = RATE_WINDOWS.filter((w) => w >= q.window);
  let found: { level: RateLevel; window: RateWindow; s: Sample; companies: number; period: { from: string; to: string } } | null = null;
  search: for (const w of windows) {
    for (const level of RATE_LEVELS) {
      if (!disclosure.allows({ cell: laneCell(gridLane, level), segments: segments.window(WINDOW_WEEKS[w]) })) continue;
      const period = windowPeriod(end, WINDOW_WEEKS[w]);
      const k = keys.find((x) => x.level === level)!;
      const r = await repo.laneSummary(readDb, { ...k, equipment, kind: q.kind }, period.from, period.to, RATE_MIN_RECORDS);
      found = { level, window: w, s: summarySample(r), companies: r.companies, period };
      break search;
    }
  }
  const own = await repo.ownOnLane(
    readDb,
    { companyId: viewer.id, originCityId: o.id, destinationCityId: d.id, equipment: q.equipment ?? null, kind: q.kind },
    found?.period.from ?? windowPeriod(end, WINDOW_WEEKS[q.window as RateWindow]).from,
  );
  const base = {
    kind: q.kind,
    equipment: q.equipment ?? null,
    windowRequested: q.window,
    own: { average: own.average === null ? null : round2(own.average), records: own.records },
  };
  if (!found)
    return {
      ...base,
      enough: false,
      code: 'NOT_ENOUGH_DATA',
      period: null,
      geography: null,
      window: null,
      perTrip: null,
      perKm: null,
      records: 0,
      companies: 0,
      outliersExcluded: 0,
    };
  const { s } = found;
  let kmN = 0;
  for (const v of s.histKm.values()) kmN += v;
  return {
    ...base,
    enough: true,
    code: found.level === 'city_city' ? 'OK' : 'LANE_NOT_ENOUGH_DATA',
    period: found.period,
    geography: { level: found.level, ...placesAt(found.level, o, d) },
    window: found.window,
    perTrip: figures(s.records, s.sumSar, s.sumSqSar, s.histSar, SAR_BUCKETS),
    perKm: figures(kmN, s.sumPerKm, s.sumSqPerKm, s.histKm, KM_BUCKETS),
    records: s.records,
    companies: found.companies,
    outliersExcluded: s.outliers,
  };
}
