import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Load } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser, type TestUser } from '../../../test/fixtures.ts';
import { CITY, inDays, loadBody, postLoad } from './loads.testkit.ts';
import { Redis } from 'ioredis';
import { memoryBoardCache, pageBytes, redisBoardCache, type BoardCacheStore } from '../../lib/page-cache.ts';
import { createBoardSearch } from './board.service.ts';
import { searchBoard, type BoardQuery } from './board.repository.ts';
import { boardPageVersion } from './loads.repository.ts';

// Issue 24: a cache that survives writes. The board versions live per pickup place (city, grid
// cells, whole board) and equipment; a write bumps only its load's place, so pages elsewhere stay
// cached, pages that cover it are computed again, and concurrent misses run one search.

let t: TestContext;
let shipper: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
});
afterAll(() => t?.close());

/** A board search with its own memory cache, counting the searches that reach the database. */
function countingBoard(store: BoardCacheStore = memoryBoardCache(1000)) {
  const calls = { n: 0 };
  const svc = createBoardSearch({
    readDb: t.database.readDb,
    cache: store,
    cacheTtlMs: 600_000,
    hiddenFrom: () => Promise.resolve([]),
    searchPage: (...a) => {
      calls.n++;
      return searchBoard(...a);
    },
  });
  const ids = async (q: BoardQuery) => (JSON.parse((await svc.searchJson(q, null)).toString()) as { items: Load[] }).items.map((l) => l.id);
  return { svc, calls, ids };
}
const q = (over: Partial<BoardQuery>): BoardQuery => ({ sort: 'newest', limit: 100, skip: 0, ...over });
const ok = (res: { statusCode: number; body: string }) => expect(res.statusCode, res.body).toBe(200);

describe('board cache per place (issue 24)', () => {
  it("a write to one city's load does not evict another city's pages; a post or write in the city does", async () => {
    const riyadh = await postLoad(t.app, shipper.headers, loadBody({ day: 3, from: CITY.riyadh }));
    const jeddah = await postLoad(t.app, shipper.headers, loadBody({ day: 3, from: CITY.jeddah, to: CITY.riyadh }));
    const { calls, ids } = countingBoard();
    const city = q({ pickupCityId: CITY.jeddah });
    const circle = q({ pickupCityId: CITY.jeddah, radius: 100 });
    const otherEquipment = q({ pickupCityId: CITY.riyadh, radius: 200, equipmentType: 'reefer_trailer' });
    expect(await ids(city)).toEqual([jeddah.id]);
    expect(await ids(circle)).toEqual([jeddah.id]);
    expect(await ids(otherEquipment)).toEqual([]);
    expect(calls.n).toBe(3);
    expect(await ids(city)).toEqual([jeddah.id]);
    expect(calls.n).toBe(3); // cached

    // Riyadh's load: unposted, reposted, edited, booked-like writes all bump Riyadh only
    ok(await t.app.inject({ method: 'POST', url: `/api/v1/loads/${riyadh.id}/unpost`, headers: shipper.headers }));
    ok(await t.app.inject({ method: 'POST', url: `/api/v1/loads/${riyadh.id}/repost`, headers: shipper.headers, payload: {} }));
    ok(await t.app.inject({ method: 'PATCH', url: `/api/v1/loads/${riyadh.id}`, headers: shipper.headers, payload: { priceSar: '3100' } }));
    await postLoad(t.app, shipper.headers, loadBody({ day: 4, from: CITY.riyadh }));
    expect(await ids(city)).toEqual([jeddah.id]);
    expect(await ids(circle)).toEqual([jeddah.id]);
    // a Riyadh page for another equipment: the writes were flatbed loads
    expect(await ids(otherEquipment)).toEqual([]);
    expect(calls.n).toBe(3);

    // a post in Jeddah shows at once (it bumps Jeddah), on the city page and the circle
    const second = await postLoad(t.app, shipper.headers, loadBody({ day: 5, from: CITY.jeddah, to: CITY.riyadh }));
    expect((await ids(city)).sort()).toEqual([jeddah.id, second.id].sort());
    expect((await ids(circle)).sort()).toEqual([jeddah.id, second.id].sort());
    expect(calls.n).toBe(5);
    // an edit that moves a load's pickup away from Jeddah evicts Jeddah's pages (its old place)
    const moved = {
      stops: [
        { stopType: 1, cityId: CITY.dammam, date: inDays(5), address: 'Warehouse 7' },
        { stopType: 2, cityId: CITY.riyadh, date: inDays(7), address: 'Port road' },
      ],
    };
    ok(await t.app.inject({ method: 'PATCH', url: `/api/v1/loads/${second.id}`, headers: shipper.headers, payload: moved }));
    expect(await ids(city)).toEqual([jeddah.id]);
    expect(calls.n).toBe(6);
  });

  it('a write to a city inside a cached radius page evicts it; a page is never served stale past it', async () => {
    const day = 20;
    const window = { pickupFrom: inDays(day - 0.5), pickupTo: inDays(day + 0.5) };
    // 199.8 km from Riyadh: inside the 200 km circle, in another city
    const edge = await postLoad(t.app, shipper.headers, loadBody({ day, from: CITY.alUwaysiyah }));
    const near = await postLoad(t.app, shipper.headers, loadBody({ day, from: CITY.alKharj }));
    const { calls, ids } = countingBoard();
    const page = q({ pickupCityId: CITY.riyadh, radius: 200, ...window });
    const sameEquipment = q({ pickupCityId: CITY.riyadh, radius: 200, equipmentType: 'flatbed_trailer', ...window });
    expect((await ids(page)).sort()).toEqual([edge.id, near.id].sort());
    expect((await ids(sameEquipment)).sort()).toEqual([edge.id, near.id].sort());
    const before = calls.n;
    expect(await ids(page)).toHaveLength(2);
    expect(calls.n).toBe(before);

    ok(await t.app.inject({ method: 'POST', url: `/api/v1/loads/${edge.id}/unpost`, headers: shipper.headers }));
    expect(await ids(page)).toEqual([near.id]);
    expect(await ids(sameEquipment)).toEqual([near.id]);
    ok(await t.app.inject({ method: 'DELETE', url: `/api/v1/loads/${near.id}`, headers: shipper.headers }));
    expect(await ids(page)).toEqual([]);
    expect(await ids(sameEquipment)).toEqual([]);
    expect(calls.n).toBe(before + 4);
  });

  it('the expiry job bumps the places of the loads it expires', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: 30, from: CITY.dammam, to: CITY.jeddah }));
    const before = await boardPageVersion(t.database.readDb, { pickupCityId: CITY.dammam });
    const other = await boardPageVersion(t.database.readDb, { pickupCityId: CITY.jeddah });
    await t.database.query(`update loads set expires_at = now() - interval '1 minute' where id = $1`, [load.id]);
    expect(await t.app.container.services.loads.expireDue()).toBeGreaterThanOrEqual(1);
    expect(await boardPageVersion(t.database.readDb, { pickupCityId: CITY.dammam })).toBeGreaterThan(before);
    expect(await boardPageVersion(t.database.readDb, { pickupCityId: CITY.jeddah })).toBe(other);
  });

  it('30 concurrent misses on one key run the search once', async () => {
    await postLoad(t.app, shipper.headers, loadBody({ day: 40, from: CITY.riyadh }));
    // a store that never hits: every one of the 30 requests is a miss
    const misses: BoardCacheStore = { get: () => Promise.resolve(null), set: () => Promise.resolve() };
    let versionsRead = 0;
    let allRead!: () => void;
    const gate = new Promise<void>((r) => (allRead = r));
    let searches = 0;
    const svc = createBoardSearch({
      readDb: t.database.readDb,
      cache: misses,
      cacheTtlMs: 600_000,
      hiddenFrom: () => Promise.resolve([]),
      pageVersion: async (...a) => {
        const v = await boardPageVersion(...a);
        if (++versionsRead === 30) allRead();
        return v;
      },
      // the search finishes only once every request has read its version (and so is waiting)
      searchPage: async (...a) => {
        searches++;
        await gate;
        return searchBoard(...a);
      },
    });
    const query = q({ pickupCityId: CITY.riyadh, radius: 300, pickupFrom: inDays(39.5), pickupTo: inDays(40.5) });
    const pages = await Promise.all(Array.from({ length: 30 }, () => svc.searchJson(query, null)));
    expect(searches).toBe(1);
    expect(new Set(pages.map(String)).size).toBe(1);
    expect((JSON.parse(pages[0].toString()) as { items: Load[] }).items).toHaveLength(1);
    // the next miss (the flight is over) searches again
    await svc.searchJson(query, null);
    expect(searches).toBe(2);
  });

  // a store shared by instances (Redis): PostgreSQL's project, which runs with the real services
  it.runIf(process.env.TEST_DB_ENGINE === 'postgres')('30 concurrent misses on one key across three instances sharing Redis run the search once', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    try {
      await postLoad(t.app, shipper.headers, loadBody({ day: 41, from: CITY.jeddah }));
      const prefix = `test:board:${crypto.randomUUID()}:`;
      let searches = 0;
      const instance = () =>
        createBoardSearch({
          readDb: t.database.readDb,
          cache: redisBoardCache(redis, prefix),
          cacheTtlMs: 600_000,
          hiddenFrom: () => Promise.resolve([]),
          flightWaitMs: 10_000,
          searchPage: async (...a) => {
            searches++;
            return searchBoard(...a);
          },
        });
      const instances = [instance(), instance(), instance()];
      const query = q({ pickupCityId: CITY.jeddah, radius: 100, pickupFrom: inDays(40.5), pickupTo: inDays(41.5) });
      const pages = await Promise.all(Array.from({ length: 30 }, (_, i) => instances[i % 3].searchJson(query, null)));
      expect(searches).toBe(1);
      expect(new Set(pages.map(String)).size).toBe(1);
      expect((JSON.parse(pages[0].toString()) as { items: Load[] }).items).toHaveLength(1);
      // a write to Jeddah: the next misses (a new version) search once more, on whichever instance claims it
      await postLoad(t.app, shipper.headers, loadBody({ day: 41, from: CITY.jeddah }));
      const after = await Promise.all(Array.from({ length: 30 }, (_, i) => instances[i % 3].searchJson(query, null)));
      expect(searches).toBe(2);
      expect((JSON.parse(after[0].toString()) as { items: Load[] }).items).toHaveLength(2);
    } finally {
      redis.disconnect();
    }
  });

  it.runIf(process.env.TEST_DB_ENGINE === 'postgres')(
    'Redis keeps a page byte for byte, Arabic included, and a value of an older release is a miss',
    async () => {
      const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
      try {
        const prefix = `test:board:${crypto.randomUUID()}:`;
        const store = redisBoardCache(redis, prefix);
        const data = Buffer.from(JSON.stringify({ items: [{ cityNameAr: 'جدة\nالبلد' }] }));
        await store.set('k', { v: 3, data, owners: [shipper.id], until: Date.now() + 60_000 });
        const got = await store.get('k');
        expect(got).toMatchObject({ v: 3, owners: [shipper.id] });
        expect(got!.data.equals(data)).toBe(true);
        // the shape stored before pages were bytes: one JSON object with data as a string
        await redis.set(`${prefix}old`, JSON.stringify({ v: 3, data: '{"items":[]}', owners: [], until: Date.now() + 60_000 }), 'PX', 60_000);
        expect(await store.get('old')).toBeNull();
      } finally {
        redis.disconnect();
      }
    },
  );

  it('the owner of a load on a single-flighted page gets isMine', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: 45, from: CITY.riyadh }));
    const { svc } = countingBoard();
    const query = q({ pickupCityId: CITY.riyadh, pickupFrom: inDays(44.5), pickupTo: inDays(45.5) });
    const [anon, owner] = await Promise.all([svc.searchJson(query, null), svc.searchJson(query, shipper.id)]);
    expect((JSON.parse(anon.toString()) as { items: Load[] }).items.find((l) => l.id === load.id)?.isMine).toBe(false);
    expect((JSON.parse(owner.toString()) as { items: Load[] }).items.find((l) => l.id === load.id)?.isMine).toBe(true);
  });
});

describe('memory board cache bound in bytes', () => {
  const page = (data: string) => ({ v: 1, data: Buffer.from(data), owners: ['00000000-0000-0000-0000-000000000001'], until: Date.now() + 60_000 });

  it('keeps the total serialized size under the bound, dropping the least recently used first', async () => {
    const bound = 10_000;
    const store = memoryBoardCache(1000, bound);
    const data = 'x'.repeat(1000);
    const one = pageBytes('k00', page(data));
    const kept = Math.floor(bound / one); // 9 pages of ~1.1 KB
    for (let i = 0; i < 30; i++) {
      await store.set(`k${String(i).padStart(2, '0')}`, page(data));
      if (i === 25) expect(await store.get('k18')).not.toBeNull(); // used: moves to the end
      expect(store.bytes()).toBeLessThanOrEqual(bound);
    }
    expect(kept).toBe(9);
    expect(store.bytes()).toBe(kept * one);
    // the 9 kept: k18 (used at 25) and the 8 newest, k22–k29
    for (const k of ['k18', 'k22', 'k29']) expect(await store.get(k)).not.toBeNull();
    for (const k of ['k17', 'k19', 'k21']) expect(await store.get(k)).toBeNull();
    // replacing a key does not count it twice
    await store.set('k29', page(data));
    expect(store.bytes()).toBe(kept * one);
  });

  it('counts UTF-8 bytes (Arabic text is two per letter) and never keeps a page larger than the bound', async () => {
    const store = memoryBoardCache(1000, 5_000);
    await store.set('ar', page('ر'.repeat(2_000)));
    expect(store.bytes()).toBe(pageBytes('ar', page('ر'.repeat(2_000))));
    expect(store.bytes()).toBeGreaterThan(4_000);
    await store.set('big', page('x'.repeat(6_000)));
    expect(await store.get('big')).toBeNull();
    expect(await store.get('ar')).not.toBeNull();
    await store.set('ar2', page('ر'.repeat(2_000)));
    expect(await store.get('ar')).toBeNull();
    expect(store.bytes()).toBeLessThanOrEqual(5_000);
  });
});
