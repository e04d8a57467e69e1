import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type BackhaulsResponse, type CreateTruckBody, type Load, type Truck } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { CITY, inDays, loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';

// Backhauls (issue 19; spec §2 backhauls, §7 /backHaulLoads, /get/backHaulLoads): for a shipment I
// carry, open loads picked up near its last drop on or after its delivery day, ranked by deadhead
// then rate per km; the same from my posted truck's destination. Runs on PGlite and PostgreSQL.

let t: TestContext;
let shipper: TestUser;
let other: TestUser;
let carrier: TestUser;
let booked: Load;
const { call, ok } = apiCaller(() => t);
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Gulf Shippers' });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  // the shipment the carrier books: Jeddah → Riyadh, picked up in 2 days, delivered in 4
  booked = await postLoad(t.app, shipper.headers, loadBody({ from: CITY.jeddah, to: CITY.riyadh, bookNow: true }));
  const b = await call('POST', '/bookNow', { ...carrier.headers, 'idempotency-key': randomUUID() }, { loadId: booked.id, priceSar: '3000' });
  expect(b.status, JSON.stringify(b.body)).toBeLessThan(300);
  // candidates around Riyadh, all to Dammam
  const post = async (name: string, from: number, day: number, price: number, hours = 0, equipmentType = 'flatbed_trailer') => {
    const body = loadBody({ from, to: CITY.dammam, price, equipmentType });
    body.stops[0].date = inDays(day, hours);
    body.stops[1].date = inDays(day + 1, hours);
    ids[name] = (await postLoad(t.app, other.headers, body)).id;
  };
  await post('riyadhCheap', CITY.riyadh, 6, 3000);
  await post('riyadhBest', CITY.riyadh, 6, 6000);
  await post('riyadhDeliveryDay', CITY.riyadh, 4, 4000, 1);
  await post('riyadhReefer', CITY.riyadh, 7, 2000, 0, 'reefer_truck');
  await post('sufarat99', CITY.asSufarat, 6, 9000);
  await post('uwaysiyah199', CITY.alUwaysiyah, 6, 9000);
  await post('nukhaylan201', CITY.nukhaylan, 6, 9000);
  await post('tooEarly', CITY.riyadh, 1, 9000);
  // more than 7 days after the delivery day: not a backhaul any more
  await post('tooLate', CITY.riyadh, 12, 9000);
  // the carrier's own shipper's loads are fine; a load of the viewer itself never shows (carriers do not post loads)
});
afterAll(() => t?.close());

const backhauls = (query: string, who = carrier, path = '/backHaulLoads') => call<BackhaulsResponse>('GET', `${path}?${query}`, who.headers);
const names = (r: BackhaulsResponse) => {
  const byId = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
  return r.items.map((i) => byId.get(i.id) ?? i.id);
};

describe('backhauls of a shipment I carry', () => {
  it('finds open loads near the drop, on or after the delivery day, by deadhead then rate per km', async () => {
    const r = ok(await backhauls(`loadId=${booked.id}`));
    expect(r.from).toMatchObject({ cityId: CITY.riyadh, cityEn: 'Riyadh', radiusKm: 200 });
    expect(Date.parse(r.from.after)).toBeLessThanOrEqual(Date.parse(booked.stops[1].date));
    expect(Date.parse(booked.stops[1].date) - Date.parse(r.from.after)).toBeLessThan(86_400_000);
    expect(Date.parse(r.from.until) - Date.parse(r.from.after)).toBe(7 * 86_400_000);
    // at 0 km the best rate per km first; the rest by distance; 200.9 km is outside; too early and too late are out
    expect(names(r)).toEqual(['riyadhBest', 'riyadhDeliveryDay', 'riyadhCheap', 'riyadhReefer', 'sufarat99', 'uwaysiyah199']);
    expect(r.items[0]).toMatchObject({
      pickupCityId: CITY.riyadh,
      dropCityId: CITY.dammam,
      deadheadKm: 0,
      priceSar: '6000.00',
      shipperCompany: 'Gulf Shippers',
    });
    expect(r.items.find((i) => i.id === ids.sufarat99)!.deadheadKm).toBeCloseTo(99.1, 0);
    const rates = r.items.filter((i) => i.deadheadKm === 0).map((i) => Number(i.ratePerKmSar));
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
  });

  it('takes the radius options, an equipment filter and a limit; /get/backHaulLoads is the same', async () => {
    expect(names(ok(await backhauls(`loadId=${booked.id}&radius=300`)))).toContain('nukhaylan201');
    expect(names(ok(await backhauls(`loadId=${booked.id}&radius=50`)))).toEqual(['riyadhBest', 'riyadhDeliveryDay', 'riyadhCheap', 'riyadhReefer']);
    expect(names(ok(await backhauls(`loadId=${booked.id}&radius=50&equipmentType=reefer_truck`)))).toEqual(['riyadhReefer']);
    expect(names(ok(await backhauls(`loadId=${booked.id}&limit=2`)))).toEqual(['riyadhBest', 'riyadhDeliveryDay']);
    expect(ok(await backhauls(`loadId=${booked.id}`, carrier, '/get/backHaulLoads'))).toEqual(ok(await backhauls(`loadId=${booked.id}`)));
    expect((await backhauls(`loadId=${booked.id}&radius=123`)).status).toBe(400);
    expect((await backhauls(`loadId=${booked.id}&limit=51`)).status).toBe(400);
  });

  it('is for the booked carrier only: the shipper, other carriers and an unbooked load are 404', async () => {
    expect((await backhauls(`loadId=${booked.id}`, shipper)).status).toBe(404);
    const stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    expect((await backhauls(`loadId=${booked.id}`, stranger)).status).toBe(404);
    expect((await backhauls(`loadId=${ids.riyadhCheap}`)).status).toBe(404);
    expect((await backhauls(`loadId=${randomUUID()}`)).status).toBe(404);
    expect((await call('GET', `/backHaulLoads?loadId=${booked.id}`, {})).status).toBe(401);
  });

  it('is refused with BACKHAUL_NOT_BOOKED once the shipment is cancelled', async () => {
    const l = await postLoad(t.app, shipper.headers, loadBody({ from: CITY.jeddah, to: CITY.riyadh, bookNow: true }));
    ok(await call('POST', '/bookNow', { ...carrier.headers, 'idempotency-key': randomUUID() }, { loadId: l.id, priceSar: '3000' }), 201);
    ok(await backhauls(`loadId=${l.id}`));
    ok(await call('DELETE', `/loads/${l.id}`, shipper.headers));
    const r = await backhauls(`loadId=${l.id}`);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('BACKHAUL_NOT_BOOKED');
  });
});

describe('backhauls of my posted truck', () => {
  const truckBody = (over: Partial<CreateTruckBody> = {}): CreateTruckBody => ({
    loadType: 'FTL',
    equipmentType: 'flatbed_trailer',
    availableFrom: inDays(2),
    availableTo: inDays(4),
    originCityId: CITY.jeddah,
    anywhere: false,
    destinationCityIds: [CITY.riyadh],
    minRateSar: '2500',
    rateBasis: 'trip',
    capacityKg: 25_000,
    ...over,
  });
  const postTruck = async (body: CreateTruckBody) =>
    ok(await call<Truck>('POST', '/truck', { ...carrier.headers, 'idempotency-key': randomUUID() }, body), 201);

  it('starts from its one destination city on the day its availability ends', async () => {
    const truck = await postTruck(truckBody());
    const r = ok(await call<BackhaulsResponse>('GET', `/truck/${truck.id}/backhauls`, carrier.headers));
    expect(r.from).toMatchObject({ cityId: CITY.riyadh, cityAr: expect.any(String), radiusKm: 200 });
    expect(names(r)).toEqual(['riyadhBest', 'riyadhDeliveryDay', 'riyadhCheap', 'riyadhReefer', 'sufarat99', 'uwaysiyah199']);
    const reefer = ok(await call<BackhaulsResponse>('GET', `/truck/${truck.id}/backhauls?equipmentType=reefer_truck&radius=100`, carrier.headers));
    expect(names(reefer)).toEqual(['riyadhReefer']);
    // a window ending later leaves out what is picked up before its last day
    const later = await postTruck(truckBody({ availableFrom: inDays(3), availableTo: inDays(6, 2) }));
    expect(names(ok(await call<BackhaulsResponse>('GET', `/truck/${later.id}/backhauls`, carrier.headers)))).not.toContain('riyadhDeliveryDay');
  });

  it('needs exactly one destination city (400), the owner (404), and is empty when unposted', async () => {
    const anywhere = await postTruck(truckBody({ anywhere: true, destinationCityIds: [] }));
    const r = await call('GET', `/truck/${anywhere.id}/backhauls`, carrier.headers);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BACKHAUL_TRUCK_DESTINATION');
    const two = await postTruck(truckBody({ destinationCityIds: [CITY.riyadh, CITY.dammam] }));
    expect((await call('GET', `/truck/${two.id}/backhauls`, carrier.headers)).status).toBe(400);
    const truck = await postTruck(truckBody());
    const stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    expect((await call('GET', `/truck/${truck.id}/backhauls`, stranger.headers)).status).toBe(404);
    ok(await call('POST', `/truck/${truck.id}/unpost`, carrier.headers));
    expect(ok(await call<BackhaulsResponse>('GET', `/truck/${truck.id}/backhauls`, carrier.headers)).items).toEqual([]);
  });
});
