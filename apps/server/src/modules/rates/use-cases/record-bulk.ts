import type { RatesDeps } from '../deps.ts';
import * as repo from '../rates.repository.ts';
import { addDays, isOutlier, OUTLIER_BASELINE_DAYS, OUTLIER_BASELINE_MAX, perKmOf, riyadhDay } from '../rates.shared.ts';

export type RecordBulkDeps = Pick<RatesDeps, 'db'>;

/** A record to load in bulk (the demo seed): a booking with its lane and company; the outlier flag is decided here. */
export type BulkRateRecord = Omit<repo.RateRecordRow, 'outlier' | 'bookedOn' | 'perKmSar'>;

/**
 * Load many bookings at once (the demo seed; docs/rates.md "Demo history"), in one
 * transaction: records sorted by time, each flagged against the lane's earlier records of the
 * batch (the outlier rule's 90-day baseline, kept in memory), inserted in chunks (existing
 * loads skipped), and their aggregates grouped in the database in one statement (aggregateRecords). Returns how many records
 * were inserted and how many of them are outliers.
 */
export async function recordBulk({ db }: RecordBulkDeps, input: BulkRateRecord[]): Promise<{ inserted: number; outliers: number }> {
  const sorted = [...input].sort((a, b) => a.bookedAt.getTime() - b.bookedAt.getTime());
  const lanes = new Map<string, { day: string; v: number }[]>();
  const rows: repo.RateRecordRow[] = sorted.map((b) => {
    const bookedOn = riyadhDay(b.bookedAt);
    const perKmSar = perKmOf(b.priceSar, b.distanceKm);
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
}
