import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Load, type Offer } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser, type TestUser } from '../../../test/fixtures.ts';
import { CITY, inDays, loadBody, postLoad } from './loads.testkit.ts';

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  t = await createTestApp({ SEARCH_CACHE_TTL_MS: 60_000 });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  viewer = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const searchUrl = (day: number) =>
  `/api/v1/loads?${new URLSearchParams({ pickupCityId: String(CITY.riyadh), pickupFrom: inDays(day - 0.5), pickupTo: inDays(day + 0.5), limit: '100' }).toString()}`;
const ids = async (url: string, who = viewer) => {
  const res = await t.app.inject({ url, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { items: Load[] } }>().data.items.map((l) => l.id);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('board search cache (issue 10)', () => {
  it('serves a repeated search from the cache until a board write bumps the version', async () => {
    const day = 50;
    const a = await postLoad(t.app, shipper.headers, loadBody({ day }));
    const b = await postLoad(t.app, shipper.headers, loadBody({ day }));
    const url = searchUrl(day);
    expect((await ids(url)).sort()).toEqual([a.id, b.id].sort());
    // a row written behind the service's back (no version bump) is not seen: the page is cached
    await t.database.query(`update loads set price = 1 where id = $1`, [a.id]);
    const cached = await t.app.inject({ url, headers: viewer.headers });
    expect(cached.json<{ data: { items: Load[] } }>().data.items.find((l) => l.id === a.id)?.priceSar).toBe('3000.00');
    // unposting b bumps the version in its transaction: the next search is computed again
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/loads/${b.id}/unpost`, headers: shipper.headers })).statusCode).toBe(200);
    const fresh = await t.app.inject({ url, headers: viewer.headers });
    const items = fresh.json<{ data: { items: Load[] } }>().data.items;
    expect(items.map((l) => l.id)).toEqual([a.id]);
    expect(items[0].priceSar).toBe('1.00');
  });

  it("answers the owner of a load on the page with isMine, never another viewer's cached page", async () => {
    const day = 51;
    const a = await postLoad(t.app, shipper.headers, loadBody({ day }));
    const url = searchUrl(day);
    await ids(url); // cached for viewers who own none of it
    const mine = (await t.app.inject({ url, headers: shipper.headers })).json<{ data: { items: Load[] } }>().data.items;
    expect(mine.find((l) => l.id === a.id)?.isMine).toBe(true);
    const theirs = (await t.app.inject({ url, headers: viewer.headers })).json<{ data: { items: Load[] } }>().data.items;
    expect(theirs.find((l) => l.id === a.id)?.isMine).toBe(false);
  });

  it('never returns a load booked, cancelled or unposted before the search began, under concurrent writes', async () => {
    const day = 52;
    const loads: Load[] = [];
    for (let i = 0; i < 15; i++) loads.push(await postLoad(t.app, shipper.headers, loadBody({ day, price: 2000 + i })));
    const offers: Offer[] = [];
    for (const l of loads.slice(0, 5)) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: carrier.headers, payload: { loadId: l.id, priceSar: '1900' } });
      expect(res.statusCode, res.body).toBe(201);
      offers.push(res.json<{ data: Offer }>().data);
    }
    const url = searchUrl(day);
    expect(await ids(url)).toHaveLength(15);

    /** when each write's answer came back (its transaction committed before that) */
    const goneAt = new Map<string, number>();
    const write = async (i: number) => {
      await sleep(Math.random() * 40);
      const id = loads[i].id;
      const res =
        i < 5
          ? await t.app.inject({ method: 'POST', url: '/api/v1/offerRespond', headers: shipper.headers, payload: { offerId: offers[i].id, action: 'accept' } })
          : i < 10
            ? await t.app.inject({ method: 'POST', url: `/api/v1/loads/${id}/unpost`, headers: shipper.headers })
            : await t.app.inject({ method: 'DELETE', url: `/api/v1/loads/${id}`, headers: shipper.headers });
      expect(res.statusCode, res.body).toBe(200);
      goneAt.set(id, performance.now());
    };
    const searches: { start: number; ids: string[] }[] = [];
    const searchOnce = async () => {
      await sleep(Math.random() * 60);
      const start = performance.now();
      searches.push({ start, ids: await ids(url) });
    };
    await Promise.all([...loads.slice(0, 15).map((_, i) => write(i)), ...Array.from({ length: 80 }, searchOnce)]);

    let checked = 0;
    for (const s of searches) {
      for (const id of s.ids) {
        const at = goneAt.get(id);
        if (at !== undefined) expect(at, `a search that began after load ${id} left the board returned it`).toBeGreaterThan(s.start);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
    // once every write is done, the board is empty for this window
    expect(await ids(url)).toEqual([]);
  });
});
