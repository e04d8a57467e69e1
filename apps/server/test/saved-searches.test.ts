import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, RECENT_SEARCHES_MAX, SAVED_SEARCHES_MAX, type RecentSearch, type SavedSearch } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { CITY } from '../src/modules/loads/loads.testkit.ts';

// Saved and recent searches (issue 19; spec §2, §7; "duplicate search exists"): save, list, run,
// rename, delete; duplicates refused (also under a race of 20), the per-user cap under a race,
// the last 10 recent searches with a repeat moved to the top; nobody sees another's. Runs on
// PGlite and PostgreSQL.

let t: TestContext;
let carrier: TestUser;
let shipper: TestUser;
const { call, ok } = apiCaller(() => t);

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
});
afterAll(() => t?.close());

const keyed = (user: TestUser, key: string = randomUUID()): Record<string, string> => ({ ...user.headers, 'idempotency-key': key });
const save = (user: TestUser, body: object, headers = keyed(user)) => call<SavedSearch>('POST', '/savedSearches', headers, body);
const saved = async (user: TestUser, kind: 'loads' | 'trucks') =>
  ok(await call<{ items: SavedSearch[] }>('GET', `/savedSearches?kind=${kind}`, user.headers)).items;
const recent = async (user: TestUser, kind: 'loads' | 'trucks') =>
  ok(await call<{ items: RecentSearch[] }>('GET', `/recentSearches?kind=${kind}`, user.headers)).items;
const record = (user: TestUser, kind: 'loads' | 'trucks', filters: object) => call<RecentSearch>('POST', '/recentSearches', keyed(user), { kind, filters });
const rows = async (table: string, userId: string) =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from ${table} where user_id = $1`, [userId]))[0].n;

describe('saved searches', () => {
  it('saves a load search with every filter (normalised: paging dropped, dates in UTC) and lists it', async () => {
    const s = ok(
      await save(carrier, {
        kind: 'loads',
        name: 'Riyadh flatbeds',
        filters: {
          pickupCityId: CITY.riyadh,
          radius: 150,
          dropCityId: CITY.jeddah,
          dropRadius: 100,
          equipmentType: 'flatbed_trailer',
          loadType: 'FTL',
          pickupFrom: '2026-12-01T00:00:00+03:00',
          sort: 'price',
          bookNow: true,
          limit: 12,
          skip: 24,
          junk: 'dropped',
        },
      }),
      201,
    );
    expect(s).toMatchObject({ kind: 'loads', name: 'Riyadh flatbeds' });
    expect(s.filters).toEqual({
      bookNow: 'true',
      dropCityId: CITY.jeddah,
      dropRadius: 100,
      equipmentType: 'flatbed_trailer',
      loadType: 'FTL',
      pickupCityId: CITY.riyadh,
      pickupFrom: '2026-11-30T21:00:00.000Z',
      radius: 150,
      sort: 'price',
    });
    expect((await saved(carrier, 'loads')).map((x) => x.id)).toEqual([s.id]);
    expect(await saved(carrier, 'trucks')).toEqual([]);
  });

  it('runs in one click: the stored filters are a valid query of the search endpoint', async () => {
    const s = ok(await save(carrier, { kind: 'loads', name: 'run me', filters: { pickupCityId: CITY.dammam, radius: 300, sort: 'deadhead' } }), 201);
    const qs = new URLSearchParams(Object.entries(s.filters).map(([k, v]) => [k, String(v)])).toString();
    expect((await call('GET', `/loads?${qs}`, carrier.headers)).status).toBe(200);
    const tr = ok(
      await save(carrier, { kind: 'trucks', name: 'trucks east', filters: { originCityId: CITY.dammam, radius: 200, minCapacityKg: '5000' } }),
      201,
    );
    expect(tr.filters).toEqual({ minCapacityKg: 5000, originCityId: CITY.dammam, radius: 200, sort: 'deadhead' });
    const tq = new URLSearchParams(Object.entries(tr.filters).map(([k, v]) => [k, String(v)])).toString();
    expect((await call('GET', `/searchTrucks?${tq}`, carrier.headers)).status).toBe(200);
  });

  it('refuses the same filters again with DUPLICATE_SEARCH, in English and Arabic, whatever the name, order or form', async () => {
    ok(await save(carrier, { kind: 'loads', name: 'A', filters: { pickupCityId: CITY.jeddah, radius: 200, equipmentType: 'reefer_truck' } }), 201);
    // same search: keys in another order, numbers as strings, the default sort spelled out, paging added
    const dup = await save(carrier, {
      kind: 'loads',
      name: 'B',
      filters: { equipmentType: 'reefer_truck', sort: 'newest', radius: '200', pickupCityId: String(CITY.jeddah), limit: 50 },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'DUPLICATE_SEARCH', message: 'Duplicate search exists.' });
    const ar = await save(
      carrier,
      { kind: 'loads', name: 'C', filters: { pickupCityId: CITY.jeddah, radius: 200, equipmentType: 'reefer_truck' } },
      {
        ...keyed(carrier),
        language: 'ar',
      },
    );
    expect(ar.status).toBe(409);
    expect(ar.body.message).toBe('يوجد بحث محفوظ مطابق.');
    // another kind or another user is not a duplicate
    ok(await save(shipper, { kind: 'loads', name: 'A', filters: { pickupCityId: CITY.jeddah, radius: 200, equipmentType: 'reefer_truck' } }), 201);
  });

  it('20 parallel saves of one search leave one row', async () => {
    const filters = { pickupCityId: CITY.alKharj, radius: 50 };
    const res = await Promise.all(Array.from({ length: 20 }, (_, i) => save(carrier, { kind: 'loads', name: `race ${i}`, filters })));
    expect(res.filter((r) => r.status === 201)).toHaveLength(1);
    expect(res.filter((r) => r.status === 409 && r.body.code === 'DUPLICATE_SEARCH')).toHaveLength(19);
    const n = await t.database.query<{ n: number }>(`select count(*)::int as n from saved_searches where user_id = $1 and filters->>'pickupCityId' = $2`, [
      carrier.id,
      String(CITY.alKharj),
    ]);
    expect(n[0].n).toBe(1);
  });

  it(`holds the cap of ${SAVED_SEARCHES_MAX} per kind under a race`, async () => {
    const user = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const res = await Promise.all(
      Array.from({ length: SAVED_SEARCHES_MAX + 5 }, (_, i) => save(user, { kind: 'trucks', name: `cap ${i}`, filters: { minCapacityKg: 1000 + i } })),
    );
    expect(res.filter((r) => r.status === 201)).toHaveLength(SAVED_SEARCHES_MAX);
    expect(res.filter((r) => r.status === 409 && r.body.code === 'LIMIT_REACHED')).toHaveLength(5);
    expect(await rows('saved_searches', user.id)).toBe(SAVED_SEARCHES_MAX);
    // the other kind has its own cap
    ok(await save(user, { kind: 'loads', name: 'still fine', filters: {} }), 201);
  });

  it('takes an Idempotency-Key: the same request twice saves once and answers the same', async () => {
    const headers = keyed(carrier);
    const body = { kind: 'trucks', name: 'keyed', filters: { originCityId: CITY.riyadh } };
    const a = await save(carrier, body, headers);
    const b = await save(carrier, body, headers);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body.data.id).toBe(a.body.data.id);
  });

  it('validates the filters with the search’s own schema', async () => {
    const bad = await save(carrier, { kind: 'loads', name: 'bad', filters: { pickupCityId: CITY.riyadh, radius: 123 } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0].path).toBe('filters.radius');
    const badSort = await save(carrier, { kind: 'trucks', name: 'bad', filters: { sort: 'price' } });
    expect(badSort.status).toBe(400);
    expect((await save(carrier, { kind: 'loads', name: '   ', filters: {} })).status).toBe(400);
  });

  it('renames and deletes mine; other users can neither see, rename nor delete it', async () => {
    const s = ok(await save(carrier, { kind: 'trucks', name: 'old name', filters: { originCityId: CITY.jeddah, loadType: 'LTL' } }), 201);
    const renamed = ok(await call<SavedSearch>('PATCH', `/savedSearches/${s.id}`, carrier.headers, { name: 'new name' }));
    expect(renamed).toMatchObject({ id: s.id, name: 'new name', filters: s.filters });
    expect((await saved(shipper, 'trucks')).some((x) => x.id === s.id)).toBe(false);
    expect((await call('PATCH', `/savedSearches/${s.id}`, shipper.headers, { name: 'mine now' })).status).toBe(404);
    expect((await call('DELETE', `/savedSearches/${s.id}`, shipper.headers)).status).toBe(404);
    ok(await call('DELETE', `/savedSearches/${s.id}`, carrier.headers));
    expect((await saved(carrier, 'trucks')).some((x) => x.id === s.id)).toBe(false);
    expect((await call('DELETE', `/savedSearches/${s.id}`, carrier.headers)).status).toBe(404);
    // deleted: the same search may be saved again
    ok(await save(carrier, { kind: 'trucks', name: 'again', filters: s.filters }), 201);
  });
});

describe('recent searches', () => {
  it(`keeps the last ${RECENT_SEARCHES_MAX} per kind, most recent first; a repeat moves to the top`, async () => {
    const user = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    for (let i = 0; i < RECENT_SEARCHES_MAX + 2; i++) ok(await record(user, 'trucks', { minCapacityKg: 100 + i }), 201);
    let list = await recent(user, 'trucks');
    expect(list.map((r) => r.filters.minCapacityKg)).toEqual(Array.from({ length: RECENT_SEARCHES_MAX }, (_, i) => 100 + RECENT_SEARCHES_MAX + 1 - i));
    expect(await rows('recent_searches', user.id)).toBe(RECENT_SEARCHES_MAX);
    // run an older one again (same search, other spelling): it moves up, nothing is duplicated
    ok(await record(user, 'trucks', { minCapacityKg: '105', sort: 'deadhead', limit: 20 }), 201);
    list = await recent(user, 'trucks');
    expect(list).toHaveLength(RECENT_SEARCHES_MAX);
    expect(list[0].filters.minCapacityKg).toBe(105);
    expect(list.filter((r) => r.filters.minCapacityKg === 105)).toHaveLength(1);
    // the spec's names
    expect(ok(await call<{ items: RecentSearch[] }>('GET', '/recentTruckFilters', user.headers)).items).toEqual(list);
    expect(ok(await call<{ items: RecentSearch[] }>('GET', '/recentLoads', user.headers)).items).toEqual([]);
  });

  it('keeps each kind apart, trims under parallel records, and is private', async () => {
    const user = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    ok(await record(user, 'loads', { pickupCityId: CITY.riyadh, radius: 200 }), 201);
    const res = await Promise.all(Array.from({ length: 15 }, (_, i) => record(user, 'trucks', { minCapacityKg: 500 + i })));
    expect(res.every((r) => r.status === 201)).toBe(true);
    expect(await recent(user, 'trucks')).toHaveLength(RECENT_SEARCHES_MAX);
    const loads = await recent(user, 'loads');
    expect(loads.map((r) => r.filters)).toEqual([{ pickupCityId: CITY.riyadh, radius: 200, sort: 'newest' }]);
    expect(ok(await call<{ items: RecentSearch[] }>('GET', '/recentLoads', user.headers)).items).toEqual(loads);
    expect(await recent(carrier, 'loads')).not.toContainEqual(loads[0]);
    expect((await call('DELETE', `/recentSearches/${loads[0].id}`, carrier.headers)).status).toBe(404);
    ok(await call('DELETE', `/recentSearches/${loads[0].id}`, user.headers));
    expect(await recent(user, 'loads')).toEqual([]);
    expect((await record(user, 'loads', { radius: 7 })).status).toBe(400);
  });

  it('needs a signed-in user', async () => {
    expect((await call('GET', '/savedSearches?kind=loads', {})).status).toBe(401);
    expect((await call('GET', '/recentLoads', {})).status).toBe(401);
  });
});
