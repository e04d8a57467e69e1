import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type DomainEventType, type Load } from '@masar/shared';
import { createJobRunner } from '../src/jobs/runner.ts';
import { createEventDelivery, publish, timelineHandler, type EventHandler } from '../src/modules/events/events.service.ts';
import { loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';

/**
 * Durable jobs and the events outbox (issue 6), on PGlite and PostgreSQL: the expiry job flips
 * rows, events reach an idempotent handler at least once and survive a failed delivery, and a
 * scheduled slot runs once however many runners tick.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(async () => t?.close());

const until = async <T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
};
const eventsOf = (loadId: string) =>
  t.database.query<{ type: DomainEventType; delivered: boolean }>(
    'select type, delivered_at is not null as delivered from outbox_events where aggregate_id = $1 order by seq',
    [loadId],
  );

describe('the load expiry job', () => {
  it('turns a posted load past its expiry into Expired in the row, off the board, with a load.expired event', async () => {
    const load = await postLoad(t.app, shipper.headers);
    await t.database.query(`update loads set expires_at = now() - interval '1 minute' where id = $1`, [load.id]);
    await t.app.container.jobs.send('loads.expire', {});
    const [row] = await until(
      () => t.database.query<{ status: string }>('select status from loads where id = $1', [load.id]),
      (r) => r[0]?.status === 'expired',
    );
    expect(row.status).toBe('expired');
    const board = await t.app.inject({ url: '/api/v1/loads?limit=100', headers: carrier.headers });
    expect(board.json<{ data: { items: Load[] } }>().data.items.map((l) => l.id)).not.toContain(load.id);
    expect((await eventsOf(load.id)).map((e) => e.type)).toEqual(['load.posted', 'load.expired']);
    // through the one lifecycle transition (issue 18): the event names the status change
    const [expired] = await t.database.query<{ data: { status: unknown } }>(
      `select data from outbox_events where aggregate_id = $1 and type = 'load.expired'`,
      [load.id],
    );
    expect(expired.data.status).toEqual({ from: 'posted', to: 'expired' });
    // the owner still sees it as expired and may repost it with new dates
    const mine = await t.app.inject({ url: `/api/v1/loads/${load.id}`, headers: shipper.headers });
    expect(mine.json().data.status).toBe('expired');
    const dates = mine.json<{ data: Load }>().data.stops.map((_, i) => new Date(Date.now() + (2 + i) * 86_400_000).toISOString());
    const repost = await t.app.inject({ method: 'POST', url: `/api/v1/loads/${load.id}/repost`, headers: shipper.headers, payload: { stopDates: dates } });
    expect(repost.statusCode, repost.body).toBe(200);
    expect(repost.json().data.status).toBe('posted');
  });
});

describe('events outbox', () => {
  it('bid → counter → accept are published in the same transactions and reach the load timeline in order', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const bid = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: carrier.headers, payload: { loadId: load.id, priceSar: '2800' } });
    const offerId = bid.json().data.id as string;
    await t.app.inject({ method: 'POST', url: '/api/v1/offerRespond', headers: shipper.headers, payload: { offerId, action: 'counter', priceSar: '2700' } });
    // a refused answer (not the carrier's turn twice) publishes nothing: no event without its change
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/offerRespond', headers: shipper.headers, payload: { offerId, action: 'accept' } })).statusCode,
    ).toBe(409);
    await t.app.inject({ method: 'POST', url: '/api/v1/offerRespond', headers: carrier.headers, payload: { offerId, action: 'accept' } });
    expect((await eventsOf(load.id)).map((e) => e.type)).toEqual(['load.posted', 'offer.created', 'offer.countered', 'offer.accepted', 'load.booked']);
    // the drain (woken by the publish, polling otherwise) delivers them to the timeline handler
    const timeline = await until(
      async () =>
        (await t.app.inject({ url: `/api/v1/loads/${load.id}/timeline`, headers: shipper.headers })).json().data.items as {
          type: string;
          actorId: string;
          data: Record<string, unknown>;
        }[],
      (items) => items.length === 5,
    );
    expect(timeline.map((e) => e.type)).toEqual(['load.posted', 'offer.created', 'offer.countered', 'offer.accepted', 'load.booked']);
    expect(timeline.map((e) => e.actorId)).toEqual([shipper.id, carrier.id, shipper.id, carrier.id, carrier.id]);
    expect(timeline[4].data).toMatchObject({ offerId, carrierId: carrier.id, bookedPriceSar: '2700.00' });
    expect((await eventsOf(load.id)).every((e) => e.delivered)).toBe(true);
    // the booked carrier sees it too; anybody else does not learn it exists
    expect((await t.app.inject({ url: `/api/v1/loads/${load.id}/timeline`, headers: carrier.headers })).statusCode).toBe(200);
    const stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    expect((await t.app.inject({ url: `/api/v1/loads/${load.id}/timeline`, headers: stranger.headers })).statusCode).toBe(404);
  });

  it('an event survives a failed delivery and reaches every handler; an idempotent handler applies it once', async () => {
    // an instance without a worker (JOBS=0): only the deliveries below drain its outbox
    const q = await createTestApp({ JOBS: false });
    const owner = await createUser(q, { accountType: ACCOUNT_TYPE.shipper });
    const load = await postLoad(q.app, owner.headers, loadBody({ post: false }));
    const eventId = await q.database.db.transaction((tx) =>
      publish(tx, {
        type: 'load.cancelled',
        aggregateType: 'load',
        aggregateId: load.id,
        actorId: owner.id,
        data: { status: { from: 'unposted', to: 'cancelled' } },
      }),
    );
    let down = true;
    const calls: string[] = [];
    const flaky: EventHandler = {
      name: 'test-flaky',
      async handle(_tx, e) {
        if (e.id !== eventId) return;
        calls.push(e.id);
        if (down) throw new Error('receiver down');
      },
    };
    const a = createEventDelivery({ db: q.database.db, handlers: [timelineHandler, flaky] });
    await a.drainAll();
    const [pending] = await q.database.query<{ delivered: boolean }>('select delivered_at is not null as delivered from outbox_events where id = $1', [
      eventId,
    ]);
    expect(pending.delivered).toBe(false); // the flaky handler failed: the event is still there
    down = false;
    const b = createEventDelivery({ db: q.database.db, handlers: [timelineHandler, flaky] }); // another instance, later
    await b.drainAll();
    const [done] = await q.database.query<{ delivered: boolean }>('select delivered_at is not null as delivered from outbox_events where id = $1', [eventId]);
    expect(done.delivered).toBe(true);
    expect(calls.length).toBe(2); // at least once: tried while down, then delivered
    // a drainer that died after the handler's effect but before recording it delivers again:
    // the timeline handler is keyed by event id, so the entry exists once
    await q.database.query('delete from outbox_deliveries where event_id = $1', [eventId]);
    await q.database.query('update outbox_events set delivered_at = null where id = $1', [eventId]);
    await b.drainAll();
    const [{ n }] = await q.database.query<{ n: number }>('select count(*)::int as n from load_timeline where event_id = $1', [eventId]);
    expect(n).toBe(1);
    await q.close();
  });
});

describe('job runners on one database', () => {
  it('a scheduled slot runs once when two runners tick at the same time', async () => {
    const runs: string[] = [];
    const runners = [0, 1].map((i) => {
      const r = createJobRunner({ database: t.database, pollingIntervalSeconds: 0.5 });
      r.define({ name: 'test.tick', handler: async () => void runs.push(`runner ${i}`) });
      return r;
    });
    for (const r of runners) await r.start();
    // the same slot sent by both, as pg-boss's cron does once per minute per schedule
    const ids = await Promise.all(runners.map((r) => r.send('test.tick', {}, { singletonKey: 'slot-2026-11-23T04:00', singletonSeconds: 60 })));
    expect(ids.filter(Boolean)).toHaveLength(1);
    await until(
      async () => runs.length,
      (n) => n >= 1,
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(runs).toHaveLength(1);
    for (const r of runners) await r.stop();
  });
});
