import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Dashboard, type LoadStatistics, type Offer, type TeamMember } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { signUpViaApi, uniquePhone } from '../src/modules/auth/auth.testkit.ts';
import { CITY, loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { dashboardsHandler as dashboardsHandlerOf, periodRange, riyadhDay, statistic } from '../src/modules/dashboards/dashboards.service.ts';
import { loadLane, loadStopWindows } from '../src/modules/loads/loads.service.ts';
import type { OutboxEvent } from '../src/modules/events/events.service.ts';
import { outboxEvents, redeliver } from './outbox.ts';

// the handler as the container wires it: a lane's facts through the loads module
const dashboardsHandler = dashboardsHandlerOf({ lane: loadLane, windows: loadStopWindows });

/**
 * Issue 20 "Dashboards" (docs/dashboards.md): the statistics move with real lifecycle events driven
 * over HTTP (post, offer, book, expire, cancel, unpost) for a shipper, a carrier and a broker
 * (both sides); a redelivered event counts once; the backfill rebuilds the same figures; a team
 * member sees its owner's figures and another account sees none of them.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let broker: TestUser;
let stranger: TestUser;
const { call, ok } = apiCaller(() => t);

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
  stranger = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
});
afterAll(() => t?.close());

const drain = () => t.app.container.services.events.drainAll();
const dash = async (who: { headers: Record<string, string> }, period = 'month') => ok(await call<Dashboard>('GET', `/dashboard?period=${period}`, who.headers));
const values = (s: LoadStatistics['stats']) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.value]));
const bid = async (who: TestUser, loadId: string, priceSar: string) => ok(await call<Offer>('POST', '/offers', who.headers, { loadId, priceSar }), 201);
const respond = async (offerId: string, action: 'accept' | 'reject', who = shipper) =>
  ok(await call('POST', '/offerRespond', who.headers, { offerId, action }));
const allRows = async () =>
  JSON.stringify(
    await Promise.all(
      [
        'dashboard_daily order by account_id, day',
        'dashboard_open order by account_id',
        'dashboard_lane_months order by 1,2,3,4,5',
        'dashboard_lane_days order by 1,2,3,4,5',
        'dashboard_lane_years order by 1,2,3,4,5',
      ].map((q) => t.database.query(`select * from ${q}`)),
    ),
  );

describe('periods (Riyadh time) and the change against the previous equal period', () => {
  it('week from Sunday, month and year to today, previous like for like', () => {
    // Thursday 2026-03-12 23:30 UTC is already Friday 13 March in Riyadh
    const now = new Date('2026-03-12T23:30:00Z');
    expect(riyadhDay(now)).toBe('2026-03-13');
    expect(periodRange('week', now)).toEqual({ period: 'week', from: '2026-03-08', to: '2026-03-13', previousFrom: '2026-03-01', previousTo: '2026-03-06' });
    expect(periodRange('month', now)).toMatchObject({ from: '2026-03-01', to: '2026-03-13', previousFrom: '2026-02-01', previousTo: '2026-02-13' });
    expect(periodRange('year', now)).toMatchObject({ from: '2026-01-01', previousFrom: '2025-01-01', previousTo: '2025-03-13' });
    // 31 March: last month's same day is clamped to 28 February
    expect(periodRange('month', new Date('2026-03-31T10:00:00Z'))).toMatchObject({ previousFrom: '2026-02-01', previousTo: '2026-02-28' });
  });
  it('changePct is one decimal against the previous value, null from zero', () => {
    expect(statistic(3, 2)).toEqual({ value: 3, previous: 2, changePct: 50 });
    expect(statistic(1, 3)).toEqual({ value: 1, previous: 3, changePct: -66.7 });
    expect(statistic(4, 0)).toEqual({ value: 4, previous: 0, changePct: null });
  });
});

describe('the dashboards from lifecycle events', () => {
  it('a new account sees zeros and empty lists', async () => {
    const d = await dash(stranger);
    expect(values(d.shipper.stats)).toEqual({ loads_posted: 0, loads_assigned: 0, loads_open: 0, loads_expired: 0, avg_offers_per_load: 0, final_value: 0 });
    expect(d.shipper.spendByLane).toEqual([]);
    expect(d.carrier.popularRoutes).toEqual([]);
    expect(d.carrier.offers.winRatePct).toBeNull();
    expect(d.shipper.carrierOnTime).toEqual({ pickupsMeasured: 0, onTimePickupPct: null, deliveriesMeasured: 0, onTimeDeliveryPct: null });
  });

  it('post, offer, book, expire, unpost and cancel move the shipper, carrier and broker figures', async () => {
    // 1: posted, two offers (carrier, broker), the carrier's accepted at 2800 → booked; the broker's offer is closed (lost)
    const a = await postLoad(t.app, shipper.headers, loadBody({ price: 3000 }));
    const ca = await bid(carrier, a.id, '2800');
    await bid(broker, a.id, '2900');
    await respond(ca.id, 'accept');
    // 2: posted, the broker bids and the shipper rejects it (lost); then it expires
    const b = await postLoad(t.app, shipper.headers, loadBody({ price: 2000, to: CITY.dammam }));
    const bb = await bid(broker, b.id, '2100');
    await respond(bb.id, 'reject');
    await t.database.query(`update loads set expires_at = now() - interval '1 minute' where id = $1`, [b.id]);
    await t.app.container.services.loads.expireDue();
    // 3: posted and still open; 4: posted then unposted; 5: posted then cancelled
    await postLoad(t.app, shipper.headers);
    const d4 = await postLoad(t.app, shipper.headers);
    ok(await call('POST', `/loads/${d4.id}/unpost`, shipper.headers));
    const d5 = await postLoad(t.app, shipper.headers);
    ok(await call('DELETE', `/loads/${d5.id}`, shipper.headers));
    // the broker as a shipper: its own load booked by the carrier at 1500 (Jeddah → Riyadh)
    const c = await postLoad(t.app, broker.headers, loadBody({ price: 1500, from: CITY.jeddah, to: CITY.riyadh }));
    const cc = await bid(carrier, c.id, '1500');
    await respond(cc.id, 'accept', broker);
    await drain();

    const s = await dash(shipper);
    expect(values(s.shipper.stats)).toEqual({
      loads_posted: 5,
      loads_assigned: 1,
      loads_open: 1,
      loads_expired: 1,
      // 3 offers on 5 loads posted this month
      avg_offers_per_load: 0.6,
      final_value: 2800,
    });
    // the gauge at the end of last month: nothing was open
    expect(s.shipper.stats.loads_open).toEqual({ value: 1, previous: 0, changePct: null });
    expect(s.shipper.spendByLane).toEqual([
      expect.objectContaining({ originCityId: CITY.riyadh, destinationCityId: CITY.jeddah, loads: 1, valueSar: 2800, avgSar: 2800 }),
    ]);
    expect(s.shipper.spendByLane[0].originCity).toBeTruthy();

    const k = await dash(carrier);
    expect(k.carrier.offers).toMatchObject({ offersMade: { value: 2 }, won: { value: 2 }, lost: { value: 0 }, winRatePct: 100, revenueSar: { value: 4300 } });
    // as many loads on each lane: the higher value first
    expect(k.carrier.popularRoutes.map((r) => [r.originCityId, r.destinationCityId, r.loads, r.valueSar])).toEqual([
      [CITY.riyadh, CITY.jeddah, 1, 2800],
      [CITY.jeddah, CITY.riyadh, 1, 1500],
    ]);
    expect(k.carrier.topLanes.map((r) => r.valueSar)).toEqual([2800, 1500]);
    expect(k.carrier.revenue.points.reduce((sum, p) => sum + p.revenueSar, 0)).toBe(4300);
    expect(k.carrier.revenue.rateTrend.at(-1)).toMatchObject({ loads: 2 });
    expect(k.carrier.revenue.rateTrend.at(-1)!.perKmSar).toBeGreaterThan(0);
    // the carrier posted nothing: its shipper side is empty
    expect(k.shipper.stats.loads_posted.value).toBe(0);

    // the broker has both sides: as carrier two offers lost; as shipper one load booked at 1500
    const br = await dash(broker);
    expect(br.carrier.offers).toMatchObject({ offersMade: { value: 2 }, won: { value: 0 }, lost: { value: 2 }, winRatePct: 0 });
    expect(values(br.shipper.stats)).toMatchObject({ loads_posted: 1, loads_assigned: 1, loads_open: 0, final_value: 1500, avg_offers_per_load: 1 });

    // the parts answer the same figures
    const stats = ok(await call<LoadStatistics>('GET', '/loadStatistics?period=month', shipper.headers));
    expect(stats.stats).toEqual(s.shipper.stats);
    expect(ok(await call<{ won: { value: number } }>('GET', '/getOfferStatistics?period=year', carrier.headers)).won.value).toBe(2);
    expect(ok(await call<{ items: unknown[] }>('GET', '/carrierPopularRoutes?period=week', carrier.headers)).items).toHaveLength(2);
    expect(ok(await call<{ granularity: string }>('GET', '/carrierLoadsRevenue?period=year', carrier.headers)).granularity).toBe('month');
    expect((await call('GET', '/dashboard?period=decade', shipper.headers)).status).toBe(400);

    // another account sees nothing of it
    expect(values((await dash(stranger)).shipper.stats)).toMatchObject({ loads_posted: 0, final_value: 0 });
  });

  it('a cancellation after booking takes the booking back', async () => {
    const before = await dash(shipper);
    const load = await postLoad(t.app, shipper.headers, loadBody({ price: 1000 }));
    const o = await bid(carrier, load.id, '1000');
    await respond(o.id, 'accept');
    await drain();
    expect((await dash(shipper)).shipper.stats.final_value.value).toBe(before.shipper.stats.final_value.value + 1000);
    ok(await call('DELETE', `/loads/${load.id}`, shipper.headers));
    await drain();
    const after = await dash(shipper);
    expect(after.shipper.stats.final_value.value).toBe(before.shipper.stats.final_value.value);
    expect(after.shipper.stats.loads_assigned.value).toBe(before.shipper.stats.loads_assigned.value);
    expect(after.shipper.stats.loads_posted.value).toBe(before.shipper.stats.loads_posted.value + 1);
    expect((await dash(carrier)).carrier.offers.revenueSar.value).toBe(4300);
  });

  it('the previous period: last month’s bookings are the “previous” of this month', async () => {
    // move everything the shipper counted this month to the same days last month (an aggregate fixture)
    const before = await dash(shipper);
    await t.database.query(`update dashboard_daily set day = (day - interval '1 month')::date where account_id = $1`, [shipper.id]);
    const d = await dash(shipper);
    expect(d.shipper.stats.final_value).toEqual({ value: 0, previous: before.shipper.stats.final_value.value, changePct: -100 });
    expect(d.shipper.stats.loads_posted).toMatchObject({ value: 0, previous: before.shipper.stats.loads_posted.value, changePct: -100 });
    await t.database.query(`update dashboard_daily set day = (day + interval '1 month')::date where account_id = $1`, [shipper.id]);
    expect((await dash(shipper)).shipper.stats).toEqual(before.shipper.stats);
  });

  it('counts a redelivered event once, and the backfill rebuilds the same aggregates', async () => {
    const snapshot = await allRows();
    const rows = await outboxEvents(t, `select * from outbox_events where aggregate_type = 'load' order by seq`);
    expect(rows.length).toBeGreaterThan(20);
    await redeliver(t, dashboardsHandler, rows);
    expect(await allRows()).toBe(snapshot);

    const svc = t.app.container.services.dashboards;
    expect(await svc.backfill()).toBe(0);
    for (const table of [
      'dashboard_loads',
      'dashboard_offers',
      'dashboard_daily',
      'dashboard_open',
      'dashboard_lane_months',
      'dashboard_lane_days',
      'dashboard_lane_years',
    ])
      await t.database.query(`delete from ${table}`);
    await t.database.query(`delete from outbox_deliveries where handler = 'dashboards'`);
    expect(await svc.backfill(7)).toBeGreaterThan(20);
    expect(await allRows()).toBe(snapshot);
    expect(await svc.backfill()).toBe(0);
  });

  it('counts two bids on one load whatever order their events are handled in (a bid does not lock the load)', async () => {
    const load = await postLoad(t.app, shipper.headers);
    await drain();
    const made = async (id: string) =>
      Number((await t.database.query<{ n: number }>(`select coalesce(sum(offers_made), 0)::int as n from dashboard_daily where account_id = $1`, [id]))[0].n);
    const before = { carrier: await made(carrier.id), broker: await made(broker.id) };
    const bidEvent = (who: TestUser, seq: number): OutboxEvent => ({
      id: crypto.randomUUID(),
      seq,
      type: 'offer.created',
      aggregateType: 'load',
      aggregateId: load.id,
      actorId: who.id,
      data: { loadId: load.id, referenceId: load.referenceId, shipperId: shipper.id, carrierId: who.id, offerId: crypto.randomUUID(), priceSar: '2500' },
      createdAt: new Date(),
    });
    // the later seq commits (and is handled) first; then the earlier one; then both again
    const [late, early] = [bidEvent(carrier, 1_000_000_001), bidEvent(broker, 1_000_000_000)];
    await t.database.db.transaction(async (tx) => {
      for (const e of [late, early, late, early]) await dashboardsHandler.handle(tx, e);
    });
    expect({ carrier: await made(carrier.id), broker: await made(broker.id) }).toEqual({ carrier: before.carrier + 1, broker: before.broker + 1 });
  });

  it('a team member sees its owner’s figures', async () => {
    const phone = uniquePhone();
    const headers = { ...shipper.headers, 'idempotency-key': `dash-${phone}` };
    const inv = await call<TeamMember>('POST', '/account/team', headers, { phone, name: 'Faisal Al-Harbi', role: 'viewer' });
    const invitation = ok(inv, 201);
    const m = await signUpViaApi(t.app, { phone, accountType: ACCOUNT_TYPE.carrier });
    ok(await call('POST', `/account/team/invitations/${invitation.id}/accept`, m.headers));
    expect(await dash(m)).toEqual(await dash(shipper));
  });
});
