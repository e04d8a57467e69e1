import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Load, type Offer } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { vendorBody } from '../src/modules/vendors/vendors.testkit.ts';

/**
 * Book Now (issue 19): a verified carrier with a plan books a Book Now load at its posted price in
 * one step, through the loads lifecycle, atomically. Runs on PGlite and PostgreSQL.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const bookNow = (who: TestUser, loadId: string, priceSar = '3000', lang = 'en') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/bookNow',
    headers: { ...who.headers, language: lang, 'idempotency-key': randomUUID() },
    payload: { loadId, priceSar },
  });
const loadOf = async (id: string, who = shipper) => (await t.app.inject({ url: `/api/v1/loads/${id}`, headers: who.headers })).json<{ data: Load }>().data;
const outboxTypes = async (loadId: string) =>
  (await t.database.query<{ type: string }>('select type from outbox_events where aggregate_id = $1 order by seq', [loadId])).map((r) => r.type);

describe('Book Now', () => {
  it('is a flag on the load, set when posting and changed when editing', async () => {
    const plain = await postLoad(t.app, shipper.headers);
    expect(plain).toMatchObject({ bookNow: false, bookNowFor: null });
    const load = await postLoad(t.app, shipper.headers, loadBody({ bookNow: true }));
    expect(load).toMatchObject({ bookNow: true, bookNowFor: 'verified' });
    const edit = (payload: object) => t.app.inject({ method: 'PATCH', url: `/api/v1/loads/${load.id}`, headers: shipper.headers, payload });
    expect((await edit({ bookNowFor: 'vendors' })).json().data).toMatchObject({ bookNow: true, bookNowFor: 'vendors' });
    expect((await edit({ bookNow: false })).json().data).toMatchObject({ bookNow: false, bookNowFor: null });
    // a bookNowFor alone does not turn Book Now on
    expect((await edit({ bookNowFor: 'verified' })).json().data).toMatchObject({ bookNow: false, bookNowFor: null });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/loads',
      headers: shipper.headers,
      payload: loadBody({ bookNow: true, bookNowFor: 'anyone' as never }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ path: 'bookNowFor' });
  });

  it('books at the posted price in one step, with the same events as accepting, and closes the open offers', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ bookNow: true, price: 2750.5 }));
    const bidder = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const bid = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: bidder.headers, payload: { loadId: load.id, priceSar: '2600' } });
    expect(bid.statusCode, bid.body).toBe(201);
    // my own earlier bid is superseded by the booking
    const mine = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: carrier.headers, payload: { loadId: load.id, priceSar: '2500' } });
    expect(mine.statusCode, mine.body).toBe(201);

    const res = await bookNow(carrier, load.id, '2750.50', 'ar');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('تم الحجز بالسعر المعلن.');
    const offer = res.json<{ data: Offer }>().data;
    expect(offer).toMatchObject({ status: 'accepted', priceSar: '2750.50', carrierId: carrier.id, loadId: load.id });

    // agreed price = posted price (loadPriceOf: bookedPriceSar)
    expect(await loadOf(load.id)).toMatchObject({ status: 'unassigned', carrierId: carrier.id, bookedPriceSar: '2750.50', offersCount: 0 });
    const list = await t.app.inject({ url: `/api/v1/offers?loadId=${load.id}`, headers: shipper.headers });
    const byId = new Map(list.json<{ data: { items: Offer[] } }>().data.items.map((o) => [o.id, o.status]));
    expect(byId.get(bid.json().data.id)).toBe('closed');
    expect(byId.get(mine.json().data.id)).toBe('withdrawn');
    expect(byId.get(offer.id)).toBe('accepted');

    const types = await outboxTypes(load.id);
    expect(types.slice(types.indexOf('offer.withdrawn'))).toEqual(['offer.withdrawn', 'offer.accepted', 'load.booked', 'offer.closed']);
    const [booked] = await t.database.query<{ data: Record<string, unknown> }>(
      `select data from outbox_events where aggregate_id = $1 and type = 'load.booked'`,
      [load.id],
    );
    expect(booked.data).toMatchObject({ offerId: offer.id, carrierId: carrier.id, bookedPriceSar: '2750.50', shipperId: shipper.id });

    // the booked load is off the board for everyone else
    const again = await bookNow(bidder, load.id, '2750.50');
    expect(again.json()).toMatchObject({ code: 'SHIPMENT_ALREADY_ASSIGNED' });
  });

  it('refuses a load that is not Book Now, a changed price, my own load, and carriers without a plan or approval', async () => {
    const plain = await postLoad(t.app, shipper.headers);
    const r1 = await bookNow(carrier, plain.id, '3000', 'ar');
    expect(r1.statusCode).toBe(409);
    expect(r1.json()).toMatchObject({ code: 'BOOK_NOW_UNAVAILABLE', message: 'لا يمكن حجز هذه الشحنة فوراً بسعرها المعلن.' });

    const load = await postLoad(t.app, shipper.headers, loadBody({ bookNow: true }));
    await t.app.inject({ method: 'PATCH', url: `/api/v1/loads/${load.id}`, headers: shipper.headers, payload: { priceSar: '3100' } });
    expect((await bookNow(carrier, load.id, '3000')).json()).toMatchObject({ code: 'BOOK_NOW_PRICE_CHANGED' });

    const broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    const own = await postLoad(t.app, broker.headers, loadBody({ bookNow: true }));
    expect((await bookNow(broker, own.id)).json()).toMatchObject({ code: 'OWN_LOAD_BID' });
    expect((await bookNow(shipper, load.id, '3100')).json()).toMatchObject({ code: 'WRONG_ROLE' });
    const noPlan = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, plan: false });
    expect((await bookNow(noPlan, load.id, '3100')).json()).toMatchObject({ code: 'PLAN_REQUIRED' });
    const unverified = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, approved: false });
    expect((await bookNow(unverified, load.id, '3100')).json()).toMatchObject({ code: 'ACCOUNT_NOT_APPROVED' });
    // nothing was booked by the refusals
    expect((await loadOf(load.id)).status).toBe('posted');
    const ok = await bookNow(carrier, load.id, '3100.00');
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('limited to my vendors: only the account of one of my verified vendors books', async () => {
    const trusted = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const v = await t.app.inject({ method: 'POST', url: '/api/v1/vendors', headers: shipper.headers, payload: vendorBody({ phone: trusted.phone }) as object });
    expect(v.statusCode, v.body).toBe(201);
    const load = await postLoad(t.app, shipper.headers, loadBody({ bookNow: true, bookNowFor: 'vendors' }));
    const stranger = await bookNow(carrier, load.id, '3000', 'ar');
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json()).toMatchObject({ code: 'BOOK_NOW_NOT_TRUSTED', message: 'يتيح الشاحن الحجز الفوري لمورّديه فقط.' });
    const res = await bookNow(trusted, load.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(await loadOf(load.id)).toMatchObject({ status: 'unassigned', carrierId: trusted.id });
  });

  it('the board filters Book Now loads', async () => {
    const yes = await postLoad(t.app, shipper.headers, loadBody({ bookNow: true, from: 13, to: 3 }));
    const no = await postLoad(t.app, shipper.headers, loadBody({ from: 13, to: 3 }));
    const ids = async (q: string) =>
      (await t.app.inject({ url: `/api/v1/loads?pickupCityId=13&limit=100${q}`, headers: carrier.headers }))
        .json<{ data: { items: Load[] } }>()
        .data.items.map((l) => l.id);
    const only = await ids('&bookNow=true');
    expect(only).toContain(yes.id);
    expect(only).not.toContain(no.id);
    expect(await ids('')).toEqual(expect.arrayContaining([yes.id, no.id]));
  });

  it('50 racing carriers: exactly one booking, 49 clear localized refusals, no 5xx', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ bookNow: true }));
    const carriers: TestUser[] = [];
    for (let i = 0; i < 50; i++) carriers.push(await createUser(t, { accountType: ACCOUNT_TYPE.carrier }));
    const answers = await Promise.all(carriers.map((c, i) => bookNow(c, load.id, '3000', i % 2 ? 'ar' : 'en')));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c >= 500)).toEqual([]);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    const losers = answers.filter((a) => a.statusCode !== 201);
    expect(losers).toHaveLength(49);
    for (const [i, a] of answers.entries()) {
      if (a.statusCode === 201) continue;
      expect(a.statusCode).toBe(409);
      expect(a.json()).toMatchObject({
        code: 'SHIPMENT_ALREADY_ASSIGNED',
        message: i % 2 ? 'تم إسناد هذه الشحنة مسبقاً.' : 'This shipment is already assigned.',
      });
    }
    const winner = carriers[codes.indexOf(201)];
    expect(await loadOf(load.id)).toMatchObject({ status: 'unassigned', carrierId: winner.id, bookedPriceSar: '3000.00' });
    const rows = await t.database.query<{ n: number }>(`select count(*)::int as n from offers where load_id = $1 and status = 'accepted'`, [load.id]);
    expect(rows[0].n).toBe(1);
    expect((await outboxTypes(load.id)).filter((x) => x === 'load.booked')).toHaveLength(1);
  });
});
