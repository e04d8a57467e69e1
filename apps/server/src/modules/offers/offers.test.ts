import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Load, type Offer } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser, type TestUser } from '../../../test/fixtures.ts';
import { CITY, loadBody, postLoad } from '../loads/loads.testkit.ts';

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let carrier2: TestUser;
let broker: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  carrier2 = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
});
afterAll(() => t?.close());

const bid = (who: TestUser, loadId: string, price = 2800, lang = 'en') =>
  t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: { ...who.headers, language: lang }, payload: { loadId, priceSar: String(price) } });
const respond = (who: TestUser, offerId: string, action: 'accept' | 'reject' | 'counter', price?: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/offerRespond',
    headers: who.headers,
    payload: { offerId, action, ...(price ? { priceSar: String(price) } : {}) },
  });
const offerOf = async (who: TestUser, loadId: string, price?: number): Promise<Offer> => {
  const res = await bid(who, loadId, price);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: Offer }>().data;
};
const loadOf = async (id: string, who = shipper) => (await t.app.inject({ url: `/api/v1/loads/${id}`, headers: who.headers })).json<{ data: Load }>().data;

describe('bid, counter, accept', () => {
  it('runs the turn-based negotiation and books the load at the last price', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const offer = await offerOf(carrier, load.id, 2800);
    expect(offer).toMatchObject({
      status: 'pending',
      priceSar: '2800.00',
      originalPriceSar: '2800.00',
      lastOfferBy: 'carrier',
      loadReferenceId: load.referenceId,
      lane: { fromEn: 'Riyadh', toEn: 'Jeddah' },
    });

    expect((await respond(carrier, offer.id, 'counter', 2900)).json()).toMatchObject({ code: 'NOT_YOUR_TURN' });
    expect((await respond(carrier, offer.id, 'accept')).json()).toMatchObject({ code: 'NOT_YOUR_TURN' });
    const counter = await respond(shipper, offer.id, 'counter', 2500);
    expect(counter.statusCode, counter.body).toBe(200);
    expect(counter.json().data).toMatchObject({ priceSar: '2500.00', lastOfferBy: 'shipper', status: 'pending', originalPriceSar: '2800.00' });
    expect((await respond(shipper, offer.id, 'accept')).json()).toMatchObject({ code: 'NOT_YOUR_TURN' });
    expect((await respond(carrier2, offer.id, 'accept')).statusCode).toBe(404);

    const other = await offerOf(carrier2, load.id, 2700);
    const accepted = await respond(carrier, offer.id, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    const data = accepted.json<{ data: Offer }>().data;
    expect(data.status).toBe('accepted');
    expect(data.history.map((h) => [h.by, h.action, h.priceSar])).toEqual([
      ['carrier', 'bid', '2800.00'],
      ['shipper', 'counter', '2500.00'],
      ['carrier', 'accept', '2500.00'],
    ]);
    expect(await loadOf(load.id)).toMatchObject({ status: 'unassigned', carrierId: carrier.id, bookedPriceSar: '2500.00', offersCount: 0 });

    // every other offer closed; later bids and accepts hear the spec's message
    const list = await t.app.inject({ url: `/api/v1/offers?loadId=${load.id}`, headers: shipper.headers });
    const byId = new Map(list.json<{ data: { items: Offer[] } }>().data.items.map((o) => [o.id, o.status]));
    expect(byId.get(other.id)).toBe('closed');
    expect((await respond(shipper, other.id, 'accept')).json()).toMatchObject({ code: 'SHIPMENT_ALREADY_ASSIGNED' });
    // a booked load is off the board: a carrier that never bid on it cannot see it (404) …
    expect((await bid(broker, load.id, 2000)).statusCode).toBe(404);
    // … one whose offer was closed by the booking hears the spec's message
    const late = await bid(carrier2, load.id, 2000, 'ar');
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'SHIPMENT_ALREADY_ASSIGNED', message: 'تم إسناد هذه الشحنة مسبقاً.' });

    // the booking shows in active jobs of both parties; the load cannot be edited, but the owner
    // may still cancel it before a truck is assigned (lifecycle.ts: unassigned → cancelled) and
    // the carrier's accepted offer is then cancelled too
    for (const who of [shipper, carrier]) {
      const res = await t.app.inject({ url: '/api/v1/my-loads?tab=active', headers: who.headers });
      expect(res.json().data.items.map((l: Load) => l.id)).toContain(load.id);
    }
    expect((await t.app.inject({ method: 'PATCH', url: `/api/v1/loads/${load.id}`, headers: shipper.headers, payload: { priceSar: '1' } })).json().code).toBe(
      'LOAD_NOT_EDITABLE',
    );
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/loads/${load.id}`, headers: shipper.headers })).statusCode).toBeLessThan(300);
    const sent = await t.app.inject({ url: '/api/v1/offers?box=sent', headers: carrier.headers });
    expect(sent.json().data.items.find((o: { loadId: string }) => o.loadId === load.id)?.status).toBe('cancelled');
  });

  it('rejects and withdraws', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const a = await offerOf(carrier, load.id);
    const rejected = await respond(shipper, a.id, 'reject');
    expect(rejected.json().data.status).toBe('rejected');
    expect((await respond(shipper, a.id, 'accept')).json()).toMatchObject({ code: 'OFFER_NOT_PENDING' });
    // a rejected carrier may bid again
    const again = await offerOf(carrier, load.id, 2600);
    const w = await t.app.inject({ method: 'POST', url: `/api/v1/offers/${again.id}/withdraw`, headers: carrier.headers });
    expect(w.json().data.status).toBe('withdrawn');
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/offers/${again.id}/withdraw`, headers: shipper.headers })).statusCode).toBe(404);
  });

  it('answers counter without a price with a validation error', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const o = await offerOf(carrier, load.id);
    const res = await respond(shipper, o.id, 'counter');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ path: 'priceSar' });
  });
});

describe('bidding rules', () => {
  it('forbids bidding on my own load and a second pending offer', async () => {
    const load = await postLoad(t.app, broker.headers);
    expect((await bid(broker, load.id)).json()).toMatchObject({ code: 'OWN_LOAD_BID' });
    await offerOf(carrier, load.id);
    const dup = await bid(carrier, load.id);
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'DUPLICATE_OFFER' });
  });

  it('closes bidding on unposted, expired and cancelled loads', async () => {
    const unposted = await postLoad(t.app, shipper.headers, loadBody({ post: false }));
    // a load the carrier cannot see answers 404, as GET /loads/:id does: a bid must not confirm it exists
    const hidden = await bid(carrier, unposted.id);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ code: 'NOT_FOUND' });
    // a carrier that bid before the load was unposted still hears why
    const seen = await postLoad(t.app, shipper.headers);
    const first = await offerOf(carrier, seen.id);
    await respond(carrier, first.id, 'accept').catch(() => undefined);
    await t.app.inject({ method: 'POST', url: '/api/v1/offers/' + first.id + '/withdraw', headers: carrier.headers });
    await t.app.inject({ method: 'POST', url: `/api/v1/loads/${seen.id}/unpost`, headers: shipper.headers });
    expect((await bid(carrier, seen.id)).json()).toMatchObject({ code: 'BIDDING_CLOSED' });
    const expired = await postLoad(t.app, shipper.headers);
    await t.database.query(`update loads set expires_at = now() - interval '1 minute' where id = $1`, [expired.id]);
    expect((await bid(carrier, expired.id)).json()).toMatchObject({ code: 'BIDDING_CLOSED' });
    const deleted = await postLoad(t.app, shipper.headers);
    const pending = await offerOf(carrier2, deleted.id);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/loads/${deleted.id}`, headers: shipper.headers });
    expect((await bid(carrier, deleted.id)).statusCode).toBe(404);
    expect((await bid(carrier2, deleted.id, 2800, 'ar')).json()).toMatchObject({ code: 'SHIPMENT_CANCELLED', message: 'تم إلغاء هذه الشحنة.' });
    // the bidder's pending offer closed, the bidder still sees the cancelled load
    expect((await respond(shipper, pending.id, 'accept')).json()).toMatchObject({ code: 'SHIPMENT_CANCELLED' });
    expect((await loadOf(deleted.id, carrier2)).status).toBe('cancelled');
  });

  it('needs an approved carrier or broker with a plan to bid, and a plan to accept', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const unapproved = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, approved: false });
    const noPlan = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, plan: false });
    expect((await bid(unapproved, load.id)).json()).toMatchObject({ code: 'ACCOUNT_NOT_APPROVED' });
    expect((await bid(noPlan, load.id)).json()).toMatchObject({ code: 'PLAN_REQUIRED' });
    expect((await bid(shipper, load.id)).json()).toMatchObject({ code: 'WRONG_ROLE' });

    const poorShipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const own = await postLoad(t.app, poorShipper.headers);
    const o = await offerOf(carrier, own.id);
    await t.database.query('update subscriptions set active = false where user_id = $1', [poorShipper.id]);
    const res = await respond(poorShipper, o.id, 'accept');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PLAN_REQUIRED' });
    // rejecting needs no plan
    expect((await respond(poorShipper, o.id, 'reject')).statusCode).toBe(200);
  });

  it('deletes the offers when origin, destination or equipment change, keeps them on a price edit (spec §4)', async () => {
    const load = await postLoad(t.app, shipper.headers);
    await offerOf(carrier, load.id);
    const price = await t.app.inject({ method: 'PATCH', url: `/api/v1/loads/${load.id}`, headers: shipper.headers, payload: { priceSar: '3500' } });
    expect(price.json().data.offersCount).toBe(1);
    const lane = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/loads/${load.id}`,
      headers: shipper.headers,
      payload: { stops: loadBody({ from: CITY.alKharj }).stops },
    });
    expect(lane.statusCode, lane.body).toBe(200);
    expect(lane.json().data.offersCount).toBe(0);
    const [{ n }] = await t.database.query<{ n: number }>('select count(*)::int as n from offers where load_id = $1', [load.id]);
    expect(n).toBe(0);
    await offerOf(carrier, load.id);
    const eq = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/loads/${load.id}`,
      headers: shipper.headers,
      payload: { equipmentType: 'curtain_trailer' },
    });
    expect(eq.json().data).toMatchObject({ offersCount: 0, equipmentType: 'curtain_trailer' });
  });
});

describe('offer lists and my-loads offers tab', () => {
  it('lists sent and received offers, and counts the offers tab on both sides', async () => {
    const s = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const c = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const l1 = await postLoad(t.app, s.headers);
    const l2 = await postLoad(t.app, s.headers);
    await postLoad(t.app, s.headers);
    await offerOf(c, l1.id, 1000);
    const o2 = await offerOf(c, l2.id, 2000);
    await offerOf(carrier2, l2.id, 2100);
    // the shipper counters c on l2: now c's turn there, the shipper's on the other two offers
    expect((await respond(s, o2.id, 'counter', 1900)).statusCode).toBe(200);
    const sent = await t.app.inject({ url: '/api/v1/offers?box=sent', headers: c.headers });
    expect(sent.json().data.total).toBe(2);
    const received = await t.app.inject({ url: '/api/v1/offers?box=received&limit=2', headers: s.headers });
    expect(received.json().data.total).toBe(3);
    expect(received.json().data.items).toHaveLength(2);
    const onL2ByBidder = await t.app.inject({ url: `/api/v1/offers?loadId=${l2.id}`, headers: c.headers });
    expect(onL2ByBidder.json().data.items.map((o: Offer) => o.carrierId)).toEqual([c.id]);
    const mineS = await t.app.inject({ url: '/api/v1/my-loads?tab=offers', headers: s.headers });
    expect(mineS.json().data.counts).toMatchObject({ posted: 3, offers: 2 });
    const mineC = await t.app.inject({ url: '/api/v1/my-loads?tab=offers', headers: c.headers });
    expect(mineC.json().data).toMatchObject({ total: 2, counts: { posted: 0, offers: 2, active: 0 } });
    // the Offers tab says where each negotiation stands for me (issue 23)
    expect(mineS.json().data.offerStates).toEqual({
      [l1.id]: { side: 'shipper', pending: 1, yourTurn: 1, priceSar: '1000.00', lastOfferBy: 'carrier' },
      [l2.id]: { side: 'shipper', pending: 2, yourTurn: 1, priceSar: '1900.00', lastOfferBy: 'shipper' },
    });
    expect(mineC.json().data.offerStates).toEqual({
      [l1.id]: { side: 'carrier', pending: 1, yourTurn: 0, priceSar: '1000.00', lastOfferBy: 'carrier' },
      [l2.id]: { side: 'carrier', pending: 1, yourTurn: 1, priceSar: '1900.00', lastOfferBy: 'shipper' },
    });
    // /offers?turn=mine: only the offers waiting for my answer, on each side
    const turnS = await t.app.inject({ url: '/api/v1/offers?box=received&turn=mine', headers: s.headers });
    expect(
      turnS
        .json()
        .data.items.map((o: Offer) => o.priceSar)
        .sort(),
    ).toEqual(['1000.00', '2100.00']);
    const turnC = await t.app.inject({ url: '/api/v1/offers?turn=mine', headers: c.headers });
    expect(turnC.json().data.items.map((o: Offer) => o.id)).toEqual([o2.id]);
    const posted = await t.app.inject({ url: '/api/v1/my-loads?tab=posted', headers: s.headers });
    expect(posted.json().data.offerStates).toEqual({});
    // the bidder can open a load it bid on even after it is unposted
    await t.app.inject({ method: 'POST', url: `/api/v1/loads/${l1.id}/unpost`, headers: s.headers });
    expect((await t.app.inject({ url: `/api/v1/loads/${l1.id}`, headers: c.headers })).statusCode).toBe(200);
  });
});

describe('the booking race', () => {
  it('books exactly once when 50 accepts race on one load', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const carriers: TestUser[] = [];
    // one by one, retrying a clash of the fixture's random test phone numbers
    while (carriers.length < 50)
      carriers.push(await createUser(t, { accountType: ACCOUNT_TYPE.carrier }).catch(() => createUser(t, { accountType: ACCOUNT_TYPE.carrier })));
    const offers: Offer[] = [];
    for (const [i, c] of carriers.entries()) offers.push(await offerOf(c, load.id, 2000 + i));
    // half are answered by the shipper accepting the carrier's bid; the other half were
    // countered first, so that the carrier accepts the shipper's price: both sides race
    for (const o of offers.slice(25)) expect((await respond(shipper, o.id, 'counter', 1900)).statusCode).toBe(200);
    const results = await Promise.all(offers.map((o, i) => (i < 25 ? respond(shipper, o.id, 'accept') : respond(carriers[i], o.id, 'accept'))));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().code).toBe('SHIPMENT_ALREADY_ASSIGNED');
    const winner = results.findIndex((r) => r.statusCode === 200);

    const rows = await t.database.query<{ status: string; n: number }>('select status, count(*)::int as n from offers where load_id = $1 group by status', [
      load.id,
    ]);
    expect(Object.fromEntries(rows.map((r) => [r.status, r.n]))).toEqual({ accepted: 1, closed: 49 });
    const [l] = await t.database.query<{ status: string; carrier_id: string; booked_price: string }>(
      'select status, carrier_id, booked_price from loads where id = $1',
      [load.id],
    );
    expect(l.status).toBe('unassigned');
    expect(l.carrier_id).toBe(carriers[winner].id);
    expect(Number(l.booked_price)).toBe(winner < 25 ? 2000 + winner : 1900);
  });
});
