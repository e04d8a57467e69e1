import type { LaneRateHistory, LaneRateHistoryQuery } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { RatesDeps } from '../deps.ts';
import * as repo from '../rates.repository.ts';
import { disclosureOf, laneCell, publicationEnd, segments } from '../disclosure.ts';
import { readGrid } from '../disclosure.repository.ts';
import { figures, lanePair, riyadhDay, SAR_BUCKETS, type Sample } from '../rates.shared.ts';
import { summarySample } from './lane-rate.ts';

export type LaneRateHistoryDeps = Pick<RatesDeps, 'readDb'>;

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

/**
 * GET /rates/lane/history: 13 monthly points of the city → city lane (the current month and the
 * 12 before; Riyadh calendar), each cut at the last complete publication week (disclosure.ts
 * publicationEnd: the current month's point moves once a week), with average, p25, p75 only when
 * disclosure.ts allows the month (the minimum-sample rule, and no difference with another figure a
 * reader can obtain that fails it; issue 46), else null figures; and the viewer's own bookings on
 * the lane in those months (newest first, up to 100). NOT_FOUND for an unknown city.
 */
export async function laneRateHistory(
  { readDb }: LaneRateHistoryDeps,
  viewer: Pick<CurrentUser, 'id'>,
  q: LaneRateHistoryQuery,
  today = riyadhDay(new Date()),
): Promise<LaneRateHistory> {
  const { o, d } = await lanePair(readDb, q.origin, q.destination);
  const [y, m] = today.split('-').map(Number);
  const months: string[] = [];
  for (let i = 12; i >= 0; i--) {
    const t = new Date(Date.UTC(y, m - 1 - i, 1));
    months.push(t.toISOString().slice(0, 7));
  }
  const from = `${months[0]}-01`;
  const equipment = q.equipment ?? '*';
  const end = publicationEnd(today);
  const gridLane = { originCityId: o.id, originRegionId: o.region_id, destinationCityId: d.id, destinationRegionId: d.region_id, equipment, kind: q.kind };
  const disclosure = disclosureOf(await readGrid(readDb, gridLane, end), { historyMonths: months });
  const key = { level: 'city_city' as const, originKey: o.id, destinationKey: d.id, equipment, kind: q.kind };
  // whole months from the monthly rollup; the month of the publication end summed to that day
  const rows = await repo.laneMonths(readDb, key, from, `${months[12]}-01`);
  const byMonth = new Map<string, repo.DailyRow[]>();
  for (const r of rows) if (r.day.slice(0, 7) < end.slice(0, 7)) byMonth.set(r.day.slice(0, 7), [r]);
  const points = await Promise.all(
    months.map(async (month) => {
      const f = { cell: laneCell(gridLane, 'city_city'), segments: segments.month(month) };
      let records = 0;
      for (const n of disclosure.counts(f).values()) records += n;
      if (!disclosure.allows(f)) return { month, average: null, p25: null, p75: null, records };
      const s = month === end.slice(0, 7) ? summarySample(await repo.laneSummary(readDb, key, `${month}-01`, end, 0)) : sampleOf(byMonth.get(month) ?? []);
      const fig = figures(s.records, s.sumSar, s.sumSqSar, s.histSar, SAR_BUCKETS)!;
      return { month, average: fig.average, p25: fig.p25, p75: fig.p75, records };
    }),
  );
  const own = await repo.ownBookings(
    readDb,
    { companyId: viewer.id, originCityId: o.id, destinationCityId: d.id, equipment: q.equipment ?? null, kind: q.kind },
    from,
  );
  return { months: points, own: own.map((b) => ({ date: b.day, priceSar: b.price })) };
}
