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

/** The three companies the seeded days' records come from (round robin), so that weeks pass the minimum-sample rule (disclosure.ts). */
export const SEED_COMPANIES = ['00000000-0000-4000-8000-00000000c001', '00000000-0000-4000-8000-00000000c002', '00000000-0000-4000-8000-00000000c003'];

/**
 * Upsert daily aggregates: `records` bookings averaging `avgSar` on each day (sum and sum of
 * squares to match), spread over `lane.companies` (default SEED_COMPANIES; or the day's `companies`)
 * one record each in turn. A national or region row that should not hold the lane's records takes
 * other companies (the grid of disclosure.ts treats a level as the sum of the ones inside it).
 */
export async function seedLaneDays(
  t: Pick<TestContext, 'database'>,
  lane: { level?: string; origin: number; destination: number; equipment?: string; kind?: 'spot' | 'contract'; companies?: string[] },
  days: { day: string; avgSar: number; records?: number; companies?: Record<string, number> }[],
) {
  for (const d of days) {
    const n = d.records ?? 3;
    const companies: Record<string, number> = d.companies ?? {};
    const ids = lane.companies ?? SEED_COMPANIES;
    // round robin continued from day to day (a day of one record is not always the same company's)
    const first = Math.floor(Date.parse(`${d.day}T00:00:00Z`) / 86_400_000);
    if (!d.companies) for (let i = 0; i < n; i++) companies[ids[(first + i) % ids.length]] = (companies[ids[(first + i) % ids.length]] ?? 0) + 1;
    await t.database.query(
      `insert into lane_rate_daily (level, origin_key, destination_key, equipment, kind, day, records, sum_sar, sum_sq_sar, sum_km, companies)
       values ($1, $2, $3, $4, $5, $6::date, $7, $8, $9, $10, $11::jsonb)
       on conflict (level, origin_key, destination_key, equipment, kind, day)
       do update set records = excluded.records, sum_sar = excluded.sum_sar, sum_sq_sar = excluded.sum_sq_sar, sum_km = excluded.sum_km,
                     companies = excluded.companies`,
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
        JSON.stringify(companies),
      ],
    );
  }
}
