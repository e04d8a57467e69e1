import { readFileSync } from 'node:fs';
import {
  ACCOUNT_TYPE,
  CALL_ACTION_EVENT,
  CALL_ACTIONS,
  CALL_STATUSES,
  CALL_TRANSITIONS,
  callTransition,
  type Call,
  type CallAction,
  type CallWithIce,
  type Conversation,
} from '@masar/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTx } from '../src/db/client.ts';
import type { AppError } from '../src/lib/errors.ts';
import { queryRows } from '../src/lib/sql.ts';
import { callById } from '../src/modules/calls/calls.repository.ts';
import { transitionCall } from '../src/modules/calls/lifecycle.ts';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

// Issue 51: a call's status changes only through transitionCall() (modules/calls/lifecycle.ts,
// the CALL_TRANSITIONS table), on PGlite and PostgreSQL: every (status × action) pair — an allowed
// one writes the row and publishes its event in the same transaction, a refused one is
// INVALID_TRANSITION and writes nothing — and racing answers leave exactly one winner.

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let conv: Conversation;
const { call, ok } = apiCaller(() => t);

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  const loadId = ok<{ id: string }>(await call('POST', '/loads', shipper.headers, loadBody()), 201).id;
  ok(await call('POST', '/offers', carrier.headers, { loadId, priceSar: '2500' }), 201);
  conv = ok<Conversation>(await call('POST', '/chat/conversations', carrier.headers, { loadId }), 201);
});
afterAll(() => t?.close());

const db = () => t.app.container.db;
/** Thrown to roll a probe transaction back after its checks. */
class Rollback extends Error {}
const ring = async () => ok<CallWithIce>(await call('POST', '/meetings/v1/meeting', shipper.headers, { conversationId: conv.id, type: 'AudioCall' }), 201);
const statusOf = async (id: string) => (await t.database.query<{ status: string }>('select status from calls where id = $1', [id]))[0].status;
const eventsIn = (tx: DbOrTx, id: string) =>
  queryRows<{ type: string; data: Record<string, unknown> }>(tx, sql`select type, data from outbox_events where data->>'callId' = ${id} order by seq`);
const eventsOf = (id: string) => eventsIn(db(), id);
/** What each action's caller sends: the typed event contract refuses call.accepted without deviceId, call.ended without endedBy. */
const dataOf = (action: CallAction) =>
  action === 'answer' ? { deviceId: 'tab-1' } : action === 'decline' || action === 'hangup' ? { endedBy: 'carrier' } : {};
const answer = { answeredBy: '', answeredDeviceId: 'tab-1' };

describe('calls: racing transitions of one ringing call', () => {
  it('20 parallel answers from 20 tabs of the callee: exactly one is answered, the others are CALL_NOT_RINGING, one call.accepted', async () => {
    const c = await ring();
    const rs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call<CallWithIce>('POST', '/meetings/v1/accept', carrier.headers, { meetingId: c.meetingId, deviceId: `tab-${i}` })),
    );
    const won = rs.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(rs.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(Array(19).fill('CALL_NOT_RINGING'));
    expect(await statusOf(c.meetingId)).toBe('active');
    const accepted = (await eventsOf(c.meetingId)).filter((e) => e.type === 'call.accepted');
    expect(accepted.map((e) => e.data.deviceId)).toEqual([won[0].body.data.answeredDeviceId]);
    ok(await call<Call>('DELETE', `/meetings/v1/leave?meetingId=${c.meetingId}`, shipper.headers));
    expect(await statusOf(c.meetingId)).toBe('ended');
  });

  it('20 transitions from one stale read: the conditional update lets one win, the others are STATUS_CHANGED with nothing written', async () => {
    const c = await ring();
    const stale = (await callById(db(), c.meetingId))!;
    const rs = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        db().transaction((tx) => {
          const action: CallAction = i % 2 ? 'answer' : 'decline';
          return transitionCall(tx, stale, action, carrier.id, dataOf(action), { ...answer, answeredBy: carrier.id });
        }),
      ),
    );
    expect(rs.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(rs.flatMap((r) => (r.status === 'rejected' ? [(r.reason as AppError).code] : []))).toEqual(Array(19).fill('STATUS_CHANGED'));
    expect((await eventsOf(c.meetingId)).filter((e) => e.type !== 'call.created')).toHaveLength(1);
    if ((await statusOf(c.meetingId)) === 'active') ok(await call('DELETE', `/meetings/v1/leave?meetingId=${c.meetingId}`, shipper.headers));
  });
});

describe('calls: every (status × action) through transitionCall()', () => {
  let id: string;
  beforeAll(async () => {
    id = (await ring()).meetingId;
  });
  afterAll(async () => {
    await t.database.query(`update calls set status = 'ended', ended_at = now() where id = $1`, [id]);
    await t.database.query('delete from call_lines where call_id = $1', [id]);
  });

  for (const from of CALL_STATUSES)
    for (const action of CALL_ACTIONS) {
      const to = callTransition(from, action);
      it(`${from} --${action}--> ${to ?? 'refused'}`, async () => {
        // a test fixture: the server itself writes a call's status only through transitionCall()
        await t.database.query(`update calls set status = $1, ended_at = case when $1 in ('ringing', 'active') then null else now() end where id = $2`, [
          from,
          id,
        ]);
        const before = (await eventsOf(id)).length;
        if (to) {
          await expect(
            db().transaction(async (tx) => {
              const row = (await callById(tx, id, true))!;
              expect(await transitionCall(tx, row, action, carrier.id, dataOf(action), { ...answer, answeredBy: carrier.id })).toBe(to);
              expect((await callById(tx, id))!.status).toBe(to);
              const events = await eventsIn(tx, id);
              expect(events).toHaveLength(before + 1);
              expect(events[events.length - 1]).toMatchObject({
                type: CALL_ACTION_EVENT[action],
                data: { callId: id, conversationId: conv.id, shipperId: shipper.id, carrierId: carrier.id, by: 'shipper', ...dataOf(action) },
              });
              // an ended call frees both lines
              expect((await queryRows(tx, sql`select 1 from call_lines where call_id = ${id}`)).length).toBe(to === 'active' ? 2 : 0);
              throw new Rollback();
            }),
          ).rejects.toBeInstanceOf(Rollback);
        } else {
          await expect(
            db().transaction(async (tx) => transitionCall(tx, (await callById(tx, id, true))!, action, carrier.id, dataOf(action), answer)),
          ).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
          expect(await statusOf(id)).toBe(from);
          expect(await eventsOf(id)).toHaveLength(before);
        }
      });
    }
});

it('docs/calls.md prints CALL_TRANSITIONS as the code has it', () => {
  const md = readFileSync(new URL('../../../docs/calls.md', import.meta.url), 'utf8');
  for (const x of CALL_TRANSITIONS) expect(md).toContain(`| ${x.from.join(', ')} | \`${x.action}\` | ${x.to} | \`${CALL_ACTION_EVENT[x.action]}\` | ${x.by} |`);
});
