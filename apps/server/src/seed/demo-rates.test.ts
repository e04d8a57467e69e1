import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { seedDemoAccounts, seedDemoRates } from './demo.ts';
import { generateRateHistory } from '../db/seed/rate-history.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('demo rate history (issue 20)', () => {
  it('is deterministic: the same options give the same bookings', () => {
    const end = new Date('2026-11-20T12:00:00Z');
    const a = generateRateHistory({ end, days: 30 });
    const b = generateRateHistory({ end, days: 30 });
    expect(a).toEqual(b);
    expect(generateRateHistory({ end, days: 30, seed: 7 })).not.toEqual(a);
  });

  it('a year from hundreds of companies: Riyadh → Jeddah shows a figure on its own lane; seeding again loads nothing', async () => {
    const ids = await seedDemoAccounts(t.app.container.services.accounts);
    const started = Date.now();
    const n = await seedDemoRates(t.app.container.services.rates, ids);
    const ms = Date.now() - started;
    expect(n).toBeGreaterThan(6000);
    console.info(`demo rate history: ${n} records in ${ms} ms`);
    expect(await seedDemoRates(t.app.container.services.rates, ids)).toBe(0);

    const [c] = await t.database.query<{ companies: number; days: number; outliers: number }>(
      `select count(distinct company_id)::int as companies, count(distinct booked_on)::int as days, count(*) filter (where outlier)::int as outliers from rate_records`,
    );
    expect(c.companies).toBeGreaterThan(200);
    expect(c.days).toBeGreaterThanOrEqual(360);
    expect(c.outliers).toBeGreaterThan(0);

    const rate = await t.app.container.services.rates.laneRate({ id: ids[1] }, { origin: 3, destination: 18, kind: 'spot', window: 30 });
    expect(rate).toMatchObject({ enough: true, window: 30, geography: { level: 'city_city' } });
    // ≈ 350 + 953 km × 3.4–5.1 SAR/km
    expect(rate.perTrip!.average).toBeGreaterThan(3000);
    expect(rate.perTrip!.average).toBeLessThan(6000);
    const reefer = await t.app.container.services.rates.laneRate(
      { id: ids[1] },
      { origin: 3, destination: 18, equipment: 'reefer_trailer', kind: 'contract', window: 7 },
    );
    expect(reefer.enough).toBe(true);
    const h = await t.app.container.services.rates.history({ id: ids[1] }, { origin: 3, destination: 18, kind: 'spot' });
    expect(h.months.filter((m) => m.average !== null).length).toBeGreaterThanOrEqual(12);
    expect(h.own.length).toBeGreaterThan(0);
  });
});
