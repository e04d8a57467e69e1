import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, SHIPMENT_TYPE, type Load, type MyLoadsTab } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser, type TestUser } from '../../../test/fixtures.ts';
import { vendorBody } from '../vendors/vendors.testkit.ts';
import { CITY, inDays, loadBody, postLoad } from './loads.testkit.ts';

// Issue 7, the complete post form: shipment terms, vendor / own-vehicle shipments, extend dates,
// bookmarks and the my-shipments tabs with More Options.

let t: TestContext;
let shipper: TestUser;
let vendorCarrier: TestUser;
let outsider: TestUser;
let linkedVendorId: string;
let unlinkedVendorId: string;

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: TestUser, payload?: unknown) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: who.headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

const tab = async (who: TestUser, name: MyLoadsTab) => {
  const res = await api('GET', `/my-loads?tab=${name}&limit=50`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { items: Load[]; total: number; counts: Record<MyLoadsTab, number> } }>().data;
};

const board = async (who: TestUser, day: number) => {
  const qs = new URLSearchParams({ pickupFrom: inDays(day - 0.5), pickupTo: inDays(day + 0.5), limit: '100' });
  const res = await api('GET', `/loads?${qs.toString()}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { items: Load[] } }>().data.items.map((l) => l.id);
};

const address = (over: Record<string, string> = {}) => ({
  buildingNumber: '2345',
  streetName: 'King Fahd Road',
  district: 'Al Olaya',
  region: 'Riyadh Region',
  zipCode: '12211',
  additionalNumber: '6789',
  unitNumber: '12',
  businessName: 'Nakl Trading',
  ...over,
});

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  vendorCarrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  outsider = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  // a vendor whose phone is a registered carrier's (the link), and one with no account
  const v1 = await api('POST', '/vendors', shipper, vendorBody({ phone: vendorCarrier.phone }));
  expect(v1.statusCode, v1.body).toBe(201);
  linkedVendorId = v1.json().data.id;
  const v2 = await api('POST', '/vendors', shipper, vendorBody());
  expect(v2.statusCode, v2.body).toBe(201);
  unlinkedVendorId = v2.json().data.id;
});
afterAll(() => t?.close());

describe('POST /loads with the complete form', () => {
  it('round-trips every term and the structured stop addresses', async () => {
    const body = loadBody({ day: 3 });
    body.stops[0] = { ...body.stops[0], addressDetails: address() };
    body.stops[1] = { ...body.stops[1], addressDetails: address({ businessName: 'Receiver Co', zipCode: '21577' }) };
    const load = await postLoad(t.app, shipper.headers, {
      ...body,
      // six hours after the earliest pickup (computed from it: a second inDays() call is a few ms later)
      pickupLatest: new Date(Date.parse(body.stops[0].date) + 6 * 3_600_000).toISOString(),
      pickupHours: { from: '08:00', to: '17:00' },
      dropHours: { from: '09:30', to: '18:00' },
      paymentMethod: 'bank_transfer',
      paidBy: 'receiver',
      paymentTermsDays: 30,
      detentionFreeHours: 4,
      detentionRateSar: '75.5',
      deliveryType: 'door_to_port',
      deliveryTo: 'Jeddah Islamic Port, gate 5',
      tradable: true,
    });
    const got = (await api('GET', `/loads/${load.id}`, shipper)).json<{ data: Load }>().data;
    expect(got).toMatchObject({
      pickupHours: { from: '08:00', to: '17:00' },
      dropHours: { from: '09:30', to: '18:00' },
      paymentMethod: 'bank_transfer',
      paidBy: 'receiver',
      paymentTermsDays: 30,
      detentionFreeHours: 4,
      detentionRateSar: '75.50',
      deliveryType: 'door_to_port',
      deliveryTo: 'Jeddah Islamic Port, gate 5',
      tradable: true,
      shipmentType: SHIPMENT_TYPE.marketplace,
      bookmarked: false,
    });
    expect(Date.parse(got.pickupLatest!) - Date.parse(got.pickupAt)).toBe(6 * 3_600_000);
    expect(got.stops[0].addressDetails).toEqual(address());
    expect(got.stops[1].addressDetails).toMatchObject({ businessName: 'Receiver Co', zipCode: '21577' });
    expect(got.options).toEqual(['edit', 'extend_dates', 'unpost', 'duplicate', 'cancel']);
  });

  it('refuses a pickup window ending after the delivery and a zero-like address, localized', async () => {
    const late = await api('POST', '/loads', shipper, { ...loadBody(), pickupLatest: inDays(10) });
    expect(late.statusCode).toBe(400);
    expect(late.json().errors).toContainEqual(expect.objectContaining({ path: 'pickupLatest' }));
    const body = loadBody();
    body.stops[0] = { ...body.stops[0], addressDetails: address({ streetName: '0' }) };
    const zero = await t.app.inject({ method: 'POST', url: '/api/v1/loads', headers: { ...shipper.headers, language: 'ar' }, payload: body });
    expect(zero.statusCode).toBe(400);
    const err = zero.json().errors.find((e: { path: string }) => e.path === 'stops.0.addressDetails.streetName');
    expect(err?.message).toMatch(/[\u0600-\u06FF]/);
  });
});

describe('vendor shipments', () => {
  it('are visible and biddable only for the chosen vendors, never on the board', async () => {
    const load = await postLoad(t.app, shipper.headers, { ...loadBody({ day: 5 }), shipmentType: SHIPMENT_TYPE.vendor, vendorIds: [linkedVendorId] });
    expect(load).toMatchObject({ status: 'posted', shipmentType: 2, vendorIds: [linkedVendorId] });
    const market = await postLoad(t.app, shipper.headers, loadBody({ day: 5 }));
    // the board: the marketplace load only
    const ids = await board(outsider, 5);
    expect(ids).toContain(market.id);
    expect(ids).not.toContain(load.id);
    expect(await board(vendorCarrier, 5)).not.toContain(load.id);
    // details: the vendor yes (without the vendor list), others 404
    const seen = await api('GET', `/loads/${load.id}`, vendorCarrier);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data.vendorIds).toEqual([]);
    expect((await api('GET', `/loads/${load.id}`, outsider)).statusCode).toBe(404);
    // bids
    expect((await api('POST', '/offers', outsider, { loadId: load.id, priceSar: '2800' })).statusCode).toBe(404);
    expect((await api('POST', '/offers', vendorCarrier, { loadId: load.id, priceSar: '2800' })).statusCode).toBe(201);
    // "from my customers"
    const customers = await tab(vendorCarrier, 'customers');
    expect(customers.items.map((l) => l.id)).toContain(load.id);
    expect(customers.items.map((l) => l.id)).not.toContain(market.id);
    expect((await tab(outsider, 'customers')).total).toBe(0);
  });

  it('needs at least one vendor, linked to an account', async () => {
    const none = await api('POST', '/loads', shipper, { ...loadBody(), shipmentType: 2 });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toContainEqual(expect.objectContaining({ path: 'vendorIds' }));
    const unlinked = await api('POST', '/loads', shipper, { ...loadBody(), shipmentType: 2, vendorIds: [unlinkedVendorId] });
    expect(unlinked.statusCode).toBe(400);
    expect(unlinked.json().code).toBe('VENDOR_NOT_LINKED');
  });

  it('change audience: a marketplace load goes to a vendor and leaves the board', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: 6 }));
    expect(await board(outsider, 6)).toContain(load.id);
    const res = await api('POST', `/loads/${load.id}/audience`, shipper, { shipmentType: 2, vendorIds: [linkedVendorId] });
    expect(res.statusCode, res.body).toBe(200);
    expect(await board(outsider, 6)).not.toContain(load.id);
    expect((await api('GET', `/loads/${load.id}`, outsider)).statusCode).toBe(404);
    expect((await api('GET', `/loads/${load.id}`, vendorCarrier)).statusCode).toBe(200);
    const back = await api('POST', `/loads/${load.id}/audience`, shipper, { shipmentType: 1 });
    expect(back.statusCode).toBe(200);
    expect(await board(outsider, 6)).toContain(load.id);
  });
});

describe('own-vehicle shipments', () => {
  it('are created booked (unassigned, carrier = owner), off the board, with the owner-carrier options', async () => {
    const load = await postLoad(t.app, shipper.headers, { ...loadBody({ day: 7 }), shipmentType: SHIPMENT_TYPE.ownVehicle });
    expect(load).toMatchObject({ status: 'unassigned', carrierId: shipper.id, bookedPriceSar: '3000.00', shipmentType: 3 });
    expect(load.options).toEqual(['duplicate', 'assign', 'cancel']);
    expect(await board(outsider, 7)).not.toContain(load.id);
    expect((await api('GET', `/loads/${load.id}`, outsider)).statusCode).toBe(404);
    const [row] = await t.database.query<{ n: number }>(`select count(*)::int as n from outbox_events where aggregate_id = $1 and type = 'load.booked'`, [
      load.id,
    ]);
    expect(row.n).toBe(1);
  });
});

describe('POST /loads/:id/extend-dates', () => {
  it('moves the pickup and delivery later by at most 30 days, stops in order', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: 2 }));
    const tooFar = await api('POST', `/loads/${load.id}/extend-dates`, shipper, { deliveryDate: inDays(4 + 31) });
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.json().code).toBe('EXTEND_DATES_RANGE');
    const earlier = await api('POST', `/loads/${load.id}/extend-dates`, shipper, { deliveryDate: inDays(3) });
    expect(earlier.json().code).toBe('EXTEND_DATES_RANGE');
    // the pickup past the drop: out of order
    const outOfOrder = await api('POST', `/loads/${load.id}/extend-dates`, shipper, { pickupDate: inDays(10) });
    expect(outOfOrder.json().code).toBe('EXTEND_DATES_RANGE');
    const ok = await api('POST', `/loads/${load.id}/extend-dates`, shipper, { pickupDate: inDays(3), deliveryDate: inDays(20) });
    expect(ok.statusCode, ok.body).toBe(200);
    const got = ok.json<{ data: Load }>().data;
    expect(Math.round((Date.parse(got.pickupAt) - Date.now()) / 86_400_000)).toBe(3);
    expect(Math.round((Date.parse(got.dropAt) - Date.now()) / 86_400_000)).toBe(20);
    expect(Date.parse(got.expiresAt!) - Date.parse(got.pickupAt)).toBe(t.config.LOAD_EXPIRY_HOURS_AFTER_PICKUP * 3_600_000);
    const other = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    expect((await api('POST', `/loads/${load.id}/extend-dates`, other, { pickupDate: inDays(3.5) })).statusCode).toBe(404);
    // cancelled: no more
    expect((await api('DELETE', `/loads/${load.id}`, shipper)).statusCode).toBe(200);
    expect((await api('POST', `/loads/${load.id}/extend-dates`, shipper, { deliveryDate: inDays(21) })).statusCode).toBe(404);
  });
});

describe('bookmarks and my-shipments tabs', () => {
  it('bookmarks a load, lists it in the bookmarks tab and un-bookmarks it', async () => {
    const me = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: 8 }));
    expect((await api('POST', `/loads/${load.id}/bookmark`, me)).statusCode).toBe(200);
    expect((await api('POST', `/loads/${load.id}/bookmark`, me)).statusCode).toBe(200);
    const b = await tab(me, 'bookmarks');
    expect(b.items.map((l) => l.id)).toEqual([load.id]);
    expect(b.items[0].bookmarked).toBe(true);
    expect(b.counts.bookmarks).toBe(1);
    expect((await api('GET', `/loads/${load.id}`, me)).json().data.bookmarked).toBe(true);
    expect((await api('DELETE', `/loads/${load.id}/bookmark`, me)).statusCode).toBe(200);
    expect((await tab(me, 'bookmarks')).total).toBe(0);
    // a load I may not see cannot be bookmarked
    const hidden = await postLoad(t.app, shipper.headers, { ...loadBody(), post: false });
    expect((await api('POST', `/loads/${hidden.id}/bookmark`, me)).statusCode).toBe(404);
  });

  it('counts every status tab and gives options per role', async () => {
    const owner = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    await postLoad(t.app, owner.headers, loadBody({ day: 9 }));
    await postLoad(t.app, owner.headers, { ...loadBody({ day: 9 }), post: false });
    const own = await postLoad(t.app, owner.headers, { ...loadBody({ day: 9 }), shipmentType: 3 });
    const booked = await postLoad(t.app, owner.headers, loadBody({ day: 9 }));
    const bid = await api('POST', '/offers', carrier, { loadId: booked.id, priceSar: '3000' });
    expect(bid.statusCode, bid.body).toBe(201);
    const accept = await api('POST', '/offerRespond', owner, { offerId: bid.json().data.id, action: 'accept' });
    expect(accept.statusCode, accept.body).toBe(200);
    const cancelled = await postLoad(t.app, owner.headers, loadBody({ day: 9 }));
    expect((await api('DELETE', `/loads/${cancelled.id}`, owner)).statusCode).toBe(200);

    const mine = await tab(owner, 'unassigned');
    expect(mine.counts).toMatchObject({ posted: 1, unposted: 1, unassigned: 2, assigned: 0, pending_bayan: 0, completed: 0, cancelled: 1, active: 2 });
    expect(mine.items.map((l) => l.id).sort()).toEqual([own.id, booked.id].sort());
    expect((await tab(owner, 'cancelled')).items.map((l) => l.id)).toEqual([cancelled.id]);
    expect((await tab(owner, 'finished')).items.map((l) => l.id)).toContain(cancelled.id);
    // options: the owner of a booked marketplace load may cancel; its carrier assigns
    expect(mine.items.find((l) => l.id === booked.id)!.options).toEqual(['duplicate', 'cancel']);
    const asCarrier = await tab(carrier, 'unassigned');
    expect(asCarrier.counts.unassigned).toBe(1);
    expect(asCarrier.items[0].options).toEqual(['assign']);
    const seen = (await api('GET', `/loads/${booked.id}`, carrier)).json<{ data: Load }>().data;
    expect(seen.options).toEqual(['assign']);
  });
});

describe('pickup search radius', () => {
  it("accepts the spec's 150 km pickup radius and finds a load 99 km out", async () => {
    const near = await postLoad(t.app, shipper.headers, loadBody({ day: 11, from: CITY.asSufarat }));
    const qs = (r: number) =>
      `/loads?pickupCityId=${CITY.riyadh}&radius=${r}&pickupFrom=${encodeURIComponent(inDays(10.5))}&pickupTo=${encodeURIComponent(inDays(11.5))}`;
    const ok = await api('GET', qs(150), outsider);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.items.map((l: Load) => l.id)).toContain(near.id);
    expect((await api('GET', qs(400), outsider)).statusCode).toBe(400);
  });
});
