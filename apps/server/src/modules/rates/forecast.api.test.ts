import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateForecast } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { apiCaller } from '../../../test/fixtures.ts';
import { syntheticLane } from './forecast.ts';
import { publicationEnd } from './disclosure.ts';
import { daysAgo, seedLaneDays, TODAY } from './forecast.testkit.ts';

// GET /api/v1/rates/forecast (issue 20 "Rate forecast"): public, rate limited, a fitted forecast
// per lane from lane_rate_daily (rows inserted here as the rates index would). PGlite and PostgreSQL.

const RIYADH = 3;
const JEDDAH = 18;
const DAMMAM = 13;
const MAKKAH = 6;

let t: TestContext;
const { call, ok } = apiCaller(() => t);
/** The national rows' companies: other lanes' (the national series is seeded apart from the lanes). */
const NATIONAL_COMPANIES = ['00000000-0000-4000-8000-00000000d001', '00000000-0000-4000-8000-00000000d002', '00000000-0000-4000-8000-00000000d003'];
const weekStart = (end: string) => new Date(Date.parse(`${end}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
const get = (qs: string, headers: Record<string, string> = {}) => call<RateForecast>('GET', `/rates/forecast?${qs}`, headers);

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  const yesterday = daysAgo(1);
  // Riyadh → Jeddah: 150 days of history with a weekly pattern, a tenth of the days without bookings
  await seedLaneDays(t, { origin: RIYADH, destination: JEDDAH }, syntheticLane({ lastDay: yesterday, days: 150, missingShare: 0.1, seed: 7 }));
  // Riyadh → Dammam: nine days only, to the last publication week's end — that week and two days of the one before; the national series (every lane) has half a year
  await seedLaneDays(t, { origin: RIYADH, destination: DAMMAM }, syntheticLane({ lastDay: publicationEnd(TODAY()), days: 9, base: 1800, seed: 8 }));
  await seedLaneDays(
    t,
    { level: 'national', origin: 0, destination: 0, companies: NATIONAL_COMPANIES },
    syntheticLane({ lastDay: yesterday, days: 180, base: 2000, seed: 9 }),
  );
});
afterAll(() => t?.close());

describe('GET /rates/forecast', () => {
  it('answers MSTL + AutoETS for a lane with months of history: 8 days from today, 12 weeks, an 80 % band, 26 published weeks of history and its own measured error', async () => {
    const f = ok(await get(`origin=${RIYADH}&destination=${JEDDAH}`, { language: 'ar' }));
    expect(f.origin).toMatchObject({ id: RIYADH, nameEn: 'Riyadh' });
    expect(f.destination.nameAr).toBe('جدة');
    expect(f).toMatchObject({ model: 'mstl_ets', kind: 'spot', equipment: null, bandLevel: 0.8, asOf: publicationEnd(TODAY()) });
    expect(f.daily).toHaveLength(8);
    expect(f.daily[0].date).toBe(daysAgo(0));
    expect(f.weekly).toHaveLength(12);
    for (const p of [...f.daily, ...f.weekly]) expect(p.low <= p.value && p.value <= p.high).toBe(true);
    // weekly points (issue 46): the publication weeks of the last 26 that pass the rule (150 days: 21 whole weeks)
    expect(f.history.length).toBeGreaterThanOrEqual(20);
    expect(f.history.length).toBeLessThanOrEqual(22);
    expect(f.history.at(-1)!.date).toBe(weekStart(publicationEnd(TODAY())));
    for (const h of f.history) expect(h.records).toBeGreaterThanOrEqual(7);
    expect(f.measuredError).toMatchObject({ scope: 'lane', backtestWeeks: 12 });
    expect(f.measuredError!.maePct).toBeGreaterThan(0);
    expect(f.measuredError!.maePct).toBeLessThan(15);
    expect(f.measuredError!.bandCoverage).toBeGreaterThan(0.5);
  });

  it('a lane with one published week has no forecast, and its thin week before is not in the history (issue 46)', async () => {
    // Riyadh → Dammam: one whole publication week (21 records) and two days of the week before (6 records: suppressed)
    const f = ok(await get(`origin=${RIYADH}&destination=${DAMMAM}&kind=spot`));
    expect(f.model).toBe('not_enough_data');
    expect(f.history).toHaveLength(1);
    expect(f.history[0]).toMatchObject({ date: weekStart(publicationEnd(TODAY())), records: 21 });
    const none = ok(await get(`origin=${RIYADH}&destination=${MAKKAH}&equipment=flatbed`));
    expect(none).toMatchObject({ model: 'not_enough_data', daily: [], weekly: [], history: [], measuredError: null, equipment: 'flatbed' });
  });

  it('keeps the fitted forecast for the day (new rows of today are not read) and refuses unknown cities', async () => {
    const a = ok(await get(`origin=${RIYADH}&destination=${JEDDAH}`));
    await seedLaneDays(t, { origin: RIYADH, destination: JEDDAH }, [{ day: daysAgo(0), avgSar: 99_999 }]);
    const b = ok(await get(`origin=${RIYADH}&destination=${JEDDAH}`));
    expect(b.daily).toEqual(a.daily);
    const bad = await get(`origin=999999&destination=${JEDDAH}`, { language: 'ar' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_CITY');
    expect((await get(`origin=x&destination=${JEDDAH}`)).status).toBe(400);
  });

  it('is limited per client IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const r = await t.app.inject({ url: `/api/v1/rates/forecast?origin=${RIYADH}&destination=${JEDDAH}`, remoteAddress: '10.9.9.9' });
      statuses.push(r.statusCode);
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});
