import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type CreateTruckBody, type LoadInOutResponse, type Truck, type TruckInOutResponse } from '@masar/shared';
import { createTestApp, ENGINE, type TestContext } from './helpers.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { CITY, inDays, loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { PER_PLACE_MAX, placesInCircle } from '../src/modules/loads/board.repository.ts';
import { inOutRows, inOutRowsSql } from '../src/modules/loads/inout.repository.ts';

// Truck in/out and shipment in/out logs (issue 19; spec §2, §7 /truckInOutLogs, /loadInOutLogs,
// …/refresh): the window's boundaries, the radius, the direction, the load-to-truck ratio,
// unposted and expired trucks and unposted loads left out, validation. Runs on PGlite and
// PostgreSQL. Around Tabuk (region 7), far from the Riyadh/Jeddah lanes of the other tests.

/** Reference cities (cities.json): Tabuk, 35 km and 78 km from it, 325 km from it in its region. */
const TABUK = 1;
const AL_FAWHAH = 20;
const NAMI = 2;
const HAZAYA = 70;
const TABUK_REGION = 7;

let t: TestContext;
let carrier: TestUser;
let shipper: TestUser;
let broker: TestUser;
const { call, ok } = apiCaller(() => t);

const truckBody = (over: Partial<CreateTruckBody> & { day?: number; days?: number } = {}): CreateTruckBody => {
  const { day = 2, days = 2, ...rest } = over;
  return {
    loadType: 'FTL',
    equipmentType: 'flatbed_trailer',
    availableFrom: inDays(day),
    availableTo: inDays(day + days),
    originCityId: TABUK,
    anywhere: true,
    minRateSar: '2500',
    rateBasis: 'trip',
    capacityKg: 25_000,
    ...rest,
  };
};
const postTruck = async (body: CreateTruckBody): Promise<Truck> => ok(await call<Truck>('POST', '/truck', carrier.headers, body), 201);
const qs = (q: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(q).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]))).toString();
const truckLog = async (q: Record<string, string | number | undefined>, path = '/truckInOutLogs') =>
  ok(await call<TruckInOutResponse>('GET', `${path}?${qs(q)}`, shipper.headers));
const loadLog = async (q: Record<string, string | number | undefined>, path = '/loadInOutLogs') =>
  ok(await call<LoadInOutResponse>('GET', `${path}?${qs(q)}`, carrier.headers));
const ids = (r: { items: { id: string }[] }) => r.items.map((i) => i.id);

let tabukOut: Truck;
let namiOut: Truck;
let lateOut: Truck;
let toTabuk: Truck;
let toRegion: Truck;
let toHazaya: Truck;
let anywhere: Truck;
let unposted: Truck;
let expired: Truck;

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
  // leaving Tabuk's area: from Tabuk (days 2–4), from Na'mi (78 km), from Tabuk on days 10–12
  tabukOut = await postTruck(truckBody());
  namiOut = await postTruck(truckBody({ originCityId: NAMI }));
  lateOut = await postTruck(truckBody({ day: 10 }));
  // arriving: Riyadh → Tabuk, Riyadh → region of Tabuk, Riyadh → Hazaya (same region, 325 km), Riyadh → anywhere
  toTabuk = await postTruck(truckBody({ originCityId: CITY.riyadh, anywhere: false, destinationCityIds: [TABUK] }));
  toRegion = await postTruck(truckBody({ originCityId: CITY.riyadh, anywhere: false, destinationRegionIds: [TABUK_REGION], day: 4 }));
  toHazaya = await postTruck(truckBody({ originCityId: CITY.riyadh, anywhere: false, destinationCityIds: [HAZAYA] }));
  anywhere = await postTruck(truckBody({ originCityId: CITY.riyadh }));
  // never shown: unposted, and posted but its window over (the job has not flipped it yet)
  unposted = await postTruck({ ...truckBody(), post: false });
  expired = await postTruck(truckBody());
  await t.database.query(`update trucks set available_from = now() - interval '2 days', available_to = now() - interval '1 minute' where id = $1`, [
    expired.id,
  ]);
});
afterAll(() => t?.close());

describe('truck in/out', () => {
  it('out: posted trucks whose origin is in the circle, free in the window (default now .. +7 days)', async () => {
    const city = await truckLog({ cityId: TABUK, direction: 'out' });
    expect(ids(city)).toEqual([tabukOut.id]);
    expect(city.items[0]).toMatchObject({ referenceId: tabukOut.referenceId, origin: { id: TABUK } });
    expect(Date.parse(city.to) - Date.parse(city.from)).toBe(7 * 86_400_000);
    // 50 km: Tabuk and Al Fawhah only; 100 km: Na'mi (78 km) too
    expect(ids(await truckLog({ cityId: TABUK, radius: 50, direction: 'out' }))).toEqual([tabukOut.id]);
    expect(new Set(ids(await truckLog({ cityId: TABUK, radius: 100, direction: 'out' })))).toEqual(new Set([tabukOut.id, namiOut.id]));
    expect(ids(await truckLog({ cityId: AL_FAWHAH, radius: 100, direction: 'out' })).sort()).toEqual([tabukOut.id, namiOut.id].sort());
  });

  it('the window: a truck counts when its availability overlaps it, boundaries included', async () => {
    // the days 10–12 truck shows once the window reaches day 10
    expect(ids(await truckLog({ cityId: TABUK, direction: 'out', from: inDays(0), to: inDays(12) }))).toEqual([tabukOut.id, lateOut.id]);
    expect(ids(await truckLog({ cityId: TABUK, direction: 'out', from: inDays(9), to: inDays(10, -1) }))).toEqual([]);
    // a window starting after the truck's availability ended (day 4) misses it; one that starts at its end still meets it
    expect(ids(await truckLog({ cityId: TABUK, direction: 'out', from: tabukOut.availableTo, to: inDays(8) }))).toEqual([tabukOut.id]);
    expect(ids(await truckLog({ cityId: TABUK, direction: 'out', from: inDays(4, 1), to: inDays(8) }))).toEqual([]);
    // a window ending at its start meets it; one ending before does not
    expect(ids(await truckLog({ cityId: TABUK, direction: 'out', from: inDays(0), to: tabukOut.availableFrom }))).toEqual([tabukOut.id]);
    expect(ids(await truckLog({ cityId: TABUK, direction: 'out', from: inDays(0), to: inDays(2, -1) }))).toEqual([]);
  });

  it('in: trucks going to a city of the circle or its region; "anywhere" and other cities of the region are not arriving', async () => {
    const log = await truckLog({ cityId: TABUK, radius: 100 });
    expect(log.direction).toBe('in');
    expect(ids(log)).toEqual([toTabuk.id, toRegion.id]);
    expect(ids(log)).not.toContain(anywhere.id);
    expect(ids(log)).not.toContain(toHazaya.id);
    // both counts in either direction's answer
    expect(log.counts).toEqual({ in: { total: 2, capped: false }, out: { total: 2, capped: false } });
    // Hazaya's own log: going there (the city, free from day 2) and to its region (from day 4)
    expect(ids(await truckLog({ cityId: HAZAYA }))).toEqual([toHazaya.id, toRegion.id]);
  });

  it('unposted and expired trucks never show, and an unposted truck leaves the log', async () => {
    const all = [...ids(await truckLog({ cityId: TABUK, direction: 'out', to: inDays(20) })), ...ids(await truckLog({ cityId: TABUK, to: inDays(20) }))];
    expect(all).not.toContain(unposted.id);
    expect(all).not.toContain(expired.id);
    ok(await call('POST', `/truck/${namiOut.id}/unpost`, carrier.headers));
    expect(ids(await truckLog({ cityId: TABUK, radius: 100, direction: 'out' }))).toEqual([tabukOut.id]);
    ok(await call('POST', `/truck/${namiOut.id}/repost`, carrier.headers));
  });

  it('pages by keyset cursor without repeats; /refresh answers the same fresh log', async () => {
    const first = await truckLog({ cityId: TABUK, radius: 100, limit: 1 });
    expect(first.items).toHaveLength(1);
    expect(first.nextCursor).toBeTruthy();
    const second = await truckLog({ cityId: TABUK, radius: 100, limit: 1, cursor: first.nextCursor! });
    expect([...ids(first), ...ids(second)]).toEqual([toTabuk.id, toRegion.id]);
    expect(second.nextCursor).toBeNull();
    const fresh = await truckLog({ cityId: TABUK, radius: 100 }, '/truckInOutLogs/refresh');
    expect(ids(fresh)).toEqual([toTabuk.id, toRegion.id]);
    // out: the circle's cities are walked each up to the page, then merged; the cursor resumes across them
    const out1 = await truckLog({ cityId: TABUK, radius: 100, direction: 'out', limit: 1 });
    const out2 = await truckLog({ cityId: TABUK, radius: 100, direction: 'out', limit: 1, cursor: out1.nextCursor! });
    expect([...ids(out1), ...ids(out2)]).toEqual([tabukOut.id, namiOut.id]);
    expect(out2.nextCursor).toBeNull();
    // a cursor of another direction is refused
    expect((await call('GET', `/truckInOutLogs?${qs({ cityId: TABUK, direction: 'out', cursor: first.nextCursor! })}`, shipper.headers)).status).toBe(400);
  });
});

describe('shipment in/out and the ratio', () => {
  it('out: open marketplace loads first picked up in the circle in the window; in: last drop in it, by delivery date', async () => {
    // Tabuk → Jeddah picked up day 2 (drop day 4); Na'mi → Riyadh day 3; Jeddah → Tabuk picked up day 1, delivered day 3; Tabuk → Dammam day 9
    const fromTabuk = await postLoad(t.app, shipper.headers, loadBody({ from: TABUK, to: CITY.jeddah, day: 2 }));
    const fromNami = await postLoad(t.app, shipper.headers, loadBody({ from: NAMI, to: CITY.riyadh, day: 3 }));
    const toTabukLoad = await postLoad(t.app, shipper.headers, loadBody({ from: CITY.jeddah, to: TABUK, day: 1 }));
    const late = await postLoad(t.app, shipper.headers, loadBody({ from: TABUK, to: CITY.dammam, day: 9 }));
    const draft = await postLoad(t.app, shipper.headers, { ...loadBody({ from: TABUK, to: CITY.jeddah, day: 2 }), post: false });

    const out = await loadLog({ cityId: TABUK, direction: 'out' });
    expect(ids(out)).toEqual([fromTabuk.id]);
    expect(out.items[0].stops[0].cityId).toBe(TABUK);
    expect(ids(await loadLog({ cityId: TABUK, radius: 100, direction: 'out' }))).toEqual([fromTabuk.id, fromNami.id]);
    // page by page across the circle's cities
    const p1 = await loadLog({ cityId: TABUK, radius: 100, direction: 'out', limit: 1 });
    const p2 = await loadLog({ cityId: TABUK, radius: 100, direction: 'out', limit: 1, cursor: p1.nextCursor! });
    expect([...ids(p1), ...ids(p2), p2.nextCursor]).toEqual([fromTabuk.id, fromNami.id, null]);
    expect(ids(await loadLog({ cityId: TABUK, direction: 'out', to: inDays(10) }))).toEqual([fromTabuk.id, late.id]);
    // the pickup date's boundaries
    expect(ids(await loadLog({ cityId: TABUK, direction: 'out', from: fromTabuk.stops[0].date, to: inDays(8) }))).toEqual([fromTabuk.id]);
    expect(ids(await loadLog({ cityId: TABUK, direction: 'out', from: inDays(2, 1), to: inDays(8) }))).toEqual([]);

    const inbound = await loadLog({ cityId: TABUK, radius: 100 });
    expect(ids(inbound)).toEqual([toTabukLoad.id]);
    expect(inbound.counts).toEqual({ in: { total: 1, capped: false }, out: { total: 2, capped: false } });
    // delivered on day 3: a window ending before the delivery misses it
    expect(ids(await loadLog({ cityId: TABUK, from: inDays(0), to: inDays(2) }))).toEqual([]);
    // the draft is never in a log; neither is an unposted load
    expect(ids(await loadLog({ cityId: TABUK, direction: 'out', to: inDays(20) }))).not.toContain(draft.id);
    ok(await call('POST', `/loads/${late.id}/unpost`, shipper.headers));
    expect(ids(await loadLog({ cityId: TABUK, direction: 'out', to: inDays(10) }))).toEqual([fromTabuk.id]);
    expect(ids(await loadLog({ cityId: TABUK, direction: 'out', to: inDays(10) }, '/loadInOutLogs/refresh'))).toEqual([fromTabuk.id]);
  });

  it('the ratio: loads and trucks posted in the circle in the last 24 h, loads per truck', async () => {
    // in Tabuk's city: 2 trucks posted by it (tabukOut, lateOut; the expired one too: posted today), loads: fromTabuk, late, (the draft was never posted)
    const r = (await truckLog({ cityId: TABUK })).ratio;
    expect(r).toMatchObject({ hours: 24 });
    const [{ n: trucks }] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from trucks where origin_city_id = $1 and status <> 'deleted' and posted_at > now() - interval '24 hours'`,
      [TABUK],
    );
    expect(r.trucks).toBe(Number(trucks));
    expect(r.trucks).toBe(3);
    expect(r.loads).toBe(2);
    expect(r.ratio).toBe(Math.round((2 / 3) * 100) / 100);
    // the same ratio on the shipment log; with the radius, Na'mi's truck and load count too
    expect((await loadLog({ cityId: TABUK })).ratio).toEqual(r);
    // the 100 km figures were first read before these loads were posted: the log may show them up
    // to INOUT_FIGURES_TTL_MS old, …/refresh reads them fresh
    expect((await truckLog({ cityId: TABUK, radius: 100 }, '/truckInOutLogs/refresh')).ratio).toMatchObject({ loads: 3, trucks: 4 });
    // no trucks posted there: no ratio
    expect((await truckLog({ cityId: CITY.dammam })).ratio).toMatchObject({ trucks: 0, ratio: null });
    // a broker reads both logs too
    expect((await call('GET', `/loadInOutLogs?cityId=${TABUK}`, broker.headers)).status).toBe(200);
  });
});

describe('shipment in/out of a dense circle', () => {
  // Abha: 882 reference places within 100 km (Asir's villages), more than PER_PLACE_MAX, so the
  // log walks the board's date-ordered index and keeps the circle's loads instead of reading each
  // place; pages must be the same as per place, boundaries and cursors included.
  const ABHA = 15;
  const KHAMIS_MUSHAYT = 62;
  const AHAD_RIFAYDAH = 65;

  it.runIf(ENGINE === 'postgres')(
    'the walk’s generic plan (as production runs it) reads the date-ordered index in order, index-only, and sorts no loads',
    async () => {
      const pg = (await import('pg')).default;
      const { PgDialect } = await import('drizzle-orm/pg-core');
      const client = new pg.Client({ connectionString: (t.database as { url?: string }).url });
      await client.connect();
      try {
        await client.query('set plan_cache_mode = force_generic_plan');
        const a = { cityId: ABHA, radius: 100, from: new Date(), to: new Date(Date.now() + 7 * 86_400_000) };
        for (const [dir, index] of [
          ['out', 'loads_board_pickup'],
          ['in', 'loads_board_drop_time'],
        ] as const) {
          const s = new PgDialect().sqlToQuery(inOutRowsSql({ a, dir, limit: 20, after: null, hidden: [], path: 'walk' }));
          await client.query(`prepare walk_${dir} as ${s.sql}`);
          const literals = s.params.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`));
          const plan = (await client.query<{ 'QUERY PLAN': string }>(`explain (costs off) execute walk_${dir}(${literals.join(', ')})`)).rows
            .map((r) => r['QUERY PLAN'])
            .join('\n');
          expect(plan, plan).toMatch(new RegExp(`Index Only Scan using ${index} on loads`));
          // the walk and the page's loads (`l`, `l_1`…); the re-post probe (`rp`, index
          // loads_reposted_from) is costed on this test's few dozen loads, where a scan of the
          // table is as cheap as the partial index (since the board card joined, issue 45)
          expect(plan, plan).not.toMatch(/(Seq Scan|Bitmap Heap Scan) on loads (?!rp\b)/);
        }
      } finally {
        await client.end();
      }
    },
  );

  it('walks the date-ordered index: the same loads in the same order, page by page, as per place', async () => {
    expect(await placesInCircle(t.database.db, ABHA, 100)).toBeGreaterThan(PER_PLACE_MAX);
    // earliest of all and in the window, but neither picking up nor delivering in the circle: the walk reads it and drops it
    await postLoad(t.app, shipper.headers, loadBody({ from: CITY.riyadh, to: CITY.jeddah, day: 0.5 }));
    const out1 = await postLoad(t.app, shipper.headers, loadBody({ from: ABHA, to: CITY.riyadh, day: 1 }));
    const out2 = await postLoad(t.app, shipper.headers, loadBody({ from: KHAMIS_MUSHAYT, to: CITY.jeddah, day: 2 }));
    const out3 = await postLoad(t.app, shipper.headers, loadBody({ from: AHAD_RIFAYDAH, to: CITY.dammam, day: 3 }));
    const in1 = await postLoad(t.app, shipper.headers, loadBody({ from: CITY.riyadh, to: ABHA, day: 1.5 }));
    const in2 = await postLoad(t.app, shipper.headers, loadBody({ from: CITY.jeddah, to: AHAD_RIFAYDAH, day: 2.5 }));
    // after the window, and unposted: never
    await postLoad(t.app, shipper.headers, loadBody({ from: ABHA, to: CITY.riyadh, day: 9 }));
    const gone = await postLoad(t.app, shipper.headers, loadBody({ from: ABHA, to: CITY.riyadh, day: 1.2 }));
    ok(await call('POST', `/loads/${gone.id}/unpost`, shipper.headers));

    const expected = { out: [out1.id, out2.id, out3.id], in: [in1.id, in2.id] };
    for (const direction of ['out', 'in'] as const) {
      const q = { cityId: ABHA, radius: 100, direction };
      expect(ids(await loadLog(q))).toEqual(expected[direction]);
      // one and two a page: every page but the last is the walk's (it fills limit + 1), the last falls back to per place
      for (const limit of [1, 2]) {
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await loadLog({ ...q, limit, cursor });
          seen.push(...ids(page));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        expect(seen).toEqual(expected[direction]);
      }
      // the walk alone, and per place alone, give the same first rows
      const a = { cityId: ABHA, radius: 100, from: new Date(), to: new Date(Date.now() + 7 * 86_400_000) };
      const walk = await inOutRows(t.database.db, { a, dir: direction, limit: 1, after: null, hidden: [], path: 'walk' });
      const perPlace = await inOutRows(t.database.db, { a, dir: direction, limit: 1, after: null, hidden: [], path: 'perPlace' });
      expect(walk.map((r) => r.id)).toEqual(expected[direction].slice(0, 2));
      expect(perPlace.map((r) => r.id)).toEqual(walk.map((r) => r.id));
    }
    // the window's end: out3 picks up on day 3
    expect(ids(await loadLog({ cityId: ABHA, radius: 100, direction: 'out', to: inDays(2.5), limit: 1 }))).toEqual([out1.id]);
  });
});

describe('the area figures', () => {
  it('keeps counts and ratio for a short while, the page always fresh; /refresh reads them again for everyone', async () => {
    const q = { cityId: TABUK, direction: 'out', from: inDays(0), to: inDays(6) };
    const before = await truckLog(q);
    const extra = await postTruck(truckBody({ day: 3 }));
    const after = await truckLog(q);
    // the page shows the new truck at once; the counts and the 24 h ratio are the ones just read
    expect(ids(after)).toContain(extra.id);
    expect(after.counts).toEqual(before.counts);
    expect(after.ratio).toEqual(before.ratio);
    const fresh = await truckLog(q, '/truckInOutLogs/refresh');
    expect(fresh.counts.out.total).toBe(before.counts.out.total + 1);
    expect(fresh.ratio.trucks).toBe(before.ratio.trucks + 1);
    // the refresh replaced what was kept: the plain log now has the new figures too
    expect((await truckLog(q)).counts).toEqual(fresh.counts);
    ok(await call('DELETE', `/truck/${extra.id}`, carrier.headers));
  });

  it('keeps the shipment log’s counts the same way (the loads module’s side)', async () => {
    const q = { cityId: TABUK, direction: 'out', from: inDays(0), to: inDays(6) };
    const before = await loadLog(q);
    const extra = await postLoad(t.app, shipper.headers, loadBody({ from: TABUK, to: CITY.jeddah, day: 4 }));
    const after = await loadLog(q);
    expect(ids(after)).toContain(extra.id);
    expect(after.counts).toEqual(before.counts);
    const fresh = await loadLog(q, '/loadInOutLogs/refresh');
    expect(fresh.counts.out.total).toBe(before.counts.out.total + 1);
    expect(fresh.ratio.loads).toBe(before.ratio.loads + 1);
    expect((await loadLog(q)).counts).toEqual(fresh.counts);
    ok(await call('POST', `/loads/${extra.id}/unpost`, shipper.headers));
  });
});

describe('validation', () => {
  it('refuses a missing city, a radius not on the list, a window ending before it starts or longer than 31 days (localized)', async () => {
    const bad = async (q: Record<string, string | number>, lang = 'en') => {
      const r = await call('GET', `/truckInOutLogs?${qs(q)}`, { ...shipper.headers, 'accept-language': lang });
      expect(r.status).toBe(400);
      return r.body;
    };
    expect((await bad({ radius: 100 })).errors?.[0].path).toBe('cityId');
    expect((await bad({ cityId: TABUK, radius: 77 })).errors?.[0].path).toBe('radius');
    expect((await bad({ cityId: TABUK, direction: 'sideways' })).errors?.[0].path).toBe('direction');
    const reversed = await bad({ cityId: TABUK, from: inDays(3), to: inDays(2) });
    expect(reversed.errors?.[0]).toMatchObject({ path: 'to' });
    const long = await bad({ cityId: TABUK, from: inDays(0), to: inDays(32) }, 'ar');
    expect(long.errors?.[0].path).toBe('to');
    expect(long.errors?.[0].message).toMatch(/[\u0600-\u06FF]/);
    // 31 days is fine (one instant for both ends: two calls of inDays can be a millisecond apart, 31 days + 1 ms)
    const start = Date.now();
    const window31 = { from: new Date(start).toISOString(), to: new Date(start + 31 * 86_400_000).toISOString() };
    expect((await call('GET', `/loadInOutLogs?${qs({ cityId: TABUK, ...window31 })}`, carrier.headers)).status).toBe(200);
    // signed-in users only
    expect((await call('GET', `/truckInOutLogs?cityId=${TABUK}`, {})).status).toBe(401);
  });
});
