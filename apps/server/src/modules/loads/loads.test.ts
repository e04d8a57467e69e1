import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Load } from '@masar/shared';
import { createTestApp, ENGINE, type TestContext } from '../../../test/helpers.ts';
import { createUser, type TestUser } from '../../../test/fixtures.ts';
import { FILL_ALL_LOAD_CARDS } from '../../db/load-cards.ts';
import { greatCircleKm } from '../../lib/geo.ts';
import { CITY, inDays, loadBody, postLoad } from './loads.testkit.ts';

let t: TestContext;
let shipper: TestUser;
let broker: TestUser;
let carrier: TestUser;
let otherShipper: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  otherShipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
});
afterAll(() => t?.close());

/**
 * GET /loads with the count in the page (`count=true`); the same count comes from GET
 * /loads/count on its own (issue 45), and a page without `count` carries none.
 */
const search = async (query: Record<string, string | number>, headers = carrier.headers) => {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const [res, bare, count] = await Promise.all([
    t.app.inject({ url: `/api/v1/loads?${qs}&count=true`, headers }),
    t.app.inject({ url: `/api/v1/loads?${qs}`, headers }),
    t.app.inject({ url: `/api/v1/loads/count?${qs}`, headers }),
  ]);
  expect(res.statusCode, res.body).toBe(200);
  expect(count.statusCode, count.body).toBe(200);
  const data = res.json<{ data: { items: Load[]; total: number; totalCapped: boolean; nextCursor: string | null } }>().data;
  expect(count.json().data).toEqual({ total: data.total, totalCapped: data.totalCapped });
  expect(count.headers['cache-control']).toBe('private, max-age=15');
  const { total: _t, totalCapped: _c, ...page } = data;
  expect(bare.json().data).toEqual(page);
  return data;
};
/** pickup window around day `d` (isolates one test's loads from the others in this file) */
const window = (d: number) => ({ pickupFrom: inDays(d - 0.5), pickupTo: inDays(d + 0.5) });

describe('POST /loads', () => {
  it('posts a load with reference, distance over the stops, rate per km and total weight', async () => {
    const load = await postLoad(t.app, shipper.headers);
    expect(load.referenceId).toMatch(/^LD-\d{6}$/);
    expect(load.status).toBe('posted');
    expect(load.isMine).toBe(true);
    const [a, b] = load.stops;
    const gc = greatCircleKm(a.lat, a.lng, b.lat, b.lng);
    expect(gc).toBeGreaterThan(800);
    expect(load.distanceKm).toBeGreaterThan(gc * t.config.ROAD_FACTOR - 5);
    expect(load.distanceKm).toBeLessThan(gc * t.config.ROAD_FACTOR + 5);
    expect(load.priceSar).toBe('3000.00');
    expect(load.ratePerKmSar).toBe((Math.round((3000 / load.distanceKm) * 100) / 100).toFixed(2));
    expect(load.totalWeightKg).toBe(20_000);
    expect(load.stops.map((s) => s.cityNameEn)).toEqual(['Riyadh', 'Jeddah']);
    expect(load.cargo[0]).toMatchObject({ goodsType: 'building_materials', quantity: 20, weightPerItemKg: 1000, lengthCm: 1200 });
    expect(Date.parse(load.expiresAt!) - Date.parse(load.pickupAt)).toBe(t.config.LOAD_EXPIRY_HOURS_AFTER_PICKUP * 3_600_000);
  });

  it('keeps money exact to the halala: decimal strings in and out, a JSON number refused', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ priceSar: '1234.5' }));
    expect(load.priceSar).toBe('1234.50');
    const [row] = await t.database.query<{ price: string }>('select price::text as price from loads where id = $1', [load.id]);
    expect(row.price).toBe('1234.50');
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/loads', headers: shipper.headers, payload: { ...loadBody(), priceSar: 1234.5 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual(expect.objectContaining({ path: 'priceSar' }));
    const tooFine = await t.app.inject({ method: 'POST', url: '/api/v1/loads', headers: shipper.headers, payload: { ...loadBody(), priceSar: '0.005' } });
    expect(tooFine.statusCode).toBe(400);
  });

  it('sums the distance over every stop in order (multi-stop)', async () => {
    const direct = await postLoad(t.app, shipper.headers, loadBody({ from: CITY.riyadh, to: CITY.dammam }));
    const via = await postLoad(
      t.app,
      shipper.headers,
      loadBody({
        stops: [
          { stopType: 1, cityId: CITY.riyadh, date: inDays(2) },
          { stopType: 1, cityId: CITY.alKharj, date: inDays(2, 3) },
          { stopType: 2, cityId: CITY.dammam, date: inDays(3) },
        ],
      }),
    );
    expect(via.distanceKm).toBeGreaterThan(direct.distanceKm);
    expect(via.stops).toHaveLength(3);
  });

  it('gives references in sequence and keeps a draft unposted with post=false', async () => {
    const a = await postLoad(t.app, broker.headers, loadBody({ post: false }));
    const b = await postLoad(t.app, broker.headers);
    expect(a.status).toBe('unposted');
    expect(a.postedAt).toBeNull();
    expect(Number(b.referenceId.slice(3))).toBe(Number(a.referenceId.slice(3)) + 1);
  });

  it('takes a district of the stop’s city (reference ids beyond int4) and refuses one of another city', async () => {
    const AL_AMAL_RIYADH = 10100003001;
    const AZ_ZOMOROD_JEDDAH = 10200018001;
    const body = loadBody();
    body.stops[0] = { ...body.stops[0], districtId: AL_AMAL_RIYADH };
    const load = await postLoad(t.app, shipper.headers, body);
    expect(load.stops[0].districtId).toBe(AL_AMAL_RIYADH);
    body.stops[0] = { ...body.stops[0], districtId: AZ_ZOMOROD_JEDDAH };
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/loads', headers: { ...shipper.headers, language: 'ar' }, payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_DISTRICT', message: 'اختر حياً من المدينة المختارة.' });
  });

  it('answers field errors in Arabic', async () => {
    const body = loadBody();
    body.stops = [body.stops[0]];
    body.cargo = [{ ...body.cargo[0], weightPerItemKg: 0 }];
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/loads', headers: { ...shipper.headers, language: 'ar' }, payload: body });
    expect(res.statusCode).toBe(400);
    const err = res.json<{ code: string; message: string; errors: { path: string; message: string }[] }>();
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.message).toMatch(/[\u0600-\u06FF]/);
    expect(err.errors.map((e) => e.path)).toEqual(expect.arrayContaining(['stops', 'cargo.0.weightPerItemKg']));
    expect(err.errors.every((e) => /[\u0600-\u06FF]/.test(e.message))).toBe(true);
  });

  it('rejects a pickup in the past (1 h buffer)', async () => {
    const body = loadBody();
    body.stops[0].date = inDays(0, 0.5);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/loads', headers: shipper.headers, payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ path: 'stops.0.date' });
  });

  it.each([
    ['INVALID_CITY', loadBody({ to: 999_999 })],
    ['INVALID_EQUIPMENT', loadBody({ equipmentType: 'spaceship' })],
    ['INVALID_GOODS_TYPE', { ...loadBody(), cargo: [{ ...loadBody().cargo[0], goodsType: 'unicorns' }] }],
  ])('checks references: %s', async (code, body) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/loads', headers: { ...shipper.headers, language: 'ar' }, payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code });
    expect(res.json().message).toMatch(/[\u0600-\u06FF]/);
  });

  it('needs a signed-in, approved shipper or broker with a plan', async () => {
    const unapproved = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, approved: false });
    const noPlan = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, plan: false });
    const post = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/v1/loads', headers, payload: loadBody() });
    expect((await post(unapproved.headers)).json()).toMatchObject({ code: 'ACCOUNT_NOT_APPROVED' });
    expect((await post(unapproved.headers)).statusCode).toBe(403);
    expect((await post(noPlan.headers)).json()).toMatchObject({ code: 'PLAN_REQUIRED' });
    expect((await post(carrier.headers)).json()).toMatchObject({ code: 'WRONG_ROLE' });
    expect((await post({})).statusCode).toBe(401);
  });
});

describe('GET /loads/:id, PATCH, DELETE, unpost, repost, duplicate', () => {
  it('shows a posted load to anyone signed in, an unposted one only to its owner', async () => {
    const posted = await postLoad(t.app, shipper.headers);
    const draft = await postLoad(t.app, shipper.headers, loadBody({ post: false }));
    const seen = await t.app.inject({ url: `/api/v1/loads/${posted.id}`, headers: carrier.headers });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data).toMatchObject({ id: posted.id, isMine: false, shipperId: shipper.id });
    expect((await t.app.inject({ url: `/api/v1/loads/${draft.id}`, headers: carrier.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/v1/loads/${draft.id}`, headers: shipper.headers })).statusCode).toBe(200);
  });

  it('lets only the owner edit or delete', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const patch = await t.app.inject({ method: 'PATCH', url: `/api/v1/loads/${load.id}`, headers: otherShipper.headers, payload: { priceSar: '10' } });
    expect(patch.statusCode).toBe(404);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/loads/${load.id}`, headers: otherShipper.headers });
    expect(del.statusCode).toBe(404);
    const mine = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/loads/${load.id}`,
      headers: shipper.headers,
      payload: { priceSar: '4000', comments: 'Updated' },
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toMatchObject({ priceSar: '4000.00', comments: 'Updated', distanceKm: load.distanceKm });
    expect(Number(mine.json().data.ratePerKmSar)).toBeCloseTo(4000 / load.distanceKm, 2);
  });

  it('recomputes distance and the lane when the stops change', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/loads/${load.id}`,
      headers: shipper.headers,
      payload: { stops: loadBody({ to: CITY.dammam }).stops },
    });
    expect(res.statusCode).toBe(200);
    const after = res.json<{ data: Load }>().data;
    expect(after.stops[1].cityId).toBe(CITY.dammam);
    expect(after.distanceKm).toBeLessThan(load.distanceKm);
  });

  it('deletes softly: gone from the board and from details', async () => {
    const d = 21;
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: d }));
    expect((await search(window(d))).items.map((l) => l.id)).toContain(load.id);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/loads/${load.id}`, headers: shipper.headers });
    expect(del.statusCode).toBe(200);
    expect((await search(window(d))).items.map((l) => l.id)).not.toContain(load.id);
    expect((await t.app.inject({ url: `/api/v1/loads/${load.id}`, headers: shipper.headers })).statusCode).toBe(404);
    const [row] = await t.database.query<{ status: string; deleted: boolean }>('select status, deleted_at is not null as deleted from loads where id = $1', [
      load.id,
    ]);
    expect(row).toEqual({ status: 'cancelled', deleted: true });
  });

  it('unposts and reposts (repost needs a future pickup)', async () => {
    const d = 22;
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: d }));
    const un = await t.app.inject({ method: 'POST', url: `/api/v1/loads/${load.id}/unpost`, headers: shipper.headers });
    expect(un.json().data.status).toBe('unposted');
    expect((await search(window(d))).items.map((l) => l.id)).not.toContain(load.id);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/loads/${load.id}/unpost`, headers: shipper.headers })).json().code).toBe('LOAD_NOT_EDITABLE');

    const past = await t.app.inject({
      method: 'POST',
      url: `/api/v1/loads/${load.id}/repost`,
      headers: { ...shipper.headers, language: 'ar' },
      payload: { stopDates: [inDays(-2), inDays(-1)] },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ code: 'REPOST_NEEDS_FUTURE_PICKUP', message: 'إعادة النشر تتطلب تاريخ تحميل في المستقبل.' });

    const re = await t.app.inject({
      method: 'POST',
      url: `/api/v1/loads/${load.id}/repost`,
      headers: shipper.headers,
      payload: { stopDates: [inDays(d + 1), inDays(d + 3)] },
    });
    expect(re.statusCode, re.body).toBe(200);
    expect(re.json().data.status).toBe('posted');
    expect(Date.parse(re.json().data.pickupAt)).toBeGreaterThan(Date.parse(load.pickupAt) + 20 * 3_600_000);
    expect((await search(window(d + 1))).items.map((l) => l.id)).toContain(load.id);
  });

  it('reposts a load whose pickup passed only with new dates', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ post: false }));
    await t.database.query(`update load_stops set date = now() - interval '2 days' where load_id = $1`, [load.id]);
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/loads/${load.id}/repost`, headers: shipper.headers });
    expect(res.json(), res.body).toMatchObject({ code: 'REPOST_NEEDS_FUTURE_PICKUP' });
  });

  it('duplicates as unposted with a new reference', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/loads/${load.id}/duplicate`, headers: shipper.headers });
    expect(res.statusCode).toBe(200);
    const copy = res.json<{ data: Load }>().data;
    expect(copy.id).not.toBe(load.id);
    expect(copy.referenceId).not.toBe(load.referenceId);
    expect(copy).toMatchObject({ status: 'unposted', priceSar: load.priceSar, distanceKm: load.distanceKm, equipmentType: load.equipmentType });
    expect(copy.stops.map((s) => s.cityId)).toEqual(load.stops.map((s) => s.cityId));
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/loads/${load.id}/duplicate`, headers: otherShipper.headers })).statusCode).toBe(404);
  });
});

describe('GET /loads (board search)', () => {
  it('finds a load just inside the radius and not one just outside (100 and 200 km around Riyadh)', async () => {
    const d = 30;
    const in100 = await postLoad(t.app, shipper.headers, loadBody({ day: d, from: CITY.asSufarat }));
    const out100 = await postLoad(t.app, shipper.headers, loadBody({ day: d, from: CITY.alAziziyah }));
    const in200 = await postLoad(t.app, shipper.headers, loadBody({ day: d, from: CITY.alUwaysiyah }));
    const out200 = await postLoad(t.app, shipper.headers, loadBody({ day: d, from: CITY.nukhaylan }));
    const r100 = (await search({ pickupCityId: CITY.riyadh, radius: 100, ...window(d) })).items.map((l) => l.id);
    expect(r100).toContain(in100.id);
    expect(r100).not.toContain(out100.id);
    expect(r100).not.toContain(in200.id);
    const r200 = (await search({ pickupCityId: CITY.riyadh, radius: 200, ...window(d) })).items.map((l) => l.id);
    expect(r200).toEqual(expect.arrayContaining([in100.id, out100.id, in200.id]));
    expect(r200).not.toContain(out200.id);
  });

  it("carries the shipper's verification badge and payment terms for the results table (issue 23)", async () => {
    const d = 29;
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: d }));
    const found = (await search(window(d))).items.find((l) => l.id === load.id);
    // createUser makes an approved account: verified
    expect(found?.shipperVerified).toBe(true);
    expect(found?.shipperCompany).toBeTruthy();
    await t.database.query('update users set status = 1 where id = $1', [shipper.id]);
    try {
      // another query than the first (the board cache keeps pages by query)
      expect((await search({ ...window(d), loadType: 'FTL' })).items.find((l) => l.id === load.id)?.shipperVerified).toBe(false);
    } finally {
      await t.database.query('update users set status = 2 where id = $1', [shipper.id]);
    }
  });

  it('gives deadheadKm from the searched city and sorts by it', async () => {
    const d = 31;
    const kharj = await postLoad(t.app, shipper.headers, loadBody({ day: d, from: CITY.alKharj }));
    const riyadh = await postLoad(t.app, shipper.headers, loadBody({ day: d, from: CITY.riyadh, to: CITY.dammam }));
    const res = await search({ pickupCityId: CITY.riyadh, radius: 100, sort: 'deadhead', ...window(d) });
    expect(res.items.map((l) => l.id)).toEqual([riyadh.id, kharj.id]);
    expect(res.items[0].deadheadKm).toBe(0);
    expect(res.items[1].deadheadKm).toBeCloseTo(85.2, 0);
    // without a pickup city there is no deadhead
    expect((await search(window(d))).items[0].deadheadKm).toBeUndefined();
    // pickup city without radius: that city only
    expect((await search({ pickupCityId: CITY.alKharj, ...window(d) })).items.map((l) => l.id)).toEqual([kharj.id]);
  });

  it('filters by equipment, load type, drop city (exact or radius) and pickup window; pages with total', async () => {
    const d = 32;
    const reefer = await postLoad(
      t.app,
      shipper.headers,
      loadBody({
        day: d,
        equipmentType: 'reefer_trailer',
        cargo: [{ goodsType: 'dairy_eggs', lengthCm: 100, widthCm: 100, heightCm: 100, quantity: 10, weightPerItemKg: 500 }],
      }),
    );
    const ltl = await postLoad(t.app, shipper.headers, loadBody({ day: d, loadType: 'LTL', to: CITY.dammam }));
    const later = await postLoad(t.app, shipper.headers, loadBody({ day: d + 0.4, to: CITY.dammam }));
    const w = window(d);
    expect((await search({ ...w, equipmentType: 'reefer_trailer' })).items.map((l) => l.id)).toEqual([reefer.id]);
    expect((await search({ ...w, loadType: 'LTL' })).items.map((l) => l.id)).toEqual([ltl.id]);
    expect((await search({ ...w, dropCityId: CITY.dammam })).items.map((l) => l.id).sort()).toEqual([ltl.id, later.id].sort());
    // Al Khobar is ~15 km from Dammam: exactly Al Khobar finds nothing, 50 km around it finds both
    expect((await search({ ...w, dropCityId: 31 })).total).toBe(0);
    expect((await search({ ...w, dropCityId: 31, dropRadius: 50 })).total).toBe(2);
    expect((await search({ pickupFrom: inDays(d + 0.2), pickupTo: inDays(d + 0.5) })).items.map((l) => l.id)).toEqual([later.id]);
    const page = await search({ ...w, limit: 1, skip: 1, sort: 'pickup' });
    expect(page.total).toBe(3);
    expect(page.items).toHaveLength(1);
    const beyond = await search({ ...w, limit: 5, skip: 10 });
    expect(beyond).toEqual({ items: [], total: 3, totalCapped: false, nextCursor: null });
  });

  it('a wide radius (≥ 500 km, newest first) walks the newest loads and finds the same loads and deadheads as the per-city path', async () => {
    const w = window(36);
    const ids = [];
    for (const from of [CITY.riyadh, CITY.dammam, CITY.jeddah, CITY.alKharj])
      ids.push((await postLoad(t.app, shipper.headers, loadBody({ day: 36, from, to: CITY.riyadh }))).id);
    for (const radius of [500, 1000]) {
      const newest = await search({ pickupCityId: CITY.riyadh, radius, ...w, sort: 'newest' });
      const byDeadhead = await search({ pickupCityId: CITY.riyadh, radius, ...w, sort: 'deadhead' });
      expect(newest.total).toBe(byDeadhead.total);
      const dh = (r: typeof newest) => Object.fromEntries(r.items.map((l) => [l.id, l.deadheadKm]));
      expect(dh(newest)).toEqual(dh(byDeadhead));
      // newest first
      expect(newest.items.map((l) => l.id)).toEqual(
        [...newest.items].sort((a, b) => Date.parse(b.postedAt!) - Date.parse(a.postedAt!) || (a.id < b.id ? 1 : -1)).map((l) => l.id),
      );
    }
    // Jeddah is ~850 km from Riyadh: in the 1,000 km circle, not in the 500 km one
    expect((await search({ pickupCityId: CITY.riyadh, radius: 1000, ...w })).items.map((l) => l.id).sort()).toEqual([...ids].sort());
    expect((await search({ pickupCityId: CITY.riyadh, radius: 500, ...w })).items.map((l) => l.id)).not.toContain(ids[2]);
  });

  it('sorts by price and rate per km (highest first) and newest', async () => {
    const d = 33;
    const cheap = await postLoad(t.app, shipper.headers, loadBody({ day: d, price: 1000 }));
    const dear = await postLoad(t.app, shipper.headers, loadBody({ day: d, price: 9000 }));
    const short = await postLoad(t.app, shipper.headers, loadBody({ day: d, price: 2000, to: CITY.alKharj }));
    expect((await search({ ...window(d), sort: 'price' })).items.map((l) => l.id)).toEqual([dear.id, short.id, cheap.id]);
    expect((await search({ ...window(d), sort: 'ratePerKm' })).items[0].id).toBe(short.id);
    expect((await search({ ...window(d), sort: 'newest' })).items.map((l) => l.id)).toEqual([short.id, dear.id, cheap.id]);
  });

  it('hides expired loads (and shows them as expired to the owner)', async () => {
    const d = 34;
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: d }));
    await t.database.query(`update loads set expires_at = now() - interval '1 minute' where id = $1`, [load.id]);
    expect((await search(window(d))).total).toBe(0);
    const res = await t.app.inject({ url: `/api/v1/loads/${load.id}`, headers: shipper.headers });
    expect(res.json().data.status).toBe('expired');
  });

  it('lets guests search and rejects a radius that is not an option', async () => {
    const guest = await t.app.inject({ method: 'POST', url: '/api/v1/guest/signIn', payload: { deviceId: 'test-device', deviceType: 3 } });
    const token = guest.json().data?.token?.accessToken as string | undefined;
    if (token) await search({ pickupCityId: CITY.riyadh, radius: 200 }, { authorization: `Bearer ${token}` });
    const bad = await t.app.inject({ url: `/api/v1/loads?pickupCityId=3&radius=75`, headers: { ...carrier.headers, language: 'ar' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ path: 'radius' });
  });
});

describe('GET /my-loads', () => {
  it('lists my loads by tab with counts', async () => {
    const me = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const a = await postLoad(t.app, me.headers);
    await postLoad(t.app, me.headers);
    const draft = await postLoad(t.app, me.headers, loadBody({ post: false }));
    const expired = await postLoad(t.app, me.headers);
    await t.database.query(`update loads set expires_at = now() - interval '1 minute' where id = $1`, [expired.id]);
    const res = await t.app.inject({ url: '/api/v1/my-loads?tab=posted', headers: me.headers });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.counts).toMatchObject({ posted: 2, unposted: 1, offers: 0, active: 0, finished: 1, expired: 1, cancelled: 0, bookmarks: 0 });
    expect(data.total).toBe(2);
    expect(data.items.map((l: Load) => l.id)).toContain(a.id);
    const un = await t.app.inject({ url: '/api/v1/my-loads?tab=unposted', headers: me.headers });
    expect(un.json().data.items.map((l: Load) => l.id)).toEqual([draft.id]);
    const fin = await t.app.inject({ url: '/api/v1/my-loads?tab=finished', headers: me.headers });
    expect(fin.json().data.items[0]).toMatchObject({ id: expired.id, status: 'expired' });
  });
});

describe('capped totals (issue 10)', () => {
  /** `n` open loads of `owner` picked up around day `day`, straight in SQL (with stops and cargo), `equipment` for the first `k`. */
  async function insertOpen(owner: string, n: number, day: number, opts: { status?: string; k?: number } = {}) {
    const tag = `CAP${day}${opts.status ?? ''}-`;
    await t.database.query(
      `insert into loads (id, reference_id, shipper_id, status, load_type, equipment_type, price, distance_km, rate_per_km, total_weight_kg,
         pickup_city_id, pickup_lat, pickup_lng, pickup_at, drop_city_id, drop_lat, drop_lng, drop_at, posted_at, expires_at)
       select gen_random_uuid(), $1 || g, $2, $3, 'FTL', case when g <= $4 then 'box_trailer' else 'lowbed' end, 1000, 500, 2, 20000,
         3, 24.69, 46.72, now() + $5 * interval '1 day', 18, 21.5, 39.2, now() + ($5 + 1) * interval '1 day',
         case when $3 = 'unposted' then null else now() - g * interval '1 second' end, now() + ($5 + 1) * interval '1 day'
       from generate_series(1, $6::int) g`,
      [tag, owner, opts.status ?? 'posted', opts.k ?? 0, day, n],
    );
    await t.database.query(
      `insert into load_stops (id, load_id, idx, stop_type, city_id, lat, lng, date)
         select gen_random_uuid(), l.id, x.i, x.i + 1, case x.i when 0 then 3 else 18 end, 24.69, 46.72, l.pickup_at
         from loads l cross join (values (0), (1)) x(i) where l.reference_id like $1 || '%'`,
      [tag],
    );
    await t.database.query(
      `insert into cargo_lines (id, load_id, idx, goods_type, length_cm, width_cm, height_cm, quantity, weight_per_item_kg)
         select gen_random_uuid(), l.id, 0, 'general_cargo', 120, 100, 150, 20, 1000 from loads l where l.reference_id like $1 || '%'`,
      [tag],
    );
    // their board cards, as the bench seeds write them (issue 45)
    await t.database.exec(FILL_ALL_LOAD_CARDS);
  }

  it('counts the board exactly up to 1,000, then says 1,000+ (totalCapped)', async () => {
    const owner = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    await insertOpen(owner.id, 1003, 40, { k: 7 });
    const all = await search({ pickupCityId: CITY.riyadh, ...window(40), limit: 5 });
    expect(all).toMatchObject({ total: 1000, totalCapped: true });
    expect(all.items).toHaveLength(5);
    const few = await search({ pickupCityId: CITY.riyadh, equipmentType: 'box_trailer', ...window(40) });
    expect(few).toMatchObject({ total: 7, totalCapped: false });
    expect(few.items).toHaveLength(7);
    // a page past the end still reports the (capped) total
    const past = await search({ pickupCityId: CITY.riyadh, equipmentType: 'box_trailer', ...window(40), skip: 20 });
    expect(past).toMatchObject({ items: [], total: 7, totalCapped: false });
    // exactly at the cap is exact
    const owner2 = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    await insertOpen(owner2.id, 1000, 43);
    expect(await search({ pickupCityId: CITY.riyadh, ...window(43), limit: 1 })).toMatchObject({ total: 1000, totalCapped: false });
  });

  it("caps each tab count of my loads and pages the owner's own loads newest first", async () => {
    const owner = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    await insertOpen(owner.id, 1001, 45);
    await insertOpen(owner.id, 3, 46, { status: 'unposted' });
    const res = await t.app.inject({ url: '/api/v1/my-loads?tab=posted&limit=10&skip=10', headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.counts).toMatchObject({ posted: 1000, unposted: 3, offers: 0, active: 0, finished: 0, unassigned: 0 });
    expect(data.countsCapped).toMatchObject({ posted: true, unposted: false, offers: false, active: false, finished: false, unassigned: false });
    expect(data).toMatchObject({ total: 1000, totalCapped: true });
    // newest first: posted_at = now() - g seconds, so page 2 holds loads 11…20
    expect(data.items.map((l: Load) => l.referenceId)).toEqual(Array.from({ length: 10 }, (_, i) => `CAP45-${11 + i}`));
    const un = (await t.app.inject({ url: '/api/v1/my-loads?tab=unposted', headers: owner.headers })).json().data;
    expect(un).toMatchObject({ total: 3, totalCapped: false });
    expect(un.items).toHaveLength(3);
  });
});

describe('OpenAPI', () => {
  it('documents every loads and offers operation', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    for (const p of [
      '/api/v1/loads',
      '/api/v1/loads/{id}',
      '/api/v1/loads/{id}/repost',
      '/api/v1/my-loads',
      '/api/v1/offers',
      '/api/v1/offerRespond',
      '/api/v1/offers/{id}/withdraw',
    ]) {
      expect(paths).toContain(p);
    }
  });
});

describe.runIf(ENGINE === 'postgres')('board search plan on PostgreSQL', () => {
  it('plans every execution of a prepared statement for its values (no generic-plan fallback after five runs)', async () => {
    const rows = await t.database.query<{ plan_cache_mode: string }>('show plan_cache_mode');
    expect(rows[0].plan_cache_mode).toBe('force_custom_plan');
  });

  it("runs queryRows' generic statements on sessions that keep generic plans, without switching the main pool's mode", async () => {
    const { queryRows } = await import('../../lib/sql.ts');
    const { sql } = await import('drizzle-orm');
    // the statement reports the mode of the session it ran on
    const mode = () =>
      queryRows<{ mode: string; n: number }>(t.database.db, sql`select current_setting('plan_cache_mode') as mode, ${7}::int as n`, 'mode_probe', 'generic');
    for (let i = 0; i < 3; i++) expect(await mode()).toEqual([{ mode: 'force_generic_plan', n: 7 }]);
    const custom = await queryRows<{ mode: string }>(
      t.database.db,
      sql`select current_setting('plan_cache_mode') as mode, ${7}::int as n`,
      'mode_probe',
      'custom',
    );
    expect(custom[0].mode).toBe('force_custom_plan');
  });

  it('reads the circle from its places as given (circleOf) and the covering loads btree, no sequential scan on loads', async () => {
    // 60,000 open loads over the 400 biggest-ranked cities plus random others, then ANALYZE
    await t.database.exec(`
      insert into loads (id, reference_id, shipper_id, status, load_type, equipment_type, price, distance_km, rate_per_km, total_weight_kg,
        pickup_city_id, pickup_lat, pickup_lng, pickup_at, drop_city_id, drop_lat, drop_lng, drop_at, posted_at, expires_at)
      select gen_random_uuid(), 'PX-' || g, '${shipper.id}', 'posted', 'FTL',
        (array['flatbed_trailer','box_trailer','reefer_trailer','curtain_trailer'])[1 + g % 4],
        1000 + g % 5000, 500, 3, 20000, c.id, c.lat, c.lng, now() + (g % 20) * interval '1 day' + interval '2 hours',
        18, 21.5, 39.2, now() + (g % 20) * interval '1 day' + interval '3 days', now() - (g % 1000) * interval '1 minute',
        now() + (g % 20) * interval '1 day' + interval '26 hours'
      from generate_series(1, 60000) g
      join lateral (select id, lat, lng from cities where id = (array[3,18,13,6,14,1061,31,1,15,11,10,17])[1 + g % 12] or (g % 3 = 0 and id = 1 + (g * 7) % 4500) limit 1) c on true`);
    await t.database.exec('vacuum analyze loads');
    await t.database.exec('analyze cities');
    const { boardCircles, boardPathOf, boardSearchSql } = await import('./board.repository.ts');
    const { PgDialect } = await import('drizzle-orm/pg-core');
    // the statement with its circle as production builds it (circleOf: read once, then remembered)
    const built = async (bq: Parameters<typeof boardSearchSql>[0], opts: Parameters<typeof boardSearchSql>[2] = {}) =>
      new PgDialect().sqlToQuery(boardSearchSql(bq, [], { ...(await boardCircles(t.database.db, bq)), ...opts }));
    const q = await built({
      pickupCityId: CITY.riyadh,
      radius: 200,
      equipmentType: 'flatbed_trailer',
      pickupFrom: inDays(0),
      pickupTo: inDays(7),
      sort: 'newest',
      limit: 20,
      skip: 0,
    });
    const rows = await t.database.query<{ 'QUERY PLAN': string }>(`explain ${q.sql}`, q.params);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    // issue 24: the circle comes as its places' ids (circleOf), not read again by the statement
    expect(plan, plan).not.toMatch(/cities_earth_gist/);
    // either covering btree (the planner picks by statistics); never the heap, never a scan of all loads
    expect(plan, plan).toMatch(/Index Only Scan using loads_board_(equipment|city) on loads/);
    expect(plan, plan).not.toMatch(/Seq Scan on loads/);

    // issue 24: equipment + price or rate per km on a small circle walks each place's own index in
    // that order (migration 0129), one page each: no read of every flatbed of the circle + a sort
    for (const [sort, index] of [
      ['price', 'loads_board_equipment_price'],
      ['ratePerKm', 'loads_board_equipment_rate'],
    ] as const) {
      const pq = { pickupCityId: CITY.riyadh, radius: 100, equipmentType: 'flatbed_trailer', sort, limit: 20, skip: 0 };
      expect(boardPathOf(pq, 102)).toBe('perPlace');
      const s = await built(pq, { path: boardPathOf(pq, 102) });
      const p = (await t.database.query<{ 'QUERY PLAN': string }>(`explain ${s.sql}`, s.params)).map((r) => r['QUERY PLAN']).join('\n');
      expect(p, p).toMatch(new RegExp(`Index Only Scan using ${index} on loads`));
      expect(p, p).not.toMatch(/Seq Scan on loads/);
    }

    // issue 24: the per-place and nearest statements run with their generic plan (BOARD_PLAN),
    // planned once per connection: that plan must still walk each place's own index in the page's
    // order, whatever the values (here planned for none of them: force_generic_plan)
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: (t.database as { url?: string }).url });
    await client.connect();
    try {
      await client.query('set plan_cache_mode = force_generic_plan');
      const cases: [Parameters<typeof boardSearchSql>[0], RegExp][] = [
        [{ pickupCityId: CITY.riyadh, radius: 100, sort: 'newest', limit: 20, skip: 0 }, /Index Only Scan using loads_board_city_recent on loads/],
        [
          { pickupCityId: CITY.riyadh, radius: 100, equipmentType: 'flatbed_trailer', sort: 'price', limit: 20, skip: 0 },
          /Index Only Scan using loads_board_equipment_price on loads/,
        ],
        [
          { pickupCityId: CITY.riyadh, radius: 200, equipmentType: 'box_trailer', sort: 'deadhead', limit: 20, skip: 0 },
          /Index Only Scan using loads_board_(equipment|city) on loads/,
        ],
      ];
      for (const [i, [gq, index]] of cases.entries()) {
        const path = boardPathOf(gq, 102);
        expect(['perPlace', 'nearest']).toContain(path);
        const s = await built(gq, { path });
        await client.query(`prepare generic_${i} as ${s.sql}`);
        const literals = s.params.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`));
        const p = (await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) execute generic_${i}(${literals.join(', ')})`)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        expect(p, p).toMatch(index);
        expect(p, p).not.toMatch(/Seq Scan on loads|Sort Method: external/);
      }
      // a capped walk (more than PER_PLACE_MAX places) runs its generic plan too, on the generic
      // pool's sessions (no parallel workers): it walks the sort's index, the pickup window a
      // filter on the walked rows, never the window's range of loads_board_pickup sorted whole
      await client.query('set max_parallel_workers_per_gather = 0');
      const walks: [Parameters<typeof boardSearchSql>[0], RegExp][] = [
        [
          { pickupCityId: CITY.riyadh, radius: 300, sort: 'price', pickupFrom: inDays(1), pickupTo: inDays(4), limit: 20, skip: 0 },
          /Index Only Scan using loads_board_price on loads/,
        ],
        [{ pickupCityId: CITY.riyadh, radius: 300, sort: 'newest', limit: 20, skip: 0 }, /Index Only Scan using loads_board_recent on loads/],
      ];
      for (const [i, [gq, index]] of walks.entries()) {
        expect(boardPathOf(gq, 400)).toBe('walk');
        const s = await built(gq, { path: 'walk' });
        expect(s.sql).toMatch(gq.pickupFrom ? /\(l\.pickup_at \+ interval '0'\) >=/ : /./);
        await client.query(`prepare walk_${i} as ${s.sql}`);
        const literals = s.params.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`));
        const p = (await client.query<{ 'QUERY PLAN': string }>(`explain (costs off) execute walk_${i}(${literals.join(', ')})`)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        expect(p, p).toMatch(index);
        expect(p, p).not.toMatch(/Seq Scan on loads|Gather|using loads_board_pickup on loads/);
      }
    } finally {
      await client.end();
    }
  });
});
