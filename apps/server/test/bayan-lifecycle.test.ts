import { readFileSync } from 'node:fs';
import {
  ACCOUNT_TYPE,
  BAYAN_TRIP_ACTIONS,
  BAYAN_TRIP_TRANSITIONS,
  BAYAN_TRIP_LOAD_ACTION,
  BAYAN_TRIP_STATUSES,
  LOAD_ACTION_EVENT,
  bayanTripTransition,
  type BayanTripAction,
  type BayanTripView,
} from '@masar/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTx } from '../src/db/client.ts';
import type { AppError } from '../src/lib/errors.ts';
import { queryRows } from '../src/lib/sql.ts';
import { getTrip } from '../src/modules/bayan/bayan.repository.ts';
import { assign, bookedLoad, post, truckOf } from '../src/modules/bayan/bayan.testkit.ts';
import { transitionTrip } from '../src/modules/bayan/lifecycle.ts';
import { loadLifecycle } from '../src/modules/loads/loads.service.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

// Issue 51: a Bayan trip's status changes only through transitionTrip() (modules/bayan/lifecycle.ts,
// the BAYAN_TRIP_TRANSITIONS table), on PGlite and PostgreSQL: every (status × action) pair — an
// allowed one writes the trip, moves the shipment and publishes the shipment's event in the same
// transaction, a refused one is INVALID_TRANSITION and writes nothing — and racing closes of one
// trip leave exactly one winner.

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const db = () => t.app.container.db;
/** Thrown to roll a probe transaction back after its checks. */
class Rollback extends Error {}

/** An assigned shipment with an active Bayan trip (POST /bayan/trips on the sandbox). */
async function activeTrip() {
  const load = await bookedLoad(t, shipper, carrier);
  await assign(t, load.id, carrier, await truckOf(t, carrier));
  return { load, trip: await post<BayanTripView>(t, '/bayan/trips', carrier, { loadId: load.id }) };
}
const statusOf = async (table: 'loads' | 'bayan_trips', id: string) =>
  (await t.database.query<{ status: string }>(`select status from ${table} where id = $1`, [id]))[0].status;
const eventsIn = (tx: DbOrTx, loadId: string) =>
  queryRows<{ type: string; data: Record<string, unknown> }>(tx, sql`select type, data from outbox_events where aggregate_id = ${loadId} order by seq`);
/** What each action's caller sends (the typed event contract names the fields). */
const changeOf = (action: BayanTripAction) => ({
  data: { tripId: 'BYN-1', waybillNumber: null, ...(action === 'cancel' ? { reason: 'damage' } : {}) },
  set: action === 'create' ? { tripId: 'BYN-1' } : action === 'close' ? { deliveredAt: new Date() } : { cancelReason: 'damage' as const },
});

describe('Bayan trips: racing closes of one trip', () => {
  it('20 parallel closes by the shipper: exactly one closes it, one load.bayan_closed, the shipment completed once', async () => {
    const { load, trip } = await activeTrip();
    const deliveredAt = new Date().toISOString();
    const rs = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/bayan/trips/${trip.id}/close`,
          headers: shipper.headers,
          payload: { deliveredAt, overrideReason: 'The receiver signed a paper receipt' },
        }),
      ),
    );
    expect(rs.filter((r) => r.statusCode === 200)).toHaveLength(1);
    // the others lost before Bayan (trip or shipment no longer open), at Bayan (waybill closed) or after it (the trip's row)
    for (const r of rs.filter((x) => x.statusCode !== 200)) expect(['BAYAN_NOT_ACTIVE', 'INVALID_TRANSITION', 'BAYAN_REJECTED']).toContain(r.json().code);
    expect(await statusOf('bayan_trips', trip.id)).toBe('closed');
    expect(await statusOf('loads', load.id)).toBe('completed');
    expect((await eventsIn(db(), load.id)).filter((e) => e.type === 'load.bayan_closed')).toHaveLength(1);
    expect((await eventsIn(db(), load.id)).filter((e) => e.type === 'load.completed')).toHaveLength(1);
  });

  it('20 transitions from one stale read: the conditional update lets one win, the others are STATUS_CHANGED with nothing written', async () => {
    const { load, trip } = await activeTrip();
    const stale = (await getTrip(db(), trip.id))!;
    const rs = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => {
        const action: BayanTripAction = i % 2 ? 'close' : 'cancel';
        return db().transaction((tx) => transitionTrip(tx, loadLifecycle, stale, action, carrier.id, changeOf(action)));
      }),
    );
    expect(rs.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(rs.flatMap((r) => (r.status === 'rejected' ? [(r.reason as AppError).code] : []))).toEqual(Array(19).fill('STATUS_CHANGED'));
    const to = await statusOf('bayan_trips', trip.id);
    expect(await statusOf('loads', load.id)).toBe(to === 'closed' ? 'completed' : 'cancelled');
    const moved = (await eventsIn(db(), load.id)).filter((e) => e.type === 'load.bayan_closed' || e.type === 'load.bayan_cancelled');
    expect(moved).toHaveLength(1);
  });
});

describe('issue 48: closing the Bayan is a completion like any other; payment only after it', () => {
  it('POST /bayan/trips/:id/close publishes load.completed exactly once, after load.bayan_closed, to both parties', async () => {
    const { load, trip } = await activeTrip();
    await db().transaction((tx) => loadLifecycle.markDelivered(tx, load.id, new Date()));
    await post(t, `/bayan/trips/${trip.id}/close`, carrier, { deliveredAt: new Date().toISOString() }, 200);
    expect(await statusOf('loads', load.id)).toBe('completed');
    const types = (await eventsIn(db(), load.id)).map((e) => e.type);
    expect(types.filter((x) => x === 'load.completed')).toHaveLength(1);
    expect(types.slice(-2)).toEqual(['load.bayan_closed', 'load.completed']);
    const [completed] = await t.database.query<{ actor_id: string; data: Record<string, unknown> }>(
      `select actor_id, data from outbox_events where aggregate_id = $1 and type = 'load.completed'`,
      [load.id],
    );
    expect(completed.actor_id).toBe(carrier.id);
    expect(completed.data).toMatchObject({ via: 'bayan_closed', shipperId: shipper.id, carrierId: carrier.id, status: { from: 'assigned', to: 'completed' } });
  });

  it('marking the payment received on an assigned (even delivered) shipment is refused with SHIPMENT_NOT_COMPLETED, in Arabic too; after the close it is accepted', async () => {
    const { load, trip } = await activeTrip();
    await db().transaction((tx) => loadLifecycle.markDelivered(tx, load.id, new Date()));
    const pay = (language: string) =>
      t.app.inject({ method: 'POST', url: `/api/v1/loads/${load.id}/payment-received`, headers: { ...carrier.headers, language }, payload: {} });
    const en = await pay('en');
    expect(en.statusCode).toBe(409);
    expect(en.json()).toMatchObject({
      code: 'SHIPMENT_NOT_COMPLETED',
      message: 'The shipment is not completed yet: mark the payment received once it is completed.',
    });
    const ar = await pay('ar');
    expect(ar.json()).toMatchObject({ code: 'SHIPMENT_NOT_COMPLETED', message: 'لم تكتمل الشحنة بعد: سجّل استلام الدفعة بعد اكتمالها.' });
    expect((await eventsIn(db(), load.id)).some((e) => e.type === 'load.payment_received')).toBe(false);
    const [row] = await t.database.query<{ payment_received_at: string | null }>('select payment_received_at from loads where id = $1', [load.id]);
    expect(row.payment_received_at).toBeNull();

    await post(t, `/bayan/trips/${trip.id}/close`, carrier, { deliveredAt: new Date().toISOString() }, 200);
    expect((await pay('en')).statusCode).toBe(200);
    expect((await eventsIn(db(), load.id)).filter((e) => e.type === 'load.payment_received')).toHaveLength(1);
  });
});

describe('Bayan trips: every (status × action) through transitionTrip()', () => {
  let loadId: string;
  let tripId: string;
  beforeAll(async () => {
    const { load, trip } = await activeTrip();
    loadId = load.id;
    tripId = trip.id;
  });

  for (const from of BAYAN_TRIP_STATUSES)
    for (const action of BAYAN_TRIP_ACTIONS) {
      const to = bayanTripTransition(from, action);
      it(`${from} --${action}--> ${to ?? 'refused'}`, async () => {
        // test fixtures: the server writes these statuses only through the lifecycles; a trip waiting
        // for Bayan's answer keeps its shipment in pending_bayan
        await t.database.query('update bayan_trips set status = $1 where id = $2', [from, tripId]);
        await t.database.query('update loads set status = $1 where id = $2', [from === 'pending' ? 'pending_bayan' : 'assigned', loadId]);
        const before = (await eventsIn(db(), loadId)).length;
        if (to) {
          await expect(
            db().transaction(async (tx) => {
              const row = (await getTrip(tx, tripId, true))!;
              expect(await transitionTrip(tx, loadLifecycle, row, action, carrier.id, changeOf(action))).toBe(to);
              expect((await getTrip(tx, tripId))!.status).toBe(to);
              const loadAction = BAYAN_TRIP_LOAD_ACTION[action];
              const [load] = await queryRows<{ status: string }>(tx, sql`select status from loads where id = ${loadId}`);
              expect(load.status).toBe({ bayan_created: 'assigned', bayan_closed: 'completed', bayan_cancelled: 'cancelled' }[loadAction]);
              const events = (await eventsIn(tx, loadId)).slice(before);
              // closing completes the shipment: load.completed follows load.bayan_closed (issue 48)
              expect(events.map((e) => e.type)).toEqual(
                loadAction === 'bayan_closed' ? ['load.bayan_closed', 'load.completed'] : [LOAD_ACTION_EVENT[loadAction]],
              );
              expect(events[0]).toMatchObject({ data: changeOf(action).data });
              if (loadAction === 'bayan_closed') expect(events[1].data).toMatchObject({ via: 'bayan_closed', status: { from: 'assigned', to: 'completed' } });
              throw new Rollback();
            }),
          ).rejects.toBeInstanceOf(Rollback);
        } else {
          await expect(
            db().transaction(async (tx) => transitionTrip(tx, loadLifecycle, (await getTrip(tx, tripId, true))!, action, carrier.id, changeOf(action))),
          ).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
          expect(await statusOf('bayan_trips', tripId)).toBe(from);
          expect(await eventsIn(db(), loadId)).toHaveLength(before);
        }
      });
    }

  it('creating a trip on a shipment already assigned (Bayan answered the request itself) only publishes load.bayan_created', async () => {
    await t.database.query(`update bayan_trips set status = 'pending' where id = $1`, [tripId]);
    await t.database.query(`update loads set status = 'assigned' where id = $1`, [loadId]);
    await expect(
      db().transaction(async (tx) => {
        const before = (await eventsIn(tx, loadId)).length;
        expect(await transitionTrip(tx, loadLifecycle, (await getTrip(tx, tripId, true))!, 'create', null, changeOf('create'))).toBe('active');
        const [load] = await queryRows<{ status: string }>(tx, sql`select status from loads where id = ${loadId}`);
        expect(load.status).toBe('assigned');
        const events = await eventsIn(tx, loadId);
        expect(events.slice(before).map((e) => e.type)).toEqual(['load.bayan_created']);
        expect(events[events.length - 1].data.status).toBeUndefined();
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
  });
});

it('docs/bayan-wasl.md prints BAYAN_TRIP_TRANSITIONS as the code has it', () => {
  const md = readFileSync(new URL('../../../docs/bayan-wasl.md', import.meta.url), 'utf8').split('\n');
  for (const x of BAYAN_TRIP_TRANSITIONS) {
    const loadAction = BAYAN_TRIP_LOAD_ACTION[x.action];
    const row = md.find((l) => l.startsWith(`| ${x.from.join(', ')} | \`${x.action}\` | ${x.to} | \`${loadAction}\``));
    expect(row, x.action).toBeDefined();
    expect(row).toContain(`| \`${LOAD_ACTION_EVENT[loadAction]}\` | ${x.by} |`);
  }
});
