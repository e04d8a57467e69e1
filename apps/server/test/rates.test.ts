import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type LaneRate, type LaneRateHistory } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { bookedLoad } from '../src/modules/assignment/assignment.testkit.ts';
import { CITY, loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import type { OutboxEvent } from '../src/modules/events/events.service.ts';
import { rateFactsOf, type RateFacts } from '../src/modules/loads/loads.service.ts';
import { publicationEnd } from '../src/modules/rates/disclosure.ts';
import {
  addDays,
  applyRateEvent,
  bucketOf,
  enoughSample,
  KM_BUCKETS,
  laneRatesHandler as laneRatesHandlerOf,
  quantileOf,
  riyadhDay,
  SAR_BUCKETS,
  type BulkRateRecord,
} from '../src/modules/rates/rates.service.ts';

// the handler as the container wires it: a booked load's rate facts through the loads module
const laneRatesHandler = laneRatesHandlerOf({ rateFactsOf });

/**
 * Issue 20 "The lane rate index" (docs/rates.md): rate records from bookings through the offers
 * lifecycle, cancellations taking them out, redelivery counting once, the outlier rule, the
 * minimum-sample rule exactly as the issue lists it, the widening order and the viewer's own
 * average. Each scenario uses its own equipment code so that no other scenario's records reach
 * any of its geography levels.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
const { call, ok } = apiCaller(() => t);
const MAKKAH = 6;

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const drain = () => t.app.container.services.events.drainAll();
const rates = () => t.app.container.services.rates;
const today = () => riyadhDay(new Date());
const lane = async (q: Record<string, string | number>, who = shipper) =>
  ok(await call<LaneRate>('GET', `/rates/lane?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, who.headers));

/** The last day published (disclosure.ts publicationEnd): windows are whole weeks ending there (issue 46). */
const pubEnd = () => publicationEnd(today());
/** `n` bookings per company on a lane, `daysAgo` days back counting the publication end as day 1, priced around `sar` (±5 %), 500 km. */
function bookings(
  o: { from: number; fromRegion: number; to: number; toRegion: number; equipment: string; kind?: 'spot' | 'contract' },
  perCompany: number[],
  opts: { daysAgo?: number; sar?: number; companies?: string[] } = {},
): BulkRateRecord[] {
  const out: BulkRateRecord[] = [];
  // noon in Riyadh (09:00 UTC) of the publication end, `daysAgo − 1` days back
  const at = new Date(Date.parse(`${pubEnd()}T09:00:00Z`) - ((opts.daysAgo ?? 1) - 1) * 86_400_000);
  perCompany.forEach((n, ci) => {
    const companyId = opts.companies?.[ci] ?? randomUUID();
    for (let i = 0; i < n; i++) {
      const price = (opts.sar ?? 3000) * (0.95 + ((i * 7 + ci * 3) % 11) / 100);
      out.push({
        loadId: randomUUID(),
        kind: o.kind ?? 'spot',
        source: 'offer',
        companyId,
        carrierId: randomUUID(),
        bookedAt: at,
        originCityId: o.from,
        originRegionId: o.fromRegion,
        destinationCityId: o.to,
        destinationRegionId: o.toRegion,
        equipment: o.equipment,
        loadType: 'ftl',
        distanceKm: 500,
        weightKg: 20_000,
        priceSar: Math.round(price),
      });
    }
  });
  return out;
}
const RUH_JED = { from: CITY.riyadh, fromRegion: 1, to: CITY.jeddah, toRegion: 2 };

describe('rate records from booking events (issue 20)', () => {
  it('an accepted offer is a spot record; a redelivered event counts once; a cancellation takes it out once', async () => {
    const load = await bookedLoad(t.app, shipper.headers, carrier.headers, loadBody({ equipmentType: 'reefer_trailer' }));
    await drain();
    const rows = await t.database.query<Record<string, unknown>>(
      `select kind, source, company_id, carrier_id, price_sar::float8 as price, per_km_sar::float8 as per_km, equipment, load_type, outlier, cancelled_at,
              origin_city_id, destination_city_id, origin_region_id, destination_region_id
       from rate_records where load_id = $1`,
      [load.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'spot',
      source: 'offer',
      company_id: shipper.id,
      carrier_id: carrier.id,
      price: 2800,
      equipment: 'reefer_trailer',
      load_type: 'ftl',
      outlier: false,
      cancelled_at: null,
      origin_city_id: CITY.riyadh,
      destination_city_id: CITY.jeddah,
      origin_region_id: 1,
      destination_region_id: 2,
    });
    expect(rows[0].per_km as number).toBeCloseTo(2800 / Number(load.distanceKm), 3);

    const daily = async () =>
      (
        await t.database.query<{ records: number; sum: number }>(
          `select sum(records)::int as records, sum(sum_sar)::float8 as sum from lane_rate_daily where equipment = 'reefer_trailer' and kind = 'spot' group by level order by level`,
        )
      ).map((r) => [r.records, r.sum]);
    // five levels, each with the one booking
    expect(await daily()).toEqual(Array(5).fill([1, 2800]));

    // redelivery of the same load.booked: nothing more
    const [booked] = await t.database.query<{
      id: string;
      seq: number;
      type: string;
      aggregate_id: string;
      actor_id: string;
      data: Record<string, unknown>;
      created_at: Date;
    }>(`select id, seq, type, aggregate_id, actor_id, data, created_at from outbox_events where aggregate_id = $1 and type = 'load.booked'`, [load.id]);
    const asEvent = (e: typeof booked): OutboxEvent => ({
      id: e.id,
      seq: Number(e.seq),
      type: e.type as OutboxEvent['type'],
      aggregateType: 'load',
      aggregateId: e.aggregate_id,
      actorId: e.actor_id,
      data: e.data,
      createdAt: new Date(e.created_at),
    });
    await t.app.container.db.transaction((tx) => laneRatesHandler.handle(tx, asEvent(booked)));
    expect(await daily()).toEqual(Array(5).fill([1, 2800]));

    // the shipper cancels the booked load
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/loads/${load.id}`, headers: shipper.headers })).statusCode).toBe(200);
    await drain();
    const [c] = await t.database.query<{ cancelled_at: Date | null }>(`select cancelled_at from rate_records where load_id = $1`, [load.id]);
    expect(c.cancelled_at).not.toBeNull();
    expect(await daily()).toEqual(Array(5).fill([0, 0]));
    const [cancelled] = await t.database.query<typeof booked>(
      `select id, seq, type, aggregate_id, actor_id, data, created_at from outbox_events where aggregate_id = $1 and type = 'load.cancelled'`,
      [load.id],
    );
    await t.app.container.db.transaction((tx) => laneRatesHandler.handle(tx, asEvent(cancelled)));
    expect(await daily()).toEqual(Array(5).fill([0, 0]));
    // the monthly rollup moved with the days
    const monthly = await t.database.query<{ records: number }>(
      `select sum(records)::int as records from lane_rate_monthly where equipment = 'reefer_trailer' and kind = 'spot' group by level`,
    );
    expect(monthly.map((m) => m.records)).toEqual([0, 0, 0, 0, 0]);
    // the backfill finds nothing new to take
    expect(await rates().backfill()).toBe(0);
  });
});

describe('kinds and sources from how the load was booked', () => {
  const recordOfLoad = async (id: string) =>
    (
      await t.database.query<{ kind: string; source: string; price: number }>(
        `select kind, source, price_sar::float8 as price from rate_records where load_id = $1`,
        [id],
      )
    )[0];

  it('Book Now at the posted price is spot/book_now; a bid accepted on a Book Now load stays spot/offer', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ bookNow: true, price: 3100, equipmentType: 'box_trailer' }));
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bookNow',
      headers: { ...carrier.headers, 'idempotency-key': randomUUID() },
      payload: { loadId: load.id, priceSar: '3100' },
    });
    expect(r.statusCode, r.body).toBe(201);
    await drain();
    expect(await recordOfLoad(load.id)).toEqual({ kind: 'spot', source: 'book_now', price: 3100 });

    const other = await bookedLoad(t.app, shipper.headers, carrier.headers, loadBody({ bookNow: true, equipmentType: 'box_trailer' }));
    await drain();
    expect(await recordOfLoad(other.id)).toEqual({ kind: 'spot', source: 'offer', price: 2800 });
  });
});

describe('the outlier rule (3 scaled MADs of the lane’s last 90 days)', () => {
  const facts = (loadId: string, price: number, equipment: string): RateFacts => ({
    shipperId: randomUUID(),
    carrierId: randomUUID(),
    status: 'unassigned',
    loadType: 'FTL',
    equipment,
    distanceKm: 1000,
    weightKg: null,
    priceSar: String(price),
    // in the last published week (windows are whole weeks ending there; issue 46)
    bookedAt: new Date(`${pubEnd()}T09:00:00Z`),
    originCityId: CITY.dammam,
    originRegionId: 5,
    destinationCityId: CITY.riyadh,
    destinationRegionId: 1,
    via: 'offer',
  });
  const book = async (price: number, equipment: string) => {
    const loadId = randomUUID();
    const e: OutboxEvent = {
      id: randomUUID(),
      seq: 0,
      type: 'load.booked',
      aggregateType: 'load',
      aggregateId: loadId,
      actorId: null,
      data: { loadId, shipperId: randomUUID(), carrierId: randomUUID(), bookedPriceSar: String(price), status: { from: 'posted', to: 'unassigned' } },
      createdAt: new Date(`${pubEnd()}T09:00:00Z`),
    };
    await t.app.container.db.transaction((tx) => applyRateEvent(tx, e, async (_db, id) => facts(id, price, equipment)));
    const [r] = await t.database.query<{ outlier: boolean }>(`select outlier from rate_records where load_id = $1`, [loadId]);
    return r.outlier;
  };
  const counted = async (equipment: string) =>
    (
      await t.database.query<{ records: number; outliers: number }>(
        `select records, outliers from lane_rate_daily where level = 'city_city' and equipment = $1`,
        [equipment],
      )
    )[0];

  it('is not applied below 7 records of the lane', async () => {
    for (const p of [2000, 2050, 2100]) expect(await book(p, 'eq_out_a')).toBe(false);
    expect(await book(9000, 'eq_out_a')).toBe(false);
    expect(await counted('eq_out_a')).toEqual({ records: 4, outliers: 0 });
  });

  it('flags a price beyond 3 scaled MADs: kept, counted as an outlier, not aggregated', async () => {
    for (const p of [2000, 2040, 2080, 2100, 2120, 2160, 2200, 2060]) expect(await book(p, 'eq_out_b')).toBe(false);
    // median 2090 SAR (2.09/km); MAD 40 → scaled 59.3; 3 × 59.3 = 178: 2400 and 1800 are outliers, 2250 is not
    expect(await book(2400, 'eq_out_b')).toBe(true);
    expect(await book(1800, 'eq_out_b')).toBe(true);
    expect(await book(2250, 'eq_out_b')).toBe(false);
    expect(await counted('eq_out_b')).toEqual({ records: 9, outliers: 2 });
    const r = await lane({ origin: CITY.dammam, destination: CITY.riyadh, equipment: 'eq_out_b', window: 7 });
    expect(r.enough).toBe(true);
    expect(r.outliersExcluded).toBe(2);
    expect(r.records).toBe(9);
  });
});

describe('the minimum-sample rule (7 records, 3 companies, none over 40 %)', () => {
  it('as a rule', () => {
    expect(enoughSample(6, 3, 2)).toBe(false);
    expect(enoughSample(7, 2, 4)).toBe(false);
    expect(enoughSample(7, 3, 3)).toBe(true);
    expect(enoughSample(8, 3, 4)).toBe(false);
    expect(enoughSample(10, 4, 5)).toBe(false);
    expect(enoughSample(10, 4, 4)).toBe(true);
  });

  it('6 records → not enough data', async () => {
    await rates().recordBulk(bookings({ ...RUH_JED, equipment: 'eq_min_6' }, [2, 2, 2]));
    const r = await lane({ origin: CITY.riyadh, destination: CITY.jeddah, equipment: 'eq_min_6' });
    expect(r).toMatchObject({ enough: false, perTrip: null, geography: null, records: 0 });
  });

  it('7 records from 2 companies → not enough data', async () => {
    await rates().recordBulk(bookings({ ...RUH_JED, equipment: 'eq_min_7x2' }, [4, 3]));
    expect((await lane({ origin: CITY.riyadh, destination: CITY.jeddah, equipment: 'eq_min_7x2' })).enough).toBe(false);
  });

  it('7 records from 3 companies → a figure on the city → city lane', async () => {
    await rates().recordBulk(bookings({ ...RUH_JED, equipment: 'eq_min_7x3' }, [3, 2, 2]));
    const r = await lane({ origin: CITY.riyadh, destination: CITY.jeddah, equipment: 'eq_min_7x3' });
    expect(r).toMatchObject({ enough: true, records: 7, companies: 3, window: 30, windowRequested: 30, outliersExcluded: 0 });
    expect(r.geography).toEqual({
      level: 'city_city',
      origin: { id: CITY.riyadh, en: 'Riyadh', ar: 'الرياض' },
      destination: { id: CITY.jeddah, en: 'Jeddah', ar: 'جدة' },
    });
    expect(r.perTrip!.average).toBeGreaterThan(2800);
    expect(r.perTrip!.average).toBeLessThan(3200);
    expect(r.perTrip!.p25).toBeLessThanOrEqual(r.perTrip!.median);
    expect(r.perTrip!.median).toBeLessThanOrEqual(r.perTrip!.p75);
    expect(r.perKm!.average).toBeCloseTo(r.perTrip!.average / 500, 2);
  });

  it('one company at 50 % → refused', async () => {
    await rates().recordBulk(bookings({ ...RUH_JED, equipment: 'eq_min_half' }, [4, 2, 2]));
    expect((await lane({ origin: CITY.riyadh, destination: CITY.jeddah, equipment: 'eq_min_half' })).enough).toBe(false);
  });
});

describe('widening: geography first (city→city, region→city, city→region, region→region, national), then the window', () => {
  const ask = (equipment: string, window = 30) => lane({ origin: CITY.riyadh, destination: CITY.jeddah, equipment, window });

  it('region → city: Al Kharj (Riyadh region) → Jeddah answers for Riyadh → Jeddah', async () => {
    await rates().recordBulk(bookings({ from: CITY.alKharj, fromRegion: 1, to: CITY.jeddah, toRegion: 2, equipment: 'eq_w_rc' }, [3, 2, 2]));
    const r = await ask('eq_w_rc');
    expect(r.geography).toMatchObject({ level: 'region_city', origin: { id: 1 }, destination: { id: CITY.jeddah } });
  });

  it('city → region before region → region: Riyadh → Makkah counts for Riyadh → Makkah region', async () => {
    // Al Kharj → Makkah alone would be region → region; with Riyadh → Makkah the narrower city → region wins
    await rates().recordBulk(bookings({ from: CITY.alKharj, fromRegion: 1, to: MAKKAH, toRegion: 2, equipment: 'eq_w_cr' }, [3, 2, 2]));
    expect((await ask('eq_w_cr')).geography?.level).toBe('region_region');
    await rates().recordBulk(bookings({ from: CITY.riyadh, fromRegion: 1, to: MAKKAH, toRegion: 2, equipment: 'eq_w_cr' }, [3, 2, 2]));
    const r = await ask('eq_w_cr');
    expect(r.geography).toMatchObject({ level: 'city_region', origin: { id: CITY.riyadh }, destination: { id: 2 } });
    expect(r.records).toBe(7);
  });

  it('national last; and the geography widens before the window', async () => {
    // the lane itself 20 days ago; another lane (national only) 2 days ago
    await rates().recordBulk(bookings({ ...RUH_JED, equipment: 'eq_w_n' }, [3, 2, 2], { daysAgo: 20 }));
    await rates().recordBulk(bookings({ from: CITY.dammam, fromRegion: 5, to: CITY.riyadh, toRegion: 1, equipment: 'eq_w_n' }, [3, 2, 2], { daysAgo: 2 }));
    const week = await ask('eq_w_n', 7);
    expect(week).toMatchObject({ enough: true, window: 7, geography: { level: 'national', origin: null, destination: null } });
    // a 30-day window finds the lane itself
    expect(await ask('eq_w_n', 30)).toMatchObject({ window: 30, geography: { level: 'city_city' }, records: 7 });
  });

  it('a long window sums whole months from the monthly rollup and the partial ones from the days', async () => {
    await rates().recordBulk(bookings({ ...RUH_JED, equipment: 'eq_w_month' }, [3, 2, 2], { daysAgo: 40 }));
    await rates().recordBulk(bookings({ ...RUH_JED, equipment: 'eq_w_month' }, [3, 2, 2], { daysAgo: 1 }));
    expect(await ask('eq_w_month', 90)).toMatchObject({ enough: true, window: 90, records: 14, companies: 6, geography: { level: 'city_city' } });
    expect(await ask('eq_w_month', 365)).toMatchObject({ window: 365, records: 14 });
  });

  it('the window widens when no geography has enough (7 → 15 → 30)', async () => {
    await rates().recordBulk(bookings({ ...RUH_JED, equipment: 'eq_w_win' }, [3, 2, 2], { daysAgo: 20 }));
    expect(await ask('eq_w_win', 7)).toMatchObject({ enough: true, windowRequested: 7, window: 30, geography: { level: 'city_city' } });
  });
});

describe("the viewer's own average and the history", () => {
  it("own: the signed-in company's bookings on the lane; history: 13 months with the own bookings", async () => {
    await rates().recordBulk(bookings({ ...RUH_JED, equipment: 'eq_own' }, [2, 3, 2], { companies: [shipper.id, randomUUID(), randomUUID()], sar: 4000 }));
    const mine = await lane({ origin: CITY.riyadh, destination: CITY.jeddah, equipment: 'eq_own' });
    expect(mine.own.records).toBe(2);
    expect(mine.own.average).toBeGreaterThan(3700);
    const theirs = await lane({ origin: CITY.riyadh, destination: CITY.jeddah, equipment: 'eq_own' }, carrier);
    expect(theirs.own).toEqual({ average: null, records: 0 });

    const h = ok(await call<LaneRateHistory>('GET', `/rates/lane/history?origin=${CITY.riyadh}&destination=${CITY.jeddah}&equipment=eq_own`, shipper.headers));
    expect(h.months).toHaveLength(13);
    expect(h.months[12].month).toBe(today().slice(0, 7));
    const withData = h.months.filter((m) => m.records > 0);
    expect(withData.reduce((a, m) => a + m.records, 0)).toBe(7);
    expect(h.own).toHaveLength(2);
    expect(h.own[0].priceSar).toBeGreaterThan(3700);
  });

  it('an unknown city is 404; a bad window is 400; signed-out is 401', async () => {
    expect((await call('GET', `/rates/lane?origin=999999&destination=${CITY.jeddah}`, shipper.headers)).status).toBe(404);
    expect((await call('GET', `/rates/lane?origin=${CITY.riyadh}&destination=${CITY.jeddah}&window=20`, shipper.headers)).status).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/spotMarketRate?origin=${CITY.riyadh}&destination=${CITY.jeddah}` })).statusCode).toBe(401);
    expect((await call('GET', `/laneAnalytics?origin=${CITY.riyadh}&destination=${CITY.jeddah}&equipment=eq_own`, carrier.headers)).status).toBe(200);
  });
});

describe('the forecast series and the bucketed percentiles', () => {
  it('laneDailySeries: per-day records, SAR per trip and per km on the city → city lane', async () => {
    await rates().recordBulk(bookings({ ...RUH_JED, equipment: 'eq_series' }, [2, 2], { daysAgo: 3, sar: 2000 }));
    const s = await rates().laneDailySeries({
      originCityId: CITY.riyadh,
      destinationCityId: CITY.jeddah,
      equipment: 'eq_series',
      kind: 'spot',
      from: addDays(today(), -10),
      to: today(),
    });
    expect(s).toHaveLength(1);
    expect(s[0].records).toBe(4);
    expect(s[0].avgPerKm).toBeCloseTo(s[0].avgSar / 500, 3);
  });

  it('quantiles from 2 % buckets are within 2 % of the exact ones', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => 1500 + ((i * 7919) % 1000) * 3.5);
    const hist = new Map<number, number>();
    for (const x of xs) hist.set(bucketOf(x, SAR_BUCKETS), (hist.get(bucketOf(x, SAR_BUCKETS)) ?? 0) + 1);
    const sorted = [...xs].sort((a, b) => a - b);
    for (const q of [0.025, 0.25, 0.5, 0.75, 0.975]) {
      const exact = sorted[Math.floor(q * (sorted.length - 1))];
      expect(Math.abs(quantileOf(hist, q, SAR_BUCKETS)! / exact - 1)).toBeLessThan(0.02);
    }
    expect(bucketOf(0.1, KM_BUCKETS)).toBe(0);
    expect(bucketOf(1e9, KM_BUCKETS)).toBe(KM_BUCKETS.count - 1);
  });
});
