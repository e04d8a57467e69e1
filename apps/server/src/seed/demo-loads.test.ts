import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { seedDemoAccounts } from './demo.ts';
import { seedDemoLoads } from './demo-loads.ts';
import { signAccessToken } from '../lib/tokens.ts';
import { newId } from '../lib/ids.ts';
import { sessions } from '../db/schema/index.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('demo loads seed', () => {
  it('puts a few hundred dated loads on real lanes, with the demo carrier’s offers and jobs; idempotent', async () => {
    const ids = await seedDemoAccounts(t.app.container.services.accounts);
    const n = await seedDemoLoads(t.database.db, t.config, ids, t.app.container.services.loads);
    expect(n).toBeGreaterThanOrEqual(280);
    expect(await seedDemoLoads(t.database.db, t.config, ids, t.app.container.services.loads)).toBe(0);

    const byStatus = await t.database.query<{ status: string; n: number }>('select status, count(*)::int as n from loads group by status');
    const counts = Object.fromEntries(byStatus.map((r) => [r.status, r.n]));
    expect(counts.posted).toBeGreaterThan(200);
    expect(counts.unposted).toBeGreaterThan(0);
    expect(counts.unassigned).toBeGreaterThan(0);
    const [open] = await t.database.query<{ past: number; late: number; badReefer: number }>(
      `select count(*) filter (where pickup_at < now())::int as past,
              count(*) filter (where pickup_at > now() + interval '15 days')::int as late,
              (select count(*)::int from cargo_lines g join goods_types gt on gt.code = g.goods_type join loads l on l.id = g.load_id
                where gt.temperature_controlled and l.equipment_type not like 'reefer%') as "badReefer"
         from loads where status = 'posted'`,
    );
    expect(open).toEqual({ past: 0, late: 0, badReefer: 0 });

    // every seeded state has the events its users' steps would have published (issue 18), parties named
    const [ev] = await t.database.query<Record<string, number>>(
      `select (select count(*)::int from loads where status <> 'unposted') as "loadsPosted",
              (select count(*)::int from outbox_events where type = 'load.posted' and data->'status'->>'to' = 'posted' and data->>'referenceId' is not null) as "posted",
              (select count(*)::int from loads where carrier_id is not null) as "loadsBooked",
              (select count(*)::int from outbox_events e join loads l on l.id = e.aggregate_id
                 where e.type = 'load.booked' and e.data->>'carrierId' = l.carrier_id::text and e.data->>'offerId' is not null) as "booked",
              (select count(*)::int from offers) as "offers",
              (select count(*)::int from outbox_events where type = 'offer.created') as "offersCreated",
              (select count(*)::int from offer_events where action = 'counter') as "counters",
              (select count(*)::int from outbox_events where type = 'offer.countered') as "countered",
              (select count(*)::int from loads where status = 'completed') as "loadsCompleted",
              (select count(*)::int from outbox_events where type = 'load.completed') as "completed",
              (select count(*)::int from outbox_events e join loads l on l.id = e.aggregate_id where l.status = 'unposted') as "ofUnposted",
              (select count(*)::int from outbox_events where data->>'brokerId' = $1::text) as "brokerNamed",
              (select count(*)::int from outbox_events e join loads l on l.id = e.aggregate_id where l.shipper_id = $1::uuid) as "ofBroker"`,
      [ids[3]],
    );
    expect(ev.posted).toBe(ev.loadsPosted);
    expect(ev.booked).toBe(ev.loadsBooked);
    expect(ev.offersCreated).toBe(ev.offers);
    expect(ev.countered).toBe(ev.counters);
    expect(ev.completed).toBe(ev.loadsCompleted);
    expect(ev.ofUnposted).toBe(0);
    expect(ev.brokerNamed).toBe(ev.ofBroker);
    expect(ev.counters).toBeGreaterThan(0);
    // in per-load order: posted, bid, (counter), accepted, booked
    const order = await t.database.query<{ types: string[] }>(
      `select array_agg(type order by seq) as types from outbox_events where aggregate_id in (select id from loads where status = 'unassigned') group by aggregate_id`,
    );
    for (const r of order) expect(r.types).toEqual(['load.posted', 'offer.created', 'offer.accepted', 'load.booked']);

    // the demo carrier has active jobs and open offers; the board finds loads around Riyadh
    const sid = newId();
    await t.database.db.insert(sessions).values({ id: sid, familyId: sid, userId: ids[2], refreshHash: newId(), expiresAt: new Date(Date.now() + 3_600_000) });
    const { token } = await signAccessToken({ sub: ids[2], sid, typ: 'user', at: 2 }, t.config.jwtSecret, 600);
    const headers = { authorization: `Bearer ${token}` };
    const mine = await t.app.inject({ url: '/api/v1/my-loads?tab=active', headers });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().data.counts.active).toBeGreaterThan(0);
    expect(mine.json().data.counts.offers).toBeGreaterThan(0);
    const board = await t.app.inject({ url: '/api/v1/loads?pickupCityId=3&radius=100&limit=5&count=true', headers });
    expect(board.json().data.total).toBeGreaterThan(10);

    // a week later (simulated by moving every date back), a restart moves the demo board forward
    await t.database.exec(
      `update loads set pickup_at = pickup_at - interval '7 days', drop_at = drop_at - interval '7 days', expires_at = expires_at - interval '7 days'`,
    );
    await t.database.exec(`update load_stops set date = date - interval '7 days'`);
    // the expiry job ran meanwhile: the stale loads are expired in the row, each with load.expired
    const expiredNow = await t.app.container.services.loads.expireDue();
    expect(expiredNow).toBeGreaterThan(0);
    expect(await seedDemoLoads(t.database.db, t.config, ids, t.app.container.services.loads)).toBe(0);
    // the refresh reposted them through the lifecycle, like their shipper would: a load.posted event each
    const [reposted] = await t.database.query<{ n: number; shippers: number }>(
      `select count(*)::int as n, count(*) filter (where actor_id::text = data->>'shipperId')::int as shippers from outbox_events
        where type = 'load.posted' and data->>'demoRefresh' = 'true' and data->'status'->>'from' = 'expired' and data->'status'->>'to' = 'posted'`,
    );
    expect(reposted).toEqual({ n: expiredNow, shippers: expiredNow });
    const [after] = await t.database.query<{ stale: number; pickups: number; stops: number }>(
      `select count(*) filter (where status = 'posted' and pickup_at < now())::int as stale,
              count(*) filter (where status = 'posted')::int as pickups,
              (select count(*)::int from loads l join load_stops s on s.load_id = l.id and s.idx = 0 where s.date <> l.pickup_at) as stops
         from loads`,
    );
    expect(after).toEqual({ stale: 0, pickups: counts.posted, stops: 0 });
  }, 240_000); // ~300 loads and their events; slow on a shared machine
});
