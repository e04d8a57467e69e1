import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type CreateTruckBody, type Truck, type TruckPage } from '@masar/shared';
import { createTestApp, ENGINE, type TestContext } from './helpers.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { CITY, inDays, loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { DUE_FOR_EXPIRY_SQL } from '../src/modules/trucks/lifecycle.repository.ts';
import { searchTrucksSql } from '../src/modules/trucks/trucks.repository.ts';

// Truck posts (issue 19): post, edit, unpost/repost/duplicate/delete, the truck board search by
// radius and destination ("anywhere"), unposted trucks hidden from TMS users, the expiry job and
// matching with loads both ways. Runs on PGlite and PostgreSQL.

let t: TestContext;
let carrier: TestUser;
let broker: TestUser;
let shipper: TestUser;
const { call, ok } = apiCaller(() => t);

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Falcon Haulage' });
  broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
});
afterAll(() => t?.close());

/** A truck body free from day `day` for two days, Riyadh → anywhere, flatbed, 25 t. */
const truckBody = (over: Partial<CreateTruckBody> & { day?: number } = {}): CreateTruckBody => {
  const { day = 3, ...rest } = over;
  return {
    loadType: 'FTL',
    equipmentType: 'flatbed_trailer',
    availableFrom: inDays(day),
    availableTo: inDays(day + 2),
    originCityId: CITY.riyadh,
    anywhere: true,
    minRateSar: '2500',
    rateBasis: 'trip',
    capacityKg: 25_000,
    comments: 'Driver speaks Arabic and Urdu',
    ...rest,
  };
};
const postTruck = async (body: CreateTruckBody, user = carrier): Promise<Truck> => ok(await call<Truck>('POST', '/truck', user.headers, body), 201);
const search = async (q: Record<string, string | number>, user = shipper): Promise<TruckPage> => {
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return ok(await call<TruckPage>('GET', `/searchTrucks?${qs}`, user.headers));
};
const eventsOf = async (truckId: string) =>
  (
    await t.database.query<{ type: string; data: Record<string, unknown> }>(`select type, data from outbox_events where data->>'truckId' = $1 order by seq`, [
      truckId,
    ])
  ).map((e) => e.type);

describe('posting a truck', () => {
  it('posts a truck with its reference, company, verification and a truck.posted event', async () => {
    const truck = await postTruck(truckBody({ destinationCityIds: [], anywhere: true }));
    expect(truck.referenceId).toMatch(/^TRK-\d{6}$/);
    expect(truck).toMatchObject({ status: 'posted', company: 'Falcon Haulage', verified: true, isMine: true, minRateSar: '2500.00', capacityKg: 25_000 });
    expect(truck.origin.nameEn).toBe('Riyadh');
    expect(await eventsOf(truck.id)).toEqual(['truck.posted']);
    // details: any signed-in user sees a posted truck
    expect(ok(await call<Truck>('GET', `/truck/${truck.id}`, shipper.headers)).isMine).toBe(false);
  });

  it('takes an Idempotency-Key: the same request twice makes one truck', async () => {
    const headers = { ...carrier.headers, 'idempotency-key': `truck-${Date.now()}` };
    const body = truckBody({ day: 4 });
    const a = await call<Truck>('POST', '/truck', headers, body);
    const b = await call<Truck>('POST', '/truck', headers, body);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body.data.id).toBe(a.body.data.id);
  });

  it('refuses shippers, a post without destinations, unknown cities and another owner’s vehicle', async () => {
    expect((await call('POST', '/truck', shipper.headers, truckBody())).status).toBe(403);
    const noDest = await call('POST', '/truck', carrier.headers, truckBody({ anywhere: false, destinationCityIds: [] }));
    expect(noDest.status).toBe(400);
    expect(noDest.body.errors).toContainEqual(expect.objectContaining({ path: 'destinationCityIds' }));
    const badCity = await call('POST', '/truck', carrier.headers, truckBody({ originCityId: 999_999 }));
    expect(badCity.body.code).toBe('INVALID_CITY');
    const vehicle = await call('POST', '/truck', carrier.headers, truckBody({ vehicleId: '00000000-0000-4000-8000-000000000001' }));
    expect(vehicle.body.code).toBe('TRUCK_VEHICLE_INVALID');
    const tooLong = await call('POST', '/truck', carrier.headers, truckBody({ availableFrom: inDays(1), availableTo: inDays(40) }));
    expect(tooLong.status).toBe(400);
  });

  it('saves an LTL truck unposted with pallets and space, then edits it (truck.edited)', async () => {
    const truck = await postTruck(truckBody({ loadType: 'LTL', pallets: 8, spaceCm: 600, post: false, anywhere: false, destinationCityIds: [CITY.jeddah] }));
    expect(truck).toMatchObject({ status: 'unposted', pallets: 8, spaceCm: 600, anywhere: false });
    expect(truck.destinationCities.map((c) => c.nameEn)).toEqual(['Jeddah']);
    const edited = ok(await call<Truck>('PATCH', `/truck/${truck.id}`, carrier.headers, { minRateSar: '3.5', rateBasis: 'km', anywhere: true }));
    expect(edited).toMatchObject({ minRateSar: '3.50', rateBasis: 'km', anywhere: true, destinationCities: [] });
    expect(await eventsOf(truck.id)).toEqual(['truck.created', 'truck.edited']);
  });
});

describe('search trucks', () => {
  it('finds trucks by origin radius (200 km: 199.8 in, 200.9 out), nearest first, with deadhead', async () => {
    const day = 6;
    const near = await postTruck(truckBody({ day, originCityId: CITY.alKharj }));
    const edge = await postTruck(truckBody({ day, originCityId: CITY.alUwaysiyah }));
    const out = await postTruck(truckBody({ day, originCityId: CITY.nukhaylan }));
    const inRiyadh = await postTruck(truckBody({ day }));
    const page = await search({ originCityId: CITY.riyadh, radius: 200, date: inDays(day, 1), sort: 'deadhead' });
    const ids = page.items.map((i) => i.id);
    expect(ids).toEqual([inRiyadh.id, near.id, edge.id]);
    expect(ids).not.toContain(out.id);
    expect(page.items[0].deadheadKm).toBe(0);
    expect(page.items[2].deadheadKm).toBeGreaterThan(199);
    expect(page.items[2].deadheadKm).toBeLessThanOrEqual(200);
    // without a radius: the city only
    expect((await search({ originCityId: CITY.riyadh, date: inDays(day, 1) })).items.map((i) => i.id)).toEqual([inRiyadh.id]);
    // nearest first page by page (each city walked up to the page): the same order, no repeats
    const second = await postTruck(truckBody({ day, originCityId: CITY.alKharj }));
    const all = (await search({ originCityId: CITY.riyadh, radius: 200, date: inDays(day, 1), sort: 'deadhead' })).items.map((i) => i.id);
    expect(all).toHaveLength(4);
    expect(all).toContain(second.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const p: TruckPage = await search({
        originCityId: CITY.riyadh,
        radius: 200,
        date: inDays(day, 1),
        sort: 'deadhead',
        limit: 1,
        ...(cursor ? { cursor } : {}),
      });
      paged.push(...p.items.map((i) => i.id));
      cursor = p.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });

  it('matches the destination: a truck going "anywhere" matches any; a city; a region', async () => {
    const day = 9;
    const [[jeddah], [dammam]] = await Promise.all(
      [CITY.jeddah, CITY.dammam].map((id) => t.database.query<{ region_id: number }>('select region_id from cities where id = $1', [id])),
    );
    const anywhere = await postTruck(truckBody({ day }));
    const toJeddah = await postTruck(truckBody({ day, anywhere: false, destinationCityIds: [CITY.jeddah] }));
    const toEast = await postTruck(truckBody({ day, anywhere: false, destinationRegionIds: [Number(dammam.region_id)] }));
    expect(Number(jeddah.region_id)).not.toBe(Number(dammam.region_id));
    const q = { originCityId: CITY.riyadh, date: inDays(day, 1), sort: 'date' };
    const toJ = (await search({ ...q, destinationCityId: CITY.jeddah })).items.map((i) => i.id);
    expect(toJ.sort()).toEqual([anywhere.id, toJeddah.id].sort());
    const toD = (await search({ ...q, destinationCityId: CITY.dammam })).items.map((i) => i.id);
    expect(toD.sort()).toEqual([anywhere.id, toEast.id].sort());
  });

  it('filters by equipment, date and minimum capacity, sorts by rate, and pages by keyset cursor', async () => {
    const day = 12;
    const cheap = await postTruck(truckBody({ day, minRateSar: '1000', capacityKg: 10_000 }));
    const mid = await postTruck(truckBody({ day, minRateSar: '2000' }));
    const dear = await postTruck(truckBody({ day, minRateSar: '3000' }));
    const q = { originCityId: CITY.riyadh, date: inDays(day, 1), sort: 'rate', limit: 2 };
    const p1 = await search(q);
    expect(p1.items.map((i) => i.id)).toEqual([cheap.id, mid.id]);
    expect(p1.nextCursor).not.toBeNull();
    const p2 = await search({ ...q, cursor: p1.nextCursor! });
    expect(p2.items.map((i) => i.id)).toEqual([dear.id]);
    expect(p2.nextCursor).toBeNull();
    expect((await search({ ...q, minCapacityKg: 20_000 })).items.map((i) => i.id)).toEqual([mid.id, dear.id]);
    expect((await search({ ...q, equipmentType: 'reefer_trailer' })).items).toEqual([]);
    // another day: none of them
    expect((await search({ ...q, date: inDays(day + 5, 1) })).items.map((i) => i.id)).not.toContain(cheap.id);
    // a cursor of another sort is a 400
    expect((await call('GET', `/searchTrucks?sort=date&cursor=${p1.nextCursor}`, shipper.headers)).status).toBe(400);
  });
});

describe('unpost, repost, duplicate, delete', () => {
  it('an unposted truck is hidden from TMS users (search and details) but not from its owner', async () => {
    const day = 15;
    const truck = await postTruck(truckBody({ day }));
    const q = { originCityId: CITY.riyadh, date: inDays(day, 1) };
    expect((await search(q, broker)).items.map((i) => i.id)).toContain(truck.id);
    expect(ok(await call<Truck>('POST', `/truck/${truck.id}/unpost`, carrier.headers)).status).toBe('unposted');
    expect((await search(q, broker)).items.map((i) => i.id)).not.toContain(truck.id);
    expect((await call('GET', `/truck/${truck.id}`, broker.headers)).status).toBe(404);
    expect(ok(await call<Truck>('GET', `/truck/${truck.id}`, carrier.headers)).status).toBe('unposted');
    expect(ok(await call<TruckPage>('GET', '/trucks?tab=unposted', carrier.headers)).items.map((i) => i.id)).toContain(truck.id);
    // someone else cannot unpost or repost it
    expect((await call('POST', `/truck/${truck.id}/repost`, broker.headers)).status).toBe(404);
    expect(ok(await call<Truck>('POST', `/truck/${truck.id}/repost`, carrier.headers)).status).toBe('posted');
    expect((await search(q, broker)).items.map((i) => i.id)).toContain(truck.id);
    const copy = ok(await call<Truck>('POST', `/truck/${truck.id}/duplicate`, carrier.headers));
    expect(copy).toMatchObject({ status: 'unposted', originRadiusKm: null, minRateSar: truck.minRateSar });
    expect(copy.referenceId).not.toBe(truck.referenceId);
    ok(await call('DELETE', `/truck/${truck.id}`, carrier.headers));
    expect((await call('GET', `/truck/${truck.id}`, carrier.headers)).status).toBe(404);
    expect((await search(q, broker)).items.map((i) => i.id)).not.toContain(truck.id);
    expect(await eventsOf(truck.id)).toEqual(['truck.posted', 'truck.unposted', 'truck.posted', 'truck.deleted']);
  });
});

describe('expiry', () => {
  it('the job expires posted trucks whose window ended (truck.expired) and leaves the others', async () => {
    const ended = await postTruck(truckBody({ day: 18 }));
    const open = await postTruck(truckBody({ day: 18 }));
    await t.database.query(`update trucks set available_from = now() - interval '2 days', available_to = now() - interval '1 minute' where id = $1`, [
      ended.id,
    ]);
    // read-time rule before the job: shown expired, off the board
    expect(ok(await call<Truck>('GET', `/truck/${ended.id}`, carrier.headers)).status).toBe('expired');
    expect(await t.app.container.services.trucks.expireDue()).toBeGreaterThanOrEqual(1);
    const [row] = await t.database.query<{ status: string }>('select status from trucks where id = $1', [ended.id]);
    expect(row.status).toBe('expired');
    expect(ok(await call<Truck>('GET', `/truck/${open.id}`, carrier.headers)).status).toBe('posted');
    expect(await eventsOf(ended.id)).toEqual(['truck.posted', 'truck.expired']);
    expect(ok(await call<TruckPage>('GET', '/trucks?tab=expired', carrier.headers)).items.map((i) => i.id)).toContain(ended.id);
    // the next run has nothing left to do for it; an expired truck reposts with a new window only
    expect((await call('POST', `/truck/${ended.id}/repost`, carrier.headers)).body.code).toBe('TRUCK_REPOST_NEEDS_DATES');
    const back = ok(await call<Truck>('POST', `/truck/${ended.id}/repost`, carrier.headers, { availableFrom: inDays(20), availableTo: inDays(21) }));
    expect(back.status).toBe('posted');
  });

  it('the expiry job reads only what is due: an index range of trucks_posted_expiry', async () => {
    const plan = await t.database.session(async (c) => {
      await c.exec('set enable_seqscan = off');
      try {
        return (await c.query<Record<string, string>>(`explain ${DUE_FOR_EXPIRY_SQL}`)).map((r) => Object.values(r)[0]).join('\n');
      } finally {
        await c.exec('reset enable_seqscan');
      }
    });
    expect(plan, plan).toMatch(/trucks_posted_expiry/);
    expect(plan, plan).toMatch(/Index Cond: \(available_to <= now\(\)\)/);
  });
});

describe.runIf(ENGINE === 'postgres')('the truck board’s plans on PostgreSQL', () => {
  it('nearest first runs its generic plan: each city’s trucks_board_equipment range in the page’s order, index-only', async () => {
    const { PgDialect } = await import('drizzle-orm/pg-core');
    const q = { originCityId: CITY.riyadh, radius: 200, equipmentType: 'flatbed_trailer', date: inDays(3), sort: 'deadhead', limit: 20 } as const;
    const built = searchTrucksSql(q);
    expect(built.plan).toBe('generic');
    expect(searchTrucksSql({ ...q, sort: 'rate' }).plan).toBe('custom');
    const s = new PgDialect().sqlToQuery(built.query);
    const literals = s.params.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`));
    const plan = await t.database.session(async (c) => {
      await c.exec('set plan_cache_mode = force_generic_plan');
      try {
        await c.exec(`prepare nearest_trucks as ${s.sql}`);
        return (await c.query<Record<string, string>>(`explain (costs off) execute nearest_trucks(${literals.join(', ')})`))
          .map((r) => Object.values(r)[0])
          .join('\n');
      } finally {
        await c.exec('deallocate nearest_trucks');
        await c.exec('reset plan_cache_mode');
      }
    });
    expect(plan, plan).toMatch(/Index Only Scan using trucks_board_equipment on trucks/);
    expect(plan, plan).not.toMatch(/Seq Scan on trucks|trucks_inout_origin/);
  });
});

describe('matching both ways', () => {
  it('a posted load lists the matching trucks (deadhead, then rate per km) and a posted truck the matching loads', async () => {
    // the load: Riyadh → Jeddah, flatbed, 20 t, picked up in 2 days (loadBody)
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: 24 }));
    const base = { availableFrom: inDays(23), availableTo: inDays(26) };
    const inRiyadhDear = await postTruck(truckBody({ ...base, minRateSar: '9000' }));
    const inRiyadhCheap = await postTruck(truckBody({ ...base, minRateSar: '2', rateBasis: 'km', anywhere: false, destinationCityIds: [CITY.jeddah] }));
    const kharj = await postTruck(truckBody({ ...base, originCityId: CITY.alKharj }));
    const small = await postTruck(truckBody({ ...base, capacityKg: 10_000 }));
    const toDammam = await postTruck(truckBody({ ...base, anywhere: false, destinationCityIds: [CITY.dammam] }));
    const later = await postTruck(truckBody({ availableFrom: inDays(27), availableTo: inDays(28) }));
    const reefer = await postTruck(truckBody({ ...base, equipmentType: 'reefer_trailer' }), broker).catch(() => null);

    const m = ok(await call<{ items: (Truck & { ratePerKmSar: string | null })[] }>('GET', `/loads/${load.id}/matching-trucks?limit=50`, shipper.headers));
    const ids = m.items.map((i) => i.id);
    expect(ids.slice(0, 2)).toEqual([inRiyadhCheap.id, inRiyadhDear.id]);
    expect(ids).toContain(kharj.id);
    expect(ids.indexOf(kharj.id)).toBeGreaterThan(1);
    for (const no of [small, toDammam, later, reefer].filter(Boolean)) expect(ids).not.toContain(no!.id);
    expect(m.items[0].ratePerKmSar).toBe('2.00');
    expect((await call('GET', `/loads/${load.id}/matching-trucks`, carrier.headers)).status).toBe(404);

    const loads = ok(await call<{ items: { id: string; deadheadKm: number }[] }>('GET', `/truck/${kharj.id}/matching-loads`, carrier.headers));
    expect(loads.items.map((l) => l.id)).toContain(load.id);
    expect(loads.items.find((l) => l.id === load.id)!.deadheadKm).toBeGreaterThan(0);
    expect(ok(await call<{ items: { id: string }[] }>('GET', `/truck/${small.id}/matching-loads`, carrier.headers)).items.map((l) => l.id)).not.toContain(
      load.id,
    );
    expect((await call('GET', `/truck/${kharj.id}/matching-loads`, broker.headers)).status).toBe(404);
  });
});
