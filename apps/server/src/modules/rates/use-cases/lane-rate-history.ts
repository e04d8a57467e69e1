import type { LaneRateHistory, LaneRateHistoryQuery } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { RatesDeps } from '../deps.ts';
import * as repo from '../rates.repository.ts';
import { enoughSample, figures, lanePair, riyadhDay, SAR_BUCKETS, type Sample } from '../rates.shared.ts';

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
 * GET /rates/lane/history: 13 monthly points of the city → city lane (the current month and the
 * 12 before; Riyadh calendar), each with average, p25, p75 when the month passes the
 * minimum-sample rule (no widening; else null figures), and the viewer's own bookings on the
 * lane in those months (newest first, up to 100). NOT_FOUND for an unknown city.
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
}
