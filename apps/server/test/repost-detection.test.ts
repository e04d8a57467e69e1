import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Load } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { CITY, inDays, loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { describeReposts } from '../src/cli/admin.ts';

/**
 * Re-post detection (issue 19): the broker that won a load posts the same lane with overlapping
 * pickup dates as a new load — the new load is flagged for the operator, the original shipper is
 * told (load.reposted) and sees the flag on the shipment. Runs on PGlite and PostgreSQL.
 */
let t: TestContext;
let shipper: TestUser;
let broker: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Original Shipper Co' });
  broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker, companyName: 'Double Broker Co' });
});
afterAll(() => t?.close());

/** The shipper posts a Book Now load; `who` books it at the posted price. */
async function wonBy(who: TestUser, body = loadBody({ bookNow: true })): Promise<Load> {
  const load = await postLoad(t.app, shipper.headers, body);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/bookNow',
    headers: { ...who.headers, 'idempotency-key': randomUUID() },
    payload: { loadId: load.id, priceSar: load.priceSar },
  });
  expect(res.statusCode, res.body).toBe(201);
  return load;
}
const repostedFrom = async (id: string) => (await t.database.query<{ r: string | null }>('select reposted_from as r from loads where id = $1', [id]))[0].r;
const repostEvents = (originalId: string) =>
  t.database.query<{ data: Record<string, unknown>; actor_id: string }>(
    `select data, actor_id from outbox_events where aggregate_id = $1 and type = 'load.reposted'`,
    [originalId],
  );
const loadAs = async (id: string, who: TestUser) => (await t.app.inject({ url: `/api/v1/loads/${id}`, headers: who.headers })).json<{ data: Load }>().data;

describe('re-post detection', () => {
  it('flags the winner posting the same lane and pickup days, tells the original shipper, and reports it to the operator', async () => {
    const original = await wonBy(broker, loadBody({ bookNow: true, day: 3 }));
    expect((await loadAs(original.id, shipper)).repostFlagged).toBe(false);

    // same lane, pickup the same (Riyadh) day a few hours later, other price
    const repost = await postLoad(t.app, broker.headers, loadBody({ day: 3, price: 2400, ...laneOn(3, 0.01) }));
    expect(await repostedFrom(repost.id)).toBe(original.id);

    const events = await repostEvents(original.id);
    expect(events).toHaveLength(1);
    // the original shipper is a party (publish names the load's shipper and its booked carrier)
    expect(events[0].data).toMatchObject({ shipperId: shipper.id, carrierId: broker.id, repostLoadId: repost.id, repostReferenceId: repost.referenceId });
    expect(events[0].actor_id).toBe(broker.id);

    // the flag on the original shipper's shipment; the re-poster does not see it on its booking
    expect((await loadAs(original.id, shipper)).repostFlagged).toBe(true);
    expect((await loadAs(original.id, broker)).repostFlagged).toBe(false);
    expect((await loadAs(repost.id, broker)).repostFlagged).toBe(false);

    // the operator's report (npm run admin -- reposts)
    const report = await t.app.container.services.loads.repostReport(100);
    const line = report.find((r) => r.referenceId === repost.referenceId);
    expect(line).toMatchObject({
      originalReferenceId: original.referenceId,
      originalShipperCompany: 'Original Shipper Co',
      posterCompany: 'Double Broker Co',
      lane: 'Riyadh → Jeddah',
    });
    expect(describeReposts([line!])[0]).toContain(`${repost.referenceId}  posted`);
    expect(describeReposts([line!])[0]).toContain(`re-posts ${original.referenceId} of Original Shipper Co`);
    expect(describeReposts([])).toEqual(['No load is flagged as a re-post.']);
  });

  it('the timeline of the original shipment shows it', async () => {
    const original = await wonBy(broker, loadBody({ bookNow: true, day: 5 }));
    await postLoad(t.app, broker.headers, loadBody({ day: 5 }));
    let types: string[] = [];
    for (let i = 0; i < 200 && !types.includes('load.reposted'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await t.app.inject({ url: `/api/v1/loads/${original.id}/timeline`, headers: shipper.headers });
      types = (res.json().data.items as { type: string }[]).map((e) => e.type);
    }
    expect(types).toContain('load.reposted');
  });

  it('does not flag another lane, other pickup days, a poster that did not win, or a cancelled booking', async () => {
    const original = await wonBy(broker, loadBody({ bookNow: true, day: 8 }));
    const otherLane = await postLoad(t.app, broker.headers, loadBody({ day: 8, to: CITY.dammam }));
    const otherDay = await postLoad(t.app, broker.headers, loadBody({ day: 10 }));
    const otherBroker = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    const notWinner = await postLoad(t.app, otherBroker.headers, loadBody({ day: 8 }));
    // the original shipper posting its own lane again is no re-post
    const own = await postLoad(t.app, shipper.headers, loadBody({ day: 8 }));
    for (const l of [otherLane, otherDay, notWinner, own]) expect(await repostedFrom(l.id)).toBeNull();
    // a draft (unposted) is not a post
    const draft = await postLoad(t.app, broker.headers, loadBody({ day: 8, post: false }));
    expect(await repostedFrom(draft.id)).toBeNull();
    expect(await repostEvents(original.id)).toHaveLength(0);

    // the pickup window counts: a window reaching into the original's pickup day is an overlap
    const earlier = await postLoad(t.app, broker.headers, { ...loadBody({ day: 7 }), pickupLatest: inDays(8) });
    expect(await repostedFrom(earlier.id)).toBe(original.id);

    // a cancelled booking is no longer a won load
    const cancelled = await wonBy(broker, loadBody({ bookNow: true, day: 12 }));
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/loads/${cancelled.id}`, headers: shipper.headers })).statusCode).toBeLessThan(300);
    const after = await postLoad(t.app, broker.headers, loadBody({ day: 12 }));
    expect(await repostedFrom(after.id)).toBeNull();
  });
});

/** Riyadh → Jeddah stops with the pickup `day` days and `hours` hours from now. */
function laneOn(day: number, hours: number) {
  return {
    stops: [
      { stopType: 1 as const, cityId: CITY.riyadh, date: inDays(day, hours), address: 'Another yard' },
      { stopType: 2 as const, cityId: CITY.jeddah, date: inDays(day + 2), address: 'Port road' },
    ],
  };
}
