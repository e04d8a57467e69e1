import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  ACCOUNT_TYPE,
  type AccountSettings,
  type ContactCard,
  type Load,
  type Offer,
  type RelationEntry,
  type RelationListResponse,
  type RelationStatus,
} from '@masar/shared';
import { queryRows } from '../src/lib/sql.ts';
import { CITY, loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';

/**
 * Favourites, blocked users, contact settings and the counterpart contact card (issue 8; spec §2,
 * §6, §7), on PGlite and PostgreSQL. A block hides both ways: the board (cached pages included),
 * load details, bids and answers, the contact card.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let broker: TestUser;
let other: TestUser;
beforeAll(async () => {
  // the board cache on, long enough that a warmed page would still be served
  t = await createTestApp({ SEARCH_CACHE_TTL_MS: 60_000 });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Najd Foods' });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Qassim Haulage' });
  broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker, companyName: 'Gulf Brokers' });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Tabuk Trucks' });
});
afterAll(async () => t?.close());

type Res<T> = { status: number; body: { data: T; code?: string; message: string; errors?: { path: string; message: string }[] } };
const call = async <T>(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  u: TestUser,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Res<T>> => {
  const r = await t.app.inject({ method, url: `/api/v1${url}`, headers: { ...u.headers, ...headers }, payload: payload as object });
  return { status: r.statusCode, body: r.json() };
};
const favourite = (u: TestUser, target: TestUser, key?: string) =>
  call<RelationEntry>('POST', '/account/favourite', u, { userId: target.id }, key ? { 'idempotency-key': key } : {});
const block = (u: TestUser, target: TestUser, reason?: string) => call<RelationEntry>('POST', '/account/blocked', u, { userId: target.id, reason });
const unblock = (u: TestUser, target: TestUser) => call<null>('DELETE', `/account/blocked/${target.id}`, u);
const board = async (u: TestUser, city: number) => {
  const r = await call<{ items: Load[] }>('GET', `/loads?pickupCityId=${city}`, u);
  expect(r.status).toBe(200);
  return r.body.data.items.map((l) => l.id);
};
const bid = (u: TestUser, loadId: string, price = 2800) => call<Offer>('POST', '/offers', u, { loadId, priceSar: String(price) });

describe('favourites', () => {
  it('adds (idempotently), lists newest first with the company, and removes', async () => {
    const a = await favourite(shipper, carrier, 'fav-1');
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body.data).toMatchObject({ userId: carrier.id, companyName: 'Qassim Haulage', accountType: ACCOUNT_TYPE.carrier, verified: true, reason: null });
    // the same request again, with and without the same key: one entry
    expect((await favourite(shipper, carrier, 'fav-1')).status).toBe(201);
    expect((await favourite(shipper, carrier)).body.data.userId).toBe(carrier.id);
    expect((await favourite(shipper, broker)).status).toBe(201);

    const list = await call<RelationListResponse>('GET', '/account/favourite', shipper);
    expect(list.body.data).toMatchObject({ total: 2, max: 1000, nextCursor: null });
    expect(list.body.data.items.map((e) => e.userId)).toEqual([broker.id, carrier.id]);

    // keyset pages of one
    const p1 = await call<RelationListResponse>('GET', '/account/favourite?limit=1', shipper);
    expect(p1.body.data.items.map((e) => e.userId)).toEqual([broker.id]);
    const p2 = await call<RelationListResponse>('GET', `/account/favourite?limit=1&cursor=${p1.body.data.nextCursor}`, shipper);
    expect(p2.body.data.items.map((e) => e.userId)).toEqual([carrier.id]);
    expect(p2.body.data.nextCursor).toBeNull();
    expect(await call('GET', '/account/favourite?cursor=bm9wZQ', shipper)).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });

    expect((await call<RelationStatus>('GET', `/account/relations/${carrier.id}`, shipper)).body.data).toEqual({
      userId: carrier.id,
      favourite: true,
      blocked: false,
    });
    expect((await call('DELETE', `/account/favourite/${broker.id}`, shipper)).status).toBe(200);
    expect((await call('DELETE', `/account/favourite/${broker.id}`, shipper)).status).toBe(200);
    expect((await call<RelationListResponse>('GET', '/account/favourite', shipper)).body.data.total).toBe(1);
    // lists are private: the carrier's own list is empty
    expect((await call<RelationListResponse>('GET', '/account/favourite', carrier)).body.data.items).toEqual([]);
  });

  it('refuses myself (localized), an unknown user and a bad id', async () => {
    const self = await call('POST', '/account/favourite', shipper, { userId: shipper.id }, { language: 'ar' });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ code: 'RELATION_SELF', message: 'لا يمكنك إضافة نفسك.' });
    expect((await block(shipper, shipper)).body.code).toBe('RELATION_SELF');
    expect((await call('POST', '/account/favourite', shipper, { userId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await call('POST', '/account/favourite', shipper, { userId: 'nope' })).status).toBe(400);
  });
});

describe('blocking', () => {
  it('hides the pair from each other on the board (cached pages too), in details and for bids; closes their pending offers', async () => {
    const s = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Dammam Cement' });
    const c = await createUser(t, { accountType: ACCOUNT_TYPE.broker, companyName: 'Eastern Carriers' });
    // a carrier with no load on the page: the cache would answer it if blocks did not bypass it
    const v = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Jubail Movers' });
    const sLoad = await postLoad(t.app, s.headers, loadBody({ from: CITY.dammam }));
    const sLoad2 = await postLoad(t.app, s.headers, loadBody({ from: CITY.dammam, price: 3100 }));
    const cLoad = await postLoad(t.app, c.headers, loadBody({ from: CITY.dammam, price: 3200 }));
    const pending = await bid(c, sLoad.id);
    expect(pending.status).toBe(201);
    // the carrier favourited the shipper: a block removes it
    expect((await favourite(c, s)).status).toBe(201);

    // warm the shared cache: an unblocked viewer sees all three
    expect(new Set(await board(other, CITY.dammam))).toEqual(new Set([sLoad.id, sLoad2.id, cLoad.id]));

    const b = await block(s, c, 'Did not show up twice');
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect(b.body.data).toMatchObject({ userId: c.id, companyName: 'Eastern Carriers', reason: 'Did not show up twice' });
    expect((await block(s, c)).status).toBe(201);
    expect((await call<RelationListResponse>('GET', '/account/blocked', s)).body.data.items.map((e) => e.userId)).toEqual([c.id]);

    expect((await block(v, s)).status).toBe(201);
    expect(await board(v, CITY.dammam)).toEqual([cLoad.id]);
    // both ways, never from the cached page
    expect(await board(c, CITY.dammam)).toEqual([cLoad.id]);
    expect(new Set(await board(s, CITY.dammam))).toEqual(new Set([sLoad.id, sLoad2.id]));
    expect(new Set(await board(other, CITY.dammam))).toEqual(new Set([sLoad.id, sLoad2.id, cLoad.id]));

    expect((await call<Load>('GET', `/loads/${sLoad2.id}`, c)).status).toBe(404);
    expect((await call<Load>('GET', `/loads/${cLoad.id}`, s)).status).toBe(404);
    const refused = await bid(c, sLoad2.id);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('USER_BLOCKED');
    const ar = await t.app.inject({
      method: 'POST',
      url: '/api/v1/offers',
      headers: { ...c.headers, language: 'ar' },
      payload: { loadId: sLoad2.id, priceSar: '2800' },
    });
    expect(ar.json()).toMatchObject({ code: 'USER_BLOCKED', message: 'غير ممكن: أحدكما حظر الآخر.' });

    // the pending offer was closed, with a close event; answering it is refused
    const [o] = await queryRows<{ status: string; events: number }>(
      t.database.db,
      sql`select o.status, (select count(*)::int from offer_events e where e.offer_id = o.id and e.action = 'close') as events from offers o where o.id = ${pending.body.data.id}`,
    );
    expect(o).toEqual({ status: 'closed', events: 1 });
    const answer = await call('POST', '/offerRespond', s, { offerId: pending.body.data.id, action: 'reject' });
    expect(answer.body.code).toBe('USER_BLOCKED');
    expect((await call<RelationStatus>('GET', `/account/relations/${s.id}`, c)).body.data.favourite).toBe(false);
    // a blocked user cannot be favourited by its blocker
    expect((await favourite(s, c)).body.code).toBe('USER_BLOCKED');

    // unblocking restores the board and bids
    expect((await unblock(s, c)).status).toBe(200);
    expect(new Set(await board(c, CITY.dammam))).toEqual(new Set([sLoad.id, sLoad2.id, cLoad.id]));
    expect((await bid(c, sLoad2.id)).status).toBe(201);
  });
});

describe('contact settings', () => {
  it('defaults to counterparts, patches one channel at a time and validates', async () => {
    expect((await call<AccountSettings>('GET', '/account/settings', broker)).body.data).toEqual({
      chat: 'counterparts',
      audio: 'counterparts',
      video: 'counterparts',
    });
    const p = await call<AccountSettings>('PATCH', '/account/settings', broker, { video: 'nobody' });
    expect(p.status).toBe(200);
    expect(p.body.data).toEqual({ chat: 'counterparts', audio: 'counterparts', video: 'nobody' });
    expect((await call<AccountSettings>('PATCH', '/account/settings', broker, { chat: 'everyone', audio: 'favourites' })).body.data).toEqual({
      chat: 'everyone',
      audio: 'favourites',
      video: 'nobody',
    });
    expect((await call('PATCH', '/account/settings', broker, { chat: 'friends' })).status).toBe(400);
    expect((await call('PATCH', '/account/settings', broker, { colour: 'red' })).status).toBe(400);
  });
});

describe('counterpart contact card', () => {
  it('gives the other party of a booking the channels its settings allow, and refuses others and blocks', async () => {
    const s = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Riyadh Dates' });
    const c = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Hail Transport' });
    const load = await postLoad(t.app, s.headers, loadBody({ from: CITY.jeddah, to: CITY.riyadh }));
    expect((await call('GET', `/loads/${load.id}/contact`, s)).status).toBe(404);
    const offer = await bid(c, load.id);
    expect((await call('POST', '/offerRespond', s, { offerId: offer.body.data.id, action: 'accept' })).status).toBe(200);

    const share = { value: null, share: false };
    const saved = await call('PUT', '/account/contact-info', c, {
      phone: { value: '0551234567', share: true },
      email: { value: 'ops@hail.example', share: true },
      whatsapp: { value: '0557654321', share: true },
      officePhone: { value: '0112345678', share: true },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await call('PUT', '/account/contact-info', s, { phone: share, email: { value: 'desk@dates.example', share: true }, whatsapp: share, officePhone: share });

    const card = async (viewer: TestUser) => {
      const r = await call<ContactCard>('GET', `/loads/${load.id}/contact`, viewer);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data;
    };
    const kinds = (x: ContactCard) => x.links.map((l) => l.kind).sort();

    // default counterparts: everything shared
    const first = await card(s);
    expect(first).toMatchObject({ role: 'carrier', userId: c.id, companyName: 'Hail Transport', channels: { chat: true, audio: true, video: true } });
    expect(kinds(first)).toEqual(['email', 'officePhone', 'phone', 'whatsapp', 'whatsappVideo']);
    expect(first.links.find((l) => l.kind === 'phone')?.href).toBe('tel:+966551234567');
    expect(first.links.find((l) => l.kind === 'officePhone')?.href).toBe('tel:+966112345678');
    expect(first.links.find((l) => l.kind === 'whatsapp')?.href).toBe('https://wa.me/966557654321');
    expect(first.links.find((l) => l.kind === 'email')?.href).toBe('mailto:ops@hail.example');

    // nobody on audio and video; favourites on chat (the shipper is not yet a favourite)
    await call('PATCH', '/account/settings', c, { chat: 'favourites', audio: 'nobody', video: 'nobody' });
    const none = await card(s);
    expect(none.channels).toEqual({ chat: false, audio: false, video: false });
    expect(none.links).toEqual([]);
    expect((await favourite(c, s)).status).toBe(201);
    const fav = await card(s);
    expect(fav.channels).toEqual({ chat: true, audio: false, video: false });
    expect(kinds(fav)).toEqual(['email', 'whatsapp']);
    await call('PATCH', '/account/settings', c, { audio: 'everyone' });
    expect(kinds(await card(s))).toEqual(['email', 'officePhone', 'phone', 'whatsapp']);

    // the carrier sees the shipper's shared e-mail only
    const back = await card(c);
    expect(back).toMatchObject({ role: 'shipper', userId: s.id, companyName: 'Riyadh Dates' });
    expect(kinds(back)).toEqual(['email']);

    // a third party: 404; a block either way: USER_BLOCKED
    expect((await call('GET', `/loads/${load.id}/contact`, other)).status).toBe(404);
    expect((await block(c, s)).status).toBe(201);
    const refused = await call('GET', `/loads/${load.id}/contact`, s);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('USER_BLOCKED');
    // the parties of the booking still see their shipment
    expect((await call('GET', `/loads/${load.id}`, s)).status).toBe(200);
    expect((await call('GET', `/loads/${load.id}`, c)).status).toBe(200);
  });
});
