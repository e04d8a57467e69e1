import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type CreateTruckBody, type Truck, type TruckPage } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { CITY, inDays } from '../src/modules/loads/loads.testkit.ts';
import { truckCacheStats } from '../src/modules/trucks/trucks.service.ts';

// The truck board's page cache (issue 19; migration 0130, lib/page-cache.ts): pages are served
// from the cache until a truck write in the places they cover bumps their version; writes
// elsewhere leave them cached; the owner of a truck on a cached page still gets isMine. Runs on
// PGlite and PostgreSQL, with a TTL long enough that only the versions can make a page go.

let t: TestContext;
let carrier: TestUser;
let other: TestUser;
let shipper: TestUser;
const { call, ok } = apiCaller(() => t);

beforeAll(async () => {
  t = await createTestApp({ JOBS: false, SEARCH_CACHE_TTL_MS: 600_000 });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Cached Haulage' });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
});
afterAll(() => t?.close());

/** A truck free from day `day` for two days, from `originCityId` to anywhere, reefer trailer, 20 t. */
const truckBody = (day: number, originCityId: number, over: Partial<CreateTruckBody> = {}): CreateTruckBody => ({
  loadType: 'FTL',
  equipmentType: 'reefer_trailer',
  availableFrom: inDays(day),
  availableTo: inDays(day + 2),
  originCityId,
  anywhere: true,
  minRateSar: '2000',
  rateBasis: 'trip',
  capacityKg: 20_000,
  ...over,
});
const postTruck = async (body: CreateTruckBody, user = carrier): Promise<Truck> => ok(await call<Truck>('POST', '/truck', user.headers, body), 201);
/** The ids on a page of the truck board for `user`, and how many searches the cache served (hits) or ran (misses) for it. */
const search = async (q: Record<string, string | number>, user = shipper) => {
  const before = { ...truckCacheStats };
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const page = ok(await call<TruckPage>('GET', `/searchTrucks?${qs}`, user.headers));
  return {
    page,
    ids: page.items.map((i) => i.id),
    hit: truckCacheStats.hits - before.hits === 1,
    miss: truckCacheStats.misses - before.misses === 1,
  };
};

describe('truck board cache (issue 19)', () => {
  it('serves a repeated search from the cache; a post elsewhere keeps it, a post in its circle shows at once', async () => {
    const day = 5;
    const q = { originCityId: CITY.riyadh, radius: 100, date: inDays(day), equipmentType: 'reefer_trailer', limit: 50 };
    const a = await postTruck(truckBody(day, CITY.riyadh));
    const first = await search(q);
    expect(first.miss).toBe(true);
    expect(first.ids).toEqual([a.id]);
    const again = await search(q);
    expect(again.hit).toBe(true);
    expect(again.ids).toEqual([a.id]);
    // a truck in Jeddah (another place): the Riyadh page stays cached
    await postTruck(truckBody(day, CITY.jeddah));
    expect((await search(q)).hit).toBe(true);
    // a truck in Al Kharj, inside the 100 km circle but another city: the page is computed again and has it
    const b = await postTruck(truckBody(day, CITY.alKharj));
    const after = await search(q);
    expect(after.miss).toBe(true);
    expect(new Set(after.ids)).toEqual(new Set([a.id, b.id]));
  });

  it('an edit that moves a truck, an unpost and a repost show on cached pages at once', async () => {
    const day = 8;
    const riyadh = { originCityId: CITY.riyadh, date: inDays(day), limit: 50 };
    const dammam = { originCityId: CITY.dammam, date: inDays(day), limit: 50 };
    const truck = await postTruck(truckBody(day, CITY.riyadh));
    expect((await search(riyadh)).ids).toContain(truck.id);
    expect((await search(dammam)).ids).not.toContain(truck.id);
    expect((await search(riyadh)).hit).toBe(true);
    expect((await search(dammam)).hit).toBe(true);
    // moved to Dammam: gone from Riyadh's cached page, on Dammam's
    ok(await call<Truck>('PATCH', `/truck/${truck.id}`, carrier.headers, { originCityId: CITY.dammam }));
    expect((await search(riyadh)).ids).not.toContain(truck.id);
    expect((await search(dammam)).ids).toContain(truck.id);
    // unposted: gone at once; reposted: back at once
    expect((await search(dammam)).hit).toBe(true);
    ok(await call<Truck>('POST', `/truck/${truck.id}/unpost`, carrier.headers));
    expect((await search(dammam)).ids).not.toContain(truck.id);
    ok(await call<Truck>('POST', `/truck/${truck.id}/repost`, carrier.headers));
    expect((await search(dammam)).ids).toContain(truck.id);
    // an edit of its equipment: gone from the reefer page of Dammam
    const reefers = { ...dammam, equipmentType: 'reefer_trailer' };
    expect((await search(reefers)).ids).toContain(truck.id);
    ok(await call<Truck>('PATCH', `/truck/${truck.id}`, carrier.headers, { equipmentType: 'flatbed_trailer' }));
    expect((await search(reefers)).ids).not.toContain(truck.id);
  });

  it("answers a truck's owner with isMine from a cached page, and never gives another viewer the owner's page", async () => {
    const day = 11;
    const q = { originCityId: CITY.jeddah, date: inDays(day), limit: 50 };
    const truck = await postTruck(truckBody(day, CITY.jeddah));
    const cached = await search(q, shipper);
    expect(cached.page.items.find((i) => i.id === truck.id)?.isMine).toBe(false);
    const mine = await search(q, carrier);
    expect(mine.page.items.find((i) => i.id === truck.id)?.isMine).toBe(true);
    const theirs = await search(q, other);
    expect(theirs.hit).toBe(true);
    expect(theirs.page.items.find((i) => i.id === truck.id)?.isMine).toBe(false);
  });

  it('30 parallel posts beside an expiry batch in the same places all commit, each counted once, and show on the cached page', async () => {
    const day = 17;
    const q = { originCityId: CITY.riyadh, radius: 100, date: inDays(day), limit: 100, sort: 'date' };
    // 30 trucks whose windows end behind the cache's back: the expiry batch bumps their places in one statement
    const due = await Promise.all(Array.from({ length: 30 }, (_, i) => postTruck(truckBody(day, i % 2 ? CITY.riyadh : CITY.alKharj))));
    await t.database.query(
      `update trucks set available_from = now() - interval '2 days', available_to = now() - interval '1 minute' where id = any($1::uuid[])`,
      [`{${due.map((d) => d.id).join(',')}}`],
    );
    expect((await search(q)).ids).toEqual([]);
    const version = async () =>
      Number(
        (await t.database.query<{ v: string }>(`select v::text as v from truck_board_versions where kind = 9 and equipment = '' and y = 0 and x = 0`))[0].v,
      );
    const before = await version();
    const [posted, expired] = await Promise.all([
      Promise.all(Array.from({ length: 30 }, (_, i) => call<Truck>('POST', '/truck', carrier.headers, truckBody(day, i % 2 ? CITY.riyadh : CITY.alKharj)))),
      t.app.container.services.trucks.expireDue(),
    ]);
    expect(posted.map((r) => r.status)).toEqual(Array(30).fill(201));
    expect(expired).toBeGreaterThanOrEqual(30);
    // one bump per post, one for the whole expiry batch (fewer than 500 due: one batch)
    expect(await version()).toBe(before + 31);
    expect(new Set((await search(q)).ids)).toEqual(new Set(posted.map((r) => r.body.data.id)));
  });

  it('the expiry job bumps the places of the trucks it expires', async () => {
    const day = 14;
    const q = { originCityId: CITY.dammam, radius: 50, equipmentType: 'reefer_trailer', limit: 50, sort: 'date' };
    const truck = await postTruck(truckBody(day, CITY.dammam));
    expect((await search(q)).ids).toContain(truck.id);
    // its window ends behind the cache's back (as time would, but before the page's own end)
    await t.database.query(`update trucks set available_from = now() - interval '2 days', available_to = now() - interval '1 minute' where id = $1`, [
      truck.id,
    ]);
    expect((await search(q)).hit).toBe(true);
    expect(await t.app.container.services.trucks.expireDue()).toBeGreaterThanOrEqual(1);
    const after = await search(q);
    expect(after.miss).toBe(true);
    expect(after.ids).not.toContain(truck.id);
  });
});

describe('truck board count (GET /searchTrucks/count, issue 45)', () => {
  type Count = { total: number; totalCapped: boolean };
  const count = async (q: Record<string, string | number>) => {
    const qs = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return ok(await call<Count>('GET', `/searchTrucks/count?${qs}`, shipper.headers));
  };
  /** count(*) of the posted, open trucks of `cityId` and `equipment`, straight from the table. */
  const counted = async (cityId: number, equipment: string) =>
    Number(
      (
        await t.database.query<{ n: number }>(
          `select count(*)::int as n from trucks where status = 'posted' and available_to > now() and origin_city_id = $1 and equipment_type = $2`,
          [cityId, equipment],
        )
      )[0].n,
    );

  it('equals count(*) of the search; a post, an unpost and an edit in its place change it at once; paging and sort do not', async () => {
    const q = { originCityId: CITY.asSufarat, equipmentType: 'flatbed_trailer' };
    const body = (day: number) => truckBody(day, CITY.asSufarat, { equipmentType: 'flatbed_trailer' });
    const [a] = [await postTruck(body(3)), await postTruck(body(4)), await postTruck(body(5))];
    expect(await count(q)).toEqual({ total: 3, totalCapped: false });
    expect(await counted(CITY.asSufarat, 'flatbed_trailer')).toBe(3);
    // the same filters with another page size, sort or cursor: the same remembered count
    expect(await count({ ...q, limit: 5, sort: 'rate' })).toEqual({ total: 3, totalCapped: false });
    // a post in the place: the remembered count changes at once (the TTL is 10 minutes here)
    await postTruck(body(6));
    expect(await count(q)).toEqual({ total: 4, totalCapped: false });
    ok(await call<Truck>('POST', `/truck/${a.id}/unpost`, carrier.headers));
    expect(await count(q)).toEqual({ total: 3, totalCapped: false });
    ok(await call<Truck>('PATCH', `/truck/${a.id}`, carrier.headers, { equipmentType: 'reefer_trailer' }));
    ok(await call<Truck>('POST', `/truck/${a.id}/repost`, carrier.headers));
    expect(await count(q)).toEqual({ total: 3, totalCapped: false });
    expect(await count({ ...q, equipmentType: 'reefer_trailer' })).toEqual({ total: 1, totalCapped: false });
    expect(await counted(CITY.asSufarat, 'flatbed_trailer')).toBe(3);
    // a radius that is not one of the options: the search's own validation
    expect((await call('GET', '/searchTrucks/count?radius=7', shipper.headers)).status).toBe(400);
  });

  it('stops at 1,000 and says "1,000+" beyond', async () => {
    const seed = await postTruck(truckBody(4, CITY.alAziziyah, { equipmentType: 'flatbed_trailer' }));
    // 1,004 more open trucks in the place, copied behind the service's back (no version bump: a first count)
    await t.database.exec(
      `insert into trucks select (jsonb_populate_record(null::trucks, to_jsonb(s) || jsonb_build_object('id', gen_random_uuid(), 'reference_id', 'TB-BULK-' || g))).*
         from trucks s, generate_series(1, 1004) g where s.id = '${seed.id}'`,
    );
    expect(await counted(CITY.alAziziyah, 'flatbed_trailer')).toBe(1005);
    expect(await count({ originCityId: CITY.alAziziyah, equipmentType: 'flatbed_trailer' })).toEqual({ total: 1000, totalCapped: true });
    expect(await count({ originCityId: CITY.alAziziyah, equipmentType: 'flatbed_trailer', loadType: 'LTL' })).toEqual({ total: 0, totalCapped: false });
  });
});
