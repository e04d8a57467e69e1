import { ACCOUNT_TYPE, SUBSCRIPTION_ACTION_EVENT, SUBSCRIPTION_ACTIONS, SUBSCRIPTION_STATUSES, subscriptionTransition } from '@masar/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTx } from '../src/db/client.ts';
import { queryRows } from '../src/lib/sql.ts';
import { subData } from '../src/modules/billing/billing.shared.ts';
import { transition } from '../src/modules/billing/lifecycle.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

// Issue 51: every (status × action) pair through THE transition() of subscriptions, on the
// database: an allowed pair changes the row and publishes its event (if the action has one) in the
// same transaction; a refused pair writes nothing and publishes nothing. (The pure table is tested
// pair by pair in packages/shared rules/subscription-lifecycle.test.ts.)

let t: TestContext;
let u: TestUser;
let subId: string;

/** Thrown to roll a probe transaction back after its checks. */
class Rollback extends Error {}

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  u = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  subId = (await t.database.query<{ id: string }>('select id from subscriptions where user_id = $1', [u.id]))[0].id;
});
afterAll(() => t?.close());

const db = () => t.app.container.db;
const eventsOf = (tx: DbOrTx) =>
  queryRows<{ type: string; data: Record<string, unknown> }>(tx, sql`select type, data from outbox_events where aggregate_id = ${u.id} order by seq`);
const statusOf = async () => (await t.database.query<{ status: string }>('select status from subscriptions where id = $1', [subId]))[0].status;

describe('subscriptions: every (status × action) through transition()', () => {
  for (const from of SUBSCRIPTION_STATUSES)
    for (const action of SUBSCRIPTION_ACTIONS) {
      const to = subscriptionTransition(from, action);
      it(`${from} --${action}--> ${to ?? 'refused'}`, async () => {
        // a test fixture: the server itself only writes the status through lifecycle.ts
        await t.database.query('update subscriptions set status = $1 where id = $2', [from, subId]);
        const before = (await eventsOf(db())).length;
        const data = subData(subId, 'test', null);
        if (to) {
          await expect(
            db().transaction(async (tx) => {
              expect(await transition(tx, subId, action, data)).toBe(to);
              const [row] = await queryRows<{ status: string }>(tx, sql`select status from subscriptions where id = ${subId}`);
              expect(row.status).toBe(to);
              const events = await eventsOf(tx);
              const type = SUBSCRIPTION_ACTION_EVENT[action];
              expect(events).toHaveLength(before + (type ? 1 : 0));
              if (type) expect(events[events.length - 1]).toMatchObject({ type, data: { accountId: u.id, ...data } });
              throw new Rollback();
            }),
          ).rejects.toBeInstanceOf(Rollback);
        } else {
          await expect(db().transaction((tx) => transition(tx, subId, action, data))).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
          expect((await eventsOf(db())).length).toBe(before);
        }
        expect(await statusOf()).toBe(from);
      });
    }

  it('an unknown subscription is NOT_FOUND', async () => {
    await expect(db().transaction((tx) => transition(tx, '00000000-0000-4000-8000-000000000000', 'cancel', {}))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
