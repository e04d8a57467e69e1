import {
  ACCOUNT_TYPE,
  LOAD_ACTIONS,
  LOAD_ACTION_EVENT,
  LOAD_STATUSES,
  OFFER_ACTION_EVENT,
  OFFER_STATUSES,
  OFFER_TRANSITION_ACTIONS,
  loadTransition,
  offerTransition,
} from '@masar/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTx } from '../src/db/client.ts';
import { AppError } from '../src/lib/errors.ts';
import { queryRows } from '../src/lib/sql.ts';
import { transition } from '../src/modules/loads/lifecycle.ts';
import { transitionRow, DUE_FOR_EXPIRY_SQL } from '../src/modules/loads/lifecycle.repository.ts';
import { postLoad } from '../src/modules/loads/loads.testkit.ts';
import { transitionOffer } from '../src/modules/offers/lifecycle.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { createTestApp, ENGINE, type TestContext } from './helpers.ts';

// Issue 18: every (status × action) pair through THE transition() of loads and of offers, on the
// database (PGlite and PostgreSQL): an allowed pair changes the row and publishes its event with
// status {from, to} in the same transaction; a refused pair writes nothing and publishes nothing.
// (The pure table is tested pair by pair in packages/shared rules/lifecycle.test.ts.)

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let loadId: string;
let offerId: string;
const { call, ok } = apiCaller(() => t);

/** Thrown to roll a probe transaction back after its checks. */
class Rollback extends Error {}

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  loadId = (await postLoad(t.app, shipper.headers)).id;
  offerId = ok<{ id: string }>(await call('POST', '/offers', carrier.headers, { loadId, priceSar: '2900' }), 201).id;
});
afterAll(() => t?.close());

const db = () => t.app.container.db;
const one = async <T>(q: string, params: unknown[] = []) => (await t.database.query<T>(q, params))[0];
const eventsOf = async (tx: DbOrTx) =>
  queryRows<{ type: string; data: Record<string, unknown> }>(tx, sql`select type, data from outbox_events where aggregate_id = ${loadId} order by seq`);

/** Put the load in `status` (a test fixture; the server itself only writes status through transition()). */
async function setLoad(status: string, pastExpiry = false) {
  await t.database.query(
    `update loads set status = $1, deleted_at = null, carrier_id = $2,
       expires_at = now() + ($3::text)::interval where id = $4`,
    [status, ['posted', 'unposted', 'expired'].includes(status) ? null : carrier.id, pastExpiry ? '-1 hour' : '2 days', loadId],
  );
}

/**
 * What the callers of each action send with it: the typed event contract (packages/shared
 * events.ts) refuses an event without its named fields, as it would refuse the real call sites'.
 */
function payloadOf(action: string): { data: Record<string, unknown>; set: Record<string, unknown> } {
  const some = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
  switch (action) {
    case 'book':
      return { data: {}, set: { carrierId: carrier.id } };
    case 'assign':
      return { data: { vehicleId: some(1), driverId: some(2) }, set: {} };
    case 'bayan_created':
      return { data: { tripId: 'BYN-1', waybillNumber: null }, set: {} };
    case 'bayan_closed':
      return { data: { tripId: null, waybillNumber: null }, set: {} };
    case 'bayan_cancelled':
      return { data: { tripId: null, waybillNumber: null, reason: 'test' }, set: {} };
    default:
      return { data: {}, set: {} };
  }
}

describe('loads: every (status × action) through transition()', () => {
  for (const from of LOAD_STATUSES)
    for (const action of LOAD_ACTIONS) {
      // the expiry job's action applies to a posted load past its expiry; every other pair to a load before it
      const due = from === 'posted' && action === 'expire';
      const to = loadTransition(from, action);
      it(`${from} --${action}--> ${to ?? 'refused'}`, async () => {
        await setLoad(from, due);
        const before = (await eventsOf(db())).length;
        if (to) {
          await expect(
            db().transaction(async (tx) => {
              const { data, set } = payloadOf(action);
              expect(await transition(tx, loadId, action, shipper.id, { probe: true, ...data }, set)).toBe(to);
              const [row] = await queryRows<{ status: string }>(tx, sql`select status from loads where id = ${loadId}`);
              expect(row.status).toBe(to);
              const events = (await eventsOf(tx)).slice(before);
              // a completion by another event is followed by load.completed (issue 48: by any path)
              const alsoCompleted = to === 'completed' && LOAD_ACTION_EVENT[action] !== 'load.completed';
              expect(events.map((x) => x.type)).toEqual(alsoCompleted ? [LOAD_ACTION_EVENT[action], 'load.completed'] : [LOAD_ACTION_EVENT[action]]);
              expect(events[0].data).toMatchObject({ shipperId: shipper.id, probe: true, status: { from, to }, from, to });
              if (alsoCompleted) expect(events[1].data).toMatchObject({ shipperId: shipper.id, via: action, status: { from, to } });
              throw new Rollback();
            }),
          ).rejects.toBeInstanceOf(Rollback);
        } else {
          await expect(db().transaction((tx) => transition(tx, loadId, action, shipper.id))).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
          expect((await one<{ status: string }>('select status from loads where id = $1', [loadId])).status).toBe(from);
          expect(await eventsOf(db())).toHaveLength(before);
        }
      });
    }

  it('a posted load past its expiry counts as expired (the read-time guard): no unpost or booking, repost and cancel allowed', async () => {
    await setLoad('posted', true);
    await expect(db().transaction((tx) => transition(tx, loadId, 'unpost', shipper.id))).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    await expect(db().transaction((tx) => transition(tx, loadId, 'book', shipper.id))).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    await expect(
      db().transaction(async (tx) => {
        await transition(tx, loadId, 'repost', shipper.id);
        const events = await eventsOf(tx);
        expect(events[events.length - 1].data.status).toEqual({ from: 'expired', to: 'posted' });
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    // and a posted load before its expiry is not expired by the job's action
    await setLoad('posted', false);
    await expect(db().transaction((tx) => transition(tx, loadId, 'expire', null))).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
  });

  it('the conditional update writes nothing when the row is no longer in the status it was read in', async () => {
    await setLoad('posted');
    expect(await db().transaction((tx) => transitionRow(tx, loadId, 'unposted', 'cancelled', { deletedAt: new Date() }, false))).toBe(false);
    expect(await one<{ status: string; deleted_at: unknown }>('select status, deleted_at from loads where id = $1', [loadId])).toEqual({
      status: 'posted',
      deleted_at: null,
    });
  });

  it('a deleted or unknown load is NOT_FOUND', async () => {
    await expect(db().transaction((tx) => transition(tx, '00000000-0000-4000-8000-000000000000', 'cancel', shipper.id))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(new AppError('STATUS_CHANGED').code).toBe('STATUS_CHANGED');
  });

  it('the expiry job reads only what is due: an index range of loads_posted_expiry', async () => {
    const plan = await t.database.session(async (c) => {
      await c.exec('set enable_seqscan = off');
      try {
        return (await c.query<Record<string, string>>(`explain ${DUE_FOR_EXPIRY_SQL}`, [500])).map((r) => Object.values(r)[0]).join('\n');
      } finally {
        await c.exec('reset enable_seqscan');
      }
    });
    expect(plan, plan).toMatch(/loads_posted_expiry/);
    expect(plan, plan).toMatch(/Index Cond: \(expires_at <= now\(\)\)/);
  });
});

describe('offers: every (status × action) through transitionOffer()', () => {
  const historyOf = async (tx: DbOrTx) =>
    (await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from offer_events where offer_id = ${offerId}`))[0].n;
  for (const from of OFFER_STATUSES)
    for (const action of OFFER_TRANSITION_ACTIONS) {
      const to = offerTransition(from, action);
      it(`${from} --${action}--> ${to ?? 'refused'}`, async () => {
        await t.database.query(`update offers set status = $1, last_offer_by = 'carrier', price = 2900 where id = $2`, [from, offerId]);
        const before = (await eventsOf(db())).length;
        const history = await historyOf(db());
        const by = { actorId: shipper.id, party: 'shipper' as const };
        const set = action === 'counter' ? { price: '3100.00', lastOfferBy: 'shipper' as const } : {};
        if (to) {
          await expect(
            db().transaction(async (tx) => {
              const data = action === 'counter' || action === 'accept' ? { priceSar: '3100.00' } : {};
              expect(await transitionOffer(tx, offerId, action, by, data, set)).toBe(to);
              const [row] = await queryRows<{ status: string; price: string }>(tx, sql`select status, price::text as price from offers where id = ${offerId}`);
              expect(row.status).toBe(to);
              if (action === 'counter') expect(row.price).toBe('3100.00');
              expect(await historyOf(tx)).toBe(history + 1);
              const events = await eventsOf(tx);
              expect(events).toHaveLength(before + 1);
              expect(events[events.length - 1]).toMatchObject({
                type: OFFER_ACTION_EVENT[action],
                data: { offerId, carrierId: carrier.id, shipperId: shipper.id, by: 'shipper', status: { from, to } },
              });
              throw new Rollback();
            }),
          ).rejects.toBeInstanceOf(Rollback);
        } else {
          await expect(db().transaction((tx) => transitionOffer(tx, offerId, action, by, {}, set))).rejects.toMatchObject({ code: 'OFFER_NOT_PENDING' });
          expect(await one<{ status: string; price: string }>('select status, price::text as price from offers where id = $1', [offerId])).toEqual({
            status: from,
            price: '2900.00',
          });
          expect(await historyOf(db())).toBe(history);
          expect(await eventsOf(db())).toHaveLength(before);
        }
      });
    }
});

it('runs on the configured engine', () => expect(['pglite', 'postgres']).toContain(ENGINE));
