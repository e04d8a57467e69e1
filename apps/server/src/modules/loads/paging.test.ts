import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, SKIP_MAX, type Load } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser, type TestUser } from '../../../test/fixtures.ts';
import { greatCircleKm } from '../../lib/geo.ts';
import { encodeCursor } from '../../lib/cursor.ts';
import { queryRows } from '../../lib/sql.ts';
import { boardCircles, boardSearchSql, WIDE_RADIUS_KM, type BoardPath, type BoardQuery } from './board.repository.ts';
import { CITY, inDays, loadBody, postLoad } from './loads.testkit.ts';

// Deep pages and wide-radius sorts (issue 10): keyset cursors on the board and my loads, the
// skip cap, and the wide-radius index walks checked against a naive computation.

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

type Page = { items: Load[]; total: number; totalCapped: boolean; nextCursor: string | null };
const get = async (path: string, query: Record<string, string | number | undefined>, headers: Record<string, string>) => {
  const qs = new URLSearchParams(Object.entries(query).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]))).toString();
  return t.app.inject({ url: `/api/v1/${path}?${qs}`, headers });
};
const page = async (path: string, query: Record<string, string | number | undefined>, headers = carrier.headers) => {
  const res = await get(path, query, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Page }>().data;
};
/** Every page of a search by cursor; `between` runs after each page (e.g. inserts). */
async function allPages(path: string, query: Record<string, string | number | undefined>, headers = carrier.headers, between?: () => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const p = await page(path, { ...query, cursor }, headers);
    ids.push(...p.items.map((l) => l.id));
    if (!p.nextCursor) return ids;
    cursor = p.nextCursor;
    await between?.();
  }
  throw new Error('more than 50 pages');
}
const window = (d: number) => ({ pickupFrom: inDays(d - 0.5), pickupTo: inDays(d + 0.5) });

describe('keyset paging (cursor)', () => {
  it('the board returns every load exactly once across pages while loads are posted, in every sort', async () => {
    const d = 20;
    const before: string[] = [];
    const cities = [CITY.riyadh, CITY.alKharj, CITY.asSufarat];
    for (let i = 0; i < 11; i++) {
      // two pairs share a price: the id breaks the tie
      const body = loadBody({ day: d + (i % 4) / 10, from: cities[i % 3], price: 1000 + (i % 9) * 100 });
      before.push((await postLoad(t.app, shipper.headers, body)).id);
    }
    let n = 0;
    const postMore = async () => {
      n++;
      await postLoad(t.app, shipper.headers, loadBody({ day: d + 0.05 * n, from: cities[n % 3], price: 1050 + n * 100 }));
    };
    for (const sort of ['newest', 'pickup', 'price', 'ratePerKm', 'deadhead'] as const) {
      for (const radius of [200, 1000]) {
        const q = { pickupCityId: CITY.riyadh, radius, sort, limit: 4, ...window(d) };
        const ids = await allPages('loads', q, carrier.headers, postMore);
        expect(new Set(ids).size, `${sort} ${radius}: no load twice`).toBe(ids.length);
        expect(ids, `${sort} ${radius}: every load that was there`).toEqual(expect.arrayContaining(before));
      }
    }
    // the same pages by cursor and by skip, when nothing changes in between
    const q = { pickupCityId: CITY.riyadh, radius: 200, sort: 'price', limit: 4, ...window(d) };
    const byCursor = await allPages('loads', q);
    const bySkip: string[] = [];
    for (let skip = 0; skip < byCursor.length; skip += 4) bySkip.push(...(await page('loads', { ...q, skip })).items.map((l) => l.id));
    expect(byCursor).toEqual(bySkip);
  });

  it('my loads return every load of the tab exactly once across pages while I post more', async () => {
    const me = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const before: string[] = [];
    for (let i = 0; i < 7; i++) before.push((await postLoad(t.app, me.headers, loadBody({ day: 3 + i / 10 }))).id);
    const ids = await allPages('my-loads', { tab: 'posted', limit: 3 }, me.headers, async () => {
      await postLoad(t.app, me.headers, loadBody({ day: 4 }));
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(before.reverse()); // newest first; the loads posted meanwhile are newer than every cursor
    // a bookmark tab pages by bookmark time
    for (const id of ids.slice(0, 5))
      expect((await t.app.inject({ method: 'POST', url: `/api/v1/loads/${id}/bookmark`, headers: carrier.headers })).statusCode).toBe(200);
    const marks = await allPages('my-loads', { tab: 'bookmarks', limit: 2 }, carrier.headers);
    expect(marks).toEqual(ids.slice(0, 5).reverse());
  });

  it('refuses a skip beyond SKIP_MAX with a localized message pointing to the cursor, and a foreign or forged cursor', async () => {
    for (const path of ['loads', 'my-loads']) {
      const en = await get(path, { skip: SKIP_MAX + 1 }, shipper.headers);
      expect(en.statusCode).toBe(400);
      expect(en.json().errors).toContainEqual(expect.objectContaining({ path: 'skip', message: expect.stringContaining('nextCursor') }));
      const ar = await get(path, { skip: SKIP_MAX + 1 }, { ...shipper.headers, language: 'ar' });
      expect(ar.json().errors).toContainEqual(expect.objectContaining({ path: 'skip', message: expect.stringContaining('بالمؤشر') }));
      expect((await get(path, { skip: SKIP_MAX }, shipper.headers)).statusCode).toBe(200);
    }
    const p = await page('loads', { limit: 1, sort: 'price' });
    expect(p.nextCursor).toBeTruthy();
    // a price cursor does not page a newest-first search, nor the tab of my loads
    expect((await get('loads', { cursor: p.nextCursor!, sort: 'newest' }, carrier.headers)).statusCode).toBe(400);
    expect((await get('my-loads', { cursor: p.nextCursor! }, shipper.headers)).statusCode).toBe(400);
    const forged = Buffer.from(JSON.stringify(['board:price', ["1'; drop table loads; --"], '00000000-0000-0000-0000-000000000000'])).toString('base64url');
    const bad = await get('loads', { cursor: forged, sort: 'price' }, carrier.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toContainEqual(expect.objectContaining({ path: 'cursor' }));
    expect((await get('loads', { cursor: 'not-a-cursor' }, carrier.headers)).statusCode).toBe(400);
  });
});

describe('wide radius with every sort', () => {
  it('gives the same loads in the same order as a naive computation over all open loads', async () => {
    const d = 25;
    const cities = [CITY.riyadh, CITY.dammam, CITY.jeddah, CITY.alKharj, CITY.alUwaysiyah, CITY.nukhaylan];
    for (const [i, from] of [...cities, ...cities].entries()) {
      await postLoad(t.app, shipper.headers, loadBody({ day: d + (i % 5) / 10, from, to: i % 2 ? CITY.riyadh : CITY.dammam, price: 2000 + (i % 4) * 500 }));
    }
    // more loads in one place than a page, in an order of price opposite to the pickup order: a
    // per-place walk in the wrong order would miss the top ones
    for (let i = 0; i < 6; i++) {
      await postLoad(t.app, shipper.headers, loadBody({ day: d - 0.4 + i / 10, from: CITY.riyadh, price: 5000 - i * 300 }));
    }
    // an unposted and a vendor-free own-vehicle load never show
    await postLoad(t.app, shipper.headers, { ...loadBody({ day: d, from: CITY.riyadh }), post: false });
    const naive = await t.database.query<{
      id: string;
      posted_at: string;
      pickup_at: string;
      price: string;
      rate_per_km: string;
      lat: number;
      lng: number;
      drop_city_id: number;
      dlat: number;
      dlng: number;
    }>(
      `select l.id, l.posted_at::text, l.pickup_at::text, l.price::text, l.rate_per_km::text, c.lat, c.lng, l.drop_city_id, dc.lat as dlat, dc.lng as dlng
       from loads l join cities c on c.id = l.pickup_city_id join cities dc on dc.id = l.drop_city_id
       where l.status = 'posted' and l.shipment_type = 1 and l.expires_at > now() and l.pickup_at between $1 and $2`,
      [window(d).pickupFrom, window(d).pickupTo],
    );
    const [riyadh] = await t.database.query<{ lat: number; lng: number }>('select lat, lng from cities where id = $1', [CITY.riyadh]);
    const km = (r: { lat: number; lng: number }) => greatCircleKm(riyadh.lat, riyadh.lng, r.lat, r.lng);
    const ts = (s: string) => Date.parse(s.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const orders: Record<string, (a: (typeof naive)[number], b: (typeof naive)[number]) => number> = {
      newest: (a, b) => ts(b.posted_at) - ts(a.posted_at) || byId(b, a),
      pickup: (a, b) => ts(a.pickup_at) - ts(b.pickup_at) || byId(a, b),
      price: (a, b) => Number(b.price) - Number(a.price) || byId(b, a),
      ratePerKm: (a, b) => Number(b.rate_per_km) - Number(a.rate_per_km) || byId(b, a),
      deadhead: (a, b) => km(a) - km(b) || ts(a.pickup_at) - ts(b.pickup_at) || byId(a, b),
    };
    // a lane: the drop city exact, or a drop circle (issue 24: a filter on the pickup side's rows)
    const [dammam] = await t.database.query<{ lat: number; lng: number }>('select lat, lng from cities where id = $1', [CITY.dammam]);
    const drops = [
      { q: {}, keep: () => true },
      { q: { dropCityId: CITY.dammam }, keep: (r: (typeof naive)[number]) => Number(r.drop_city_id) === CITY.dammam },
      { q: { dropCityId: CITY.dammam, dropRadius: 100 }, keep: (r: (typeof naive)[number]) => greatCircleKm(dammam.lat, dammam.lng, r.dlat, r.dlng) <= 100 },
    ];
    // every radius without a drop city; 200 km (below the wide radius) and 500 km (at it) with each lane
    const cases = [
      ...[100, 200, 500, 1000].map((radius) => ({ radius, drop: drops[0] })),
      ...[200, 500].flatMap((radius) => drops.slice(1).map((drop) => ({ radius, drop }))),
    ];
    for (const { radius, drop } of cases) {
      const inCircle = naive.filter((r) => km(r) <= radius && drop.keep(r));
      expect(inCircle.length).toBeGreaterThan(3);
      for (const [sort, cmp] of Object.entries(orders)) {
        const expected = [...inCircle].sort(cmp).map((r) => r.id);
        const q = { pickupCityId: CITY.riyadh, radius, sort, limit: 3, ...window(d), ...drop.q };
        expect(await allPages('loads', q), `${sort} ${radius} km ${JSON.stringify(drop.q)} by cursor`).toEqual(expected);
        const first = await page('loads', { ...q, limit: 100, count: 'true' });
        expect(
          first.items.map((l) => l.id),
          `${sort} ${radius} km ${JSON.stringify(drop.q)} in one page`,
        ).toEqual(expected);
        expect(first.total).toBe(expected.length);
        // every way the board can read a circle gives the same page (issue 24: which one runs
        // depends on the places in the circle; each is forced here, first page and by cursor)
        const paths: BoardPath[] = sort === 'deadhead' ? ['nearest', 'perCity'] : radius >= WIDE_RADIUS_KM ? ['walk'] : ['perPlace', 'walk', 'perCity'];
        for (const path of paths) {
          const bq = { ...q, sort: sort as BoardQuery['sort'], skip: 0, pickupFrom: window(d).pickupFrom, pickupTo: window(d).pickupTo };
          const ids: string[] = [];
          let cursor: string | undefined;
          for (let i = 0; i < 20; i++) {
            const rows = await queryRows<{ id: string; cursor_key: string[] }>(
              t.database.db,
              boardSearchSql({ ...bq, cursor }, [], { path, ...(await boardCircles(t.database.db, bq)) }),
              'test_board',
            );
            ids.push(...rows.map((r) => r.id));
            if (rows.length < bq.limit) break;
            const last = rows[rows.length - 1];
            cursor = encodeCursor(`board:${sort}`, last.cursor_key, last.id);
          }
          expect(ids, `${sort} ${radius} km ${JSON.stringify(drop.q)}, ${path}`).toEqual(expected);
        }
      }
    }
  });
});
