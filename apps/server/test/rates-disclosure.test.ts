import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, RATE_KINDS, RATE_WINDOWS, type LaneRate, type LaneRateHistory, type RateForecast } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { CITY } from '../src/modules/loads/loads.testkit.ts';
import { passesRule, publicationEnd } from '../src/modules/rates/disclosure.ts';
import { riyadhDay, type BulkRateRecord } from '../src/modules/rates/rates.service.ts';

/**
 * Issue 46 "Disclosure control, as one rule in one place": seeded lanes — thin, barely qualifying
 * (with windows that differ by one booking, the issue's attack), dominated by one company — asked
 * for every lane × kind × equipment × window, their 13-month histories and their forecasts'
 * histories. From the seeded records the test rebuilds the set of records behind every published
 * figure and proves that no figure, and no difference between two overlapping figures, holds
 * fewer than 7 records or 3 companies or a company over 40 %. PGlite and PostgreSQL.
 */
let t: TestContext;
let viewer: TestUser;
const { call, ok } = apiCaller(() => t);
const MAKKAH = 6;
const REGION: Record<number, number> = { [CITY.riyadh]: 1, [CITY.alKharj]: 1, [CITY.jeddah]: 2, [MAKKAH]: 2, [CITY.dammam]: 5 };

interface Rec {
  id: string;
  company: string;
  day: string;
  o: number;
  d: number;
  equipment: string;
  kind: 'spot' | 'contract';
}
const records: Rec[] = [];
const bulk: BulkRateRecord[] = [];
const end = () => publicationEnd(riyadhDay(new Date()));
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** `perCompany[i]` bookings of company i on a lane, in the publication week `week` (0 = the last complete one). */
function seed(o: number, d: number, equipment: string, perCompany: number[], week: number, kind: 'spot' | 'contract' = 'spot', companies?: string[]) {
  perCompany.forEach((n, ci) => {
    const company = companies?.[ci] ?? randomUUID();
    for (let i = 0; i < n; i++) {
      const day = shift(end(), -(7 * week + ((i + ci) % 7)));
      const id = randomUUID();
      records.push({ id, company, day, o, d, equipment, kind });
      bulk.push({
        loadId: id,
        kind,
        source: kind === 'spot' ? 'offer' : 'tender',
        companyId: company,
        carrierId: randomUUID(),
        bookedAt: new Date(`${day}T09:00:00Z`),
        originCityId: o,
        originRegionId: REGION[o],
        destinationCityId: d,
        destinationRegionId: REGION[d],
        equipment,
        loadType: 'ftl',
        distanceKm: 900,
        weightKg: 20_000,
        priceSar: 2000 + 37 * records.length,
      });
    }
  });
}

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  viewer = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  const a = [randomUUID(), randomUUID(), randomUUID()];
  // barely qualifying: Riyadh → Jeddah flatbed, 7 records from 3 companies last week, and one booking five weeks ago
  // (the 30-day and 60-day windows would differ by that one booking)
  seed(CITY.riyadh, CITY.jeddah, 'flatbed', [3, 2, 2], 0, 'spot', a);
  seed(CITY.riyadh, CITY.jeddah, 'flatbed', [1], 5);
  // thin: Dammam → Jeddah, 3 records from 2 companies
  seed(CITY.dammam, CITY.jeddah, 'flatbed', [2, 1], 0);
  seed(CITY.dammam, CITY.jeddah, 'flatbed', [1], 3);
  // dominated by one company: Al Kharj → Jeddah box, 9 records, one company 5 (56 %)
  seed(CITY.alKharj, CITY.jeddah, 'box', [5, 2, 2], 1);
  // around them: Riyadh → Makkah box (qualifying), Riyadh → Jeddah box (one record short of a week's figure)
  seed(CITY.riyadh, MAKKAH, 'box', [3, 3, 3], 2);
  seed(CITY.riyadh, CITY.jeddah, 'box', [2, 2, 2], 0);
  seed(CITY.riyadh, CITY.jeddah, 'box', [1, 1, 1], 1);
  // contract: Riyadh → Jeddah, a qualifying month and a thin week
  seed(CITY.riyadh, CITY.jeddah, 'flatbed', [3, 2, 2], 6, 'contract');
  seed(CITY.riyadh, CITY.jeddah, 'flatbed', [1, 1], 0, 'contract');
  await t.app.container.services.rates.recordBulk(bulk);
});
afterAll(() => t?.close());

/** A published figure and the seeded records behind it. */
interface Published {
  what: string;
  set: Rec[];
}

function rule(set: Rec[]): boolean {
  const by = new Map<string, number>();
  for (const r of set) by.set(r.company, (by.get(r.company) ?? 0) + 1);
  return passesRule(set.length, by.size, Math.max(0, ...by.values()));
}

/** Does record `r` fall in a lane answer's geography? */
function inGeography(r: Rec, g: NonNullable<LaneRate['geography']>): boolean {
  const o = g.origin?.id;
  const d = g.destination?.id;
  switch (g.level) {
    case 'city_city':
      return r.o === o && r.d === d;
    case 'region_city':
      return REGION[r.o] === o && r.d === d;
    case 'city_region':
      return r.o === o && REGION[r.d] === d;
    case 'region_region':
      return REGION[r.o] === o && REGION[r.d] === d;
    default:
      return true;
  }
}

describe('disclosure control (issue 46)', () => {
  it('no published figure, and no difference between two overlapping ones, isolates fewer than 7 records, 3 companies or a company over 40 %', async () => {
    const published: Published[] = [];
    const lanes = [
      [CITY.riyadh, CITY.jeddah],
      [CITY.dammam, CITY.jeddah],
      [CITY.alKharj, CITY.jeddah],
      [CITY.riyadh, MAKKAH],
    ] as const;
    const pubEnd = end();
    for (const [o, d] of lanes)
      for (const kind of RATE_KINDS)
        for (const equipment of [undefined, 'flatbed', 'box']) {
          const lane = { origin: o, destination: d, kind, ...(equipment ? { equipment } : {}) };
          const eqOk = (r: Rec) => r.kind === kind && (!equipment || r.equipment === equipment);
          for (const window of RATE_WINDOWS) {
            const qs = new URLSearchParams(Object.entries({ ...lane, window }).map(([k, v]) => [k, String(v)]));
            const r = ok(await call<LaneRate>('GET', `/rates/lane?${qs}`, viewer.headers));
            if (!r.enough) {
              expect(r).toMatchObject({ code: 'NOT_ENOUGH_DATA', perTrip: null, perKm: null, period: null });
              continue;
            }
            expect(r.period!.to).toBe(pubEnd);
            expect(r.code).toBe(r.geography!.level === 'city_city' ? 'OK' : 'LANE_NOT_ENOUGH_DATA');
            const set = records.filter((x) => eqOk(x) && inGeography(x, r.geography!) && x.day >= r.period!.from && x.day <= r.period!.to);
            expect(set.length, `${qs} records`).toBe(r.records);
            published.push({ what: `lane ${qs} → ${r.geography!.level} ${r.window}`, set });
          }
          const hq = new URLSearchParams(Object.entries(lane).map(([k, v]) => [k, String(v)]));
          const h = ok(await call<LaneRateHistory>('GET', `/rates/lane/history?${hq}`, viewer.headers));
          for (const m of h.months) {
            if (m.average === null) continue;
            const set = records.filter((x) => eqOk(x) && x.o === o && x.d === d && x.day.startsWith(m.month) && x.day <= pubEnd);
            published.push({ what: `history ${hq} ${m.month}`, set });
          }
          const f = ok(await call<RateForecast>('GET', `/rates/forecast?${hq}`, {}));
          for (const p of f.history) {
            const set = records.filter((x) => eqOk(x) && x.o === o && x.d === d && x.day >= p.date && x.day <= shift(p.date, 6));
            expect(set.length, `forecast ${hq} ${p.date}`).toBe(p.records);
            published.push({ what: `forecast ${hq} ${p.date}`, set });
          }
        }
    // the barely qualifying lane is published (the rule does not suppress everything)
    expect(published.some((p) => p.what.startsWith('lane origin=3&destination=18&kind=spot&equipment=flatbed') && p.what.includes('city_city'))).toBe(true);
    for (const p of published) expect(rule(p.set), `${p.what}: ${p.set.length} records`).toBe(true);
    let pairs = 0;
    for (let i = 0; i < published.length; i++)
      for (let j = i + 1; j < published.length; j++) {
        const a = new Set(published[i].set.map((r) => r.id));
        const b = new Set(published[j].set.map((r) => r.id));
        if (![...a].some((id) => b.has(id))) continue; // disjoint: nothing to subtract
        const diff = [...published[i].set.filter((r) => !b.has(r.id)), ...published[j].set.filter((r) => !a.has(r.id))];
        if (diff.length === 0) continue;
        pairs++;
        expect(rule(diff), `${published[i].what} vs ${published[j].what}: differ by ${diff.length} records`).toBe(true);
      }
    expect(pairs).toBeGreaterThan(0);
  });

  it('the thin lane: no figure of its own anywhere, its forecast history empty (it answered one company’s daily price)', async () => {
    const f = ok(await call<RateForecast>('GET', `/rates/forecast?origin=${CITY.dammam}&destination=${CITY.jeddah}&equipment=flatbed`, {}));
    expect(f.history).toEqual([]);
    expect(f.model).toBe('not_enough_data');
    const r = ok(await call<LaneRate>('GET', `/rates/lane?origin=${CITY.dammam}&destination=${CITY.jeddah}&equipment=flatbed&window=365`, viewer.headers));
    expect(r.geography?.level).not.toBe('city_city');
    expect(r.code).not.toBe('OK');
  });
});
