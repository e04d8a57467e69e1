import type { RateKind } from '@masar/shared';
import type { RatesDeps } from '../deps.ts';
import * as repo from '../rates.repository.ts';
import { perKmOf, round2 } from '../rates.shared.ts';

export type LaneDailySeriesDeps = Pick<RatesDeps, 'readDb'>;

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
export async function laneDailySeries(
  { readDb }: LaneDailySeriesDeps,
  q: LaneSeriesQuery,
): Promise<{ day: string; records: number; avgSar: number; avgPerKm: number | null }[]> {
  const rows = await repo.citySeries(readDb, { ...q, equipment: q.equipment ?? '*' }, q.from, q.to);
  return rows.map((r) => ({
    day: r.day,
    records: r.records,
    avgSar: round2(r.sum_sar / r.records),
    avgPerKm: perKmOf(r.sum_sar, r.sum_km),
  }));
}
