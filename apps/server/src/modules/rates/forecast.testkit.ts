import type { TestContext } from '../../../test/helpers.ts';
import { riyadhDay } from './forecast.service.ts';

/**
 * Test fixtures of the lane rate index for the forecast and alert tests: lane_rate_daily rows
 * written directly (in production the rates index's outbox handler writes them).
 */
export const TODAY = () => riyadhDay(new Date());
/** The Riyadh day `n` days before today, YYYY-MM-DD. */
export const daysAgo = (n: number) => {
  const d = new Date(`${TODAY()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
};

/** Upsert daily aggregates: `records` bookings averaging `avgSar` on each day (sum and sum of squares to match). */
export async function seedLaneDays(
  t: Pick<TestContext, 'database'>,
  lane: { level?: string; origin: number; destination: number; equipment?: string; kind?: 'spot' | 'contract' },
  days: { day: string; avgSar: number; records?: number }[],
) {
  for (const d of days) {
    const n = d.records ?? 3;
    await t.database.query(
      `insert into lane_rate_daily (level, origin_key, destination_key, equipment, kind, day, records, sum_sar, sum_sq_sar, sum_km)
       values ($1, $2, $3, $4, $5, $6::date, $7, $8, $9, $10)
       on conflict (level, origin_key, destination_key, equipment, kind, day)
       do update set records = excluded.records, sum_sar = excluded.sum_sar, sum_sq_sar = excluded.sum_sq_sar, sum_km = excluded.sum_km`,
      [
        lane.level ?? 'city_city',
        lane.origin,
        lane.destination,
        lane.equipment ?? '*',
        lane.kind ?? 'spot',
        d.day,
        n,
        (d.avgSar * n).toFixed(2),
        d.avgSar * d.avgSar * n,
        950 * n,
      ],
    );
  }
}
