import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type CreateTruckBody, type Truck, type TruckInOutResponse } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { CITY, inDays } from '../src/modules/loads/loads.testkit.ts';
import { trucksPostedInArea } from '../src/modules/trucks/trucks.repository.ts';

// The trucks module's side tables (migration 0119; issue 19 Numbers): truck_destinations (trucks
// arriving, per destination city or region with the truck's window) and trucks_posted_hourly
// (posts per origin city and hour: the 24 h ratio). They are written by the trucks repositories
// in the transaction of every truck write, so after any sequence of post, edit, unpost, repost,
// expire, duplicate and delete they equal what a recount from `trucks` gives; parallel posts add
// up exactly. Runs on PGlite and PostgreSQL. Around Al Jawf (Sakaka), away from the other tests.

/** Reference cities (cities.json): Tabuk (region 7), Hazaya (region 7), Sakaka. */
const TABUK = 1;
const HAZAYA = 70;
const TABUK_REGION = 7;

let t: TestContext;
let carrier: TestUser;
let shipper: TestUser;
let origin: number;
const { call, ok } = apiCaller(() => t);

const truckBody = (over: Partial<CreateTruckBody> = {}): CreateTruckBody => ({
  loadType: 'FTL',
  equipmentType: 'flatbed_trailer',
  availableFrom: inDays(1),
  availableTo: inDays(3),
  originCityId: origin,
  anywhere: false,
  destinationCityIds: [TABUK],
  minRateSar: '2500',
  rateBasis: 'trip',
  capacityKg: 25_000,
  ...over,
});
const postTruck = async (body: CreateTruckBody): Promise<Truck> => ok(await call<Truck>('POST', '/truck', carrier.headers, body), 201);

/** The side tables as stored, and as a recount from `trucks` gives them. */
async function sideTables() {
  const q = (s: string) => t.database.query<Record<string, unknown>>(s).then((rows) => rows.map((r) => JSON.stringify(r)));
  return {
    destinations: await q(`select truck_id, place, available_from::text as f, available_to::text as t from truck_destinations order by 1, 2`),
    hourly: await q(`select city_id, hour::text as hour, n from trucks_posted_hourly where n <> 0 order by 1, 2`),
  };
}
async function recount() {
  const q = (s: string) => t.database.query<Record<string, unknown>>(s).then((rows) => rows.map((r) => JSON.stringify(r)));
  return {
    destinations: await q(`select t.id as truck_id, p.place, t.available_from::text as f, t.available_to::text as t from trucks t
      cross join lateral (select unnest(t.destination_city_ids) as place union select -unnest(t.destination_region_ids)) p
      where t.status = 'posted' and not t.anywhere order by 1, 2`),
    hourly: await q(`select origin_city_id as city_id, date_bin('1 hour', posted_at, timestamptz '2000-01-01 00:00:00+00')::text as hour, count(*)::int as n
      from trucks where status <> 'deleted' and posted_at is not null group by 1, 2 order by 1, 2`),
  };
}
const expectConsistent = async () => expect(await sideTables()).toEqual(await recount());

const arriving = async (cityId: number) =>
  ok(
    await call<TruckInOutResponse>(
      'GET',
      `/truckInOutLogs?cityId=${cityId}&direction=in&from=${encodeURIComponent(inDays(0))}&to=${encodeURIComponent(inDays(8))}`,
      shipper.headers,
    ),
  );

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  const [c] = await t.database.query<{ id: number }>(`select id from cities where name_en = 'Sakaka'`);
  origin = Number(c?.id ?? CITY.riyadh);
});
afterAll(() => t?.close());

describe('truck side tables (truck_destinations, trucks_posted_hourly)', () => {
  it('post, edit, unpost, repost, duplicate, expire and delete keep them equal to a recount', async () => {
    await expectConsistent();
    const a = await postTruck(truckBody());
    const b = await postTruck(truckBody({ destinationCityIds: [TABUK, HAZAYA], destinationRegionIds: [TABUK_REGION] }));
    const c = await postTruck(truckBody({ anywhere: true, destinationCityIds: [] }));
    const draft = await postTruck({ ...truckBody(), post: false });
    await expectConsistent();
    // b: three places (two cities, the region); anywhere and unposted: none
    const [{ n }] = await t.database.query<{ n: number }>(`select count(*)::int as n from truck_destinations where truck_id = $1`, [b.id]);
    expect(Number(n)).toBe(3);
    expect(await t.database.query(`select 1 from truck_destinations where truck_id = any($1::uuid[])`, [[c.id, draft.id]])).toEqual([]);

    // edits: destinations, window, origin city (the post moves to the new city's hour)
    ok(await call('PATCH', `/truck/${a.id}`, carrier.headers, { destinationCityIds: [HAZAYA] }));
    ok(await call('PATCH', `/truck/${a.id}`, carrier.headers, { availableFrom: inDays(2), availableTo: inDays(4) }));
    ok(await call('PATCH', `/truck/${c.id}`, carrier.headers, { originCityId: CITY.riyadh }));
    ok(await call('PATCH', `/truck/${c.id}`, carrier.headers, { anywhere: false, destinationRegionIds: [TABUK_REGION] }));
    await expectConsistent();

    // lifecycle: unpost (leaves the arrivals, stays in its posting hour), repost (new hour), duplicate, delete
    ok(await call('POST', `/truck/${b.id}/unpost`, carrier.headers));
    await expectConsistent();
    await t.database.query(`update trucks set posted_at = posted_at - interval '3 hours' where id = $1`, [b.id]);
    await t.database.query(
      `update trucks_posted_hourly h set n = h.n - 1 where (h.city_id, h.hour) = (select origin_city_id, date_bin('1 hour', posted_at + interval '3 hours', timestamptz '2000-01-01 00:00:00+00') from trucks where id = $1)`,
      [b.id],
    );
    await t.database.query(
      `insert into trucks_posted_hourly (city_id, hour, n) select origin_city_id, date_bin('1 hour', posted_at, timestamptz '2000-01-01 00:00:00+00'), 1 from trucks where id = $1
       on conflict (city_id, hour) do update set n = trucks_posted_hourly.n + 1`,
      [b.id],
    );
    await expectConsistent();
    ok(await call('POST', `/truck/${b.id}/repost`, carrier.headers));
    await expectConsistent();
    const copy = ok(await call<Truck>('POST', `/truck/${b.id}/duplicate`, carrier.headers));
    await expectConsistent();
    ok(await call('POST', `/truck/${copy.id}/repost`, carrier.headers));
    await expectConsistent();
    await call('DELETE', `/truck/${a.id}`, carrier.headers);
    await expectConsistent();
    ok(await call('POST', `/truck/${draft.id}/repost`, carrier.headers));
    await expectConsistent();

    // the expiry job: an ended window leaves the arrivals, the post still counts for its hour
    await t.database.query(`update trucks set available_from = now() - interval '2 days', available_to = now() - interval '1 minute' where id = $1`, [c.id]);
    await t.database.query(
      `update truck_destinations set available_from = now() - interval '2 days', available_to = now() - interval '1 minute' where truck_id = $1`,
      [c.id],
    );
    await t.app.container.services.trucks.expireDue();
    const [{ status }] = await t.database.query<{ status: string }>(`select status from trucks where id = $1`, [c.id]);
    expect(status).toBe('expired');
    await expectConsistent();
  });

  it('a truck going to two places of a circle arrives once (list and count)', async () => {
    const both = await postTruck(
      truckBody({ destinationCityIds: [TABUK, HAZAYA], destinationRegionIds: [TABUK_REGION], availableFrom: inDays(5), availableTo: inDays(6) }),
    );
    const log = await arriving(TABUK);
    expect(log.items.filter((i) => i.id === both.id)).toHaveLength(1);
    const [{ n }] = await t.database.query<{ n: number }>(
      `select count(distinct id)::int as n from trucks where status = 'posted' and available_to > now() and not anywhere
         and available_from <= $1::timestamptz and available_to >= $2::timestamptz
         and ($3::int = any(destination_city_ids) or $4::int = any(destination_region_ids))`,
      [inDays(8), inDays(0), TABUK, TABUK_REGION],
    );
    expect(log.counts.in.total).toBe(Number(n));
    // paging one by one walks every arriving truck once
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: TruckInOutResponse = ok(
        await call<TruckInOutResponse>(
          'GET',
          `/truckInOutLogs?cityId=${TABUK}&direction=in&limit=1&from=${encodeURIComponent(inDays(0))}&to=${encodeURIComponent(inDays(8))}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          shipper.headers,
        ),
      );
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(log.items.map((i) => i.id));
    expect(new Set(seen).size).toBe(Number(n));
  });

  it('30 parallel posts from one city leave the hourly count and the ratio exact', async () => {
    const [{ city }] = await t.database.query<{ city: number }>(
      `select id as city from cities where id not in (select origin_city_id from trucks) order by id limit 1`,
    );
    const rs = await Promise.all(Array.from({ length: 30 }, () => call<Truck>('POST', '/truck', carrier.headers, truckBody({ originCityId: Number(city) }))));
    expect(rs.map((r) => r.status)).toEqual(Array(30).fill(201));
    const [{ n }] = await t.database.query<{ n: number }>(`select coalesce(sum(n), 0)::int as n from trucks_posted_hourly where city_id = $1`, [city]);
    expect(Number(n)).toBe(30);
    await expectConsistent();
    // and 10 parallel unposts, 10 deletes: the arrivals and the posts follow
    await Promise.all(rs.slice(0, 10).map((r) => call('POST', `/truck/${r.body.data.id}/unpost`, carrier.headers)));
    await Promise.all(rs.slice(10, 20).map((r) => call('DELETE', `/truck/${r.body.data.id}`, carrier.headers)));
    await expectConsistent();
    expect(await trucksPostedInArea(t.database.db, Number(city), null, new Date(Date.now() - 86_400_000))).toBe(20);
  });

  it('the 24 h count: whole hours from the rollup plus the first hour from the posts, exact at any start', async () => {
    const exact = async (since: Date) => {
      const [{ n }] = await t.database.query<{ n: number }>(
        `select count(*)::int as n from trucks where origin_city_id = $1 and status <> 'deleted' and posted_at >= $2::timestamptz`,
        [origin, since.toISOString()],
      );
      return Number(n);
    };
    // posts spread over the last 30 hours (posted_at moved, the rollup moved with it, as a repost would)
    const [{ ids }] = await t.database.query<{ ids: string[] }>(`select array_agg(id) as ids from trucks where origin_city_id = $1 and status <> 'deleted'`, [
      origin,
    ]);
    for (const [i, id] of (ids ?? []).entries()) {
      await t.database.query(`update trucks set posted_at = now() - ($2::int * interval '47 minutes') where id = $1`, [id, i]);
    }
    await t.database.query(`delete from trucks_posted_hourly where city_id = $1`, [origin]);
    await t.database.query(
      `insert into trucks_posted_hourly (city_id, hour, n) select origin_city_id, date_bin('1 hour', posted_at, timestamptz '2000-01-01 00:00:00+00'), count(*)::int
       from trucks where origin_city_id = $1 and status <> 'deleted' and posted_at is not null group by 1, 2`,
      [origin],
    );
    await expectConsistent();
    for (const minutes of [24 * 60, 23 * 60 + 7, 61, 30, 1]) {
      const since = new Date(Date.now() - minutes * 60_000);
      expect(await trucksPostedInArea(t.database.db, origin, null, since), `${minutes} min`).toBe(await exact(since));
    }
  });
});
