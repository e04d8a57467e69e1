import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type MqttClient } from 'mqtt';
import {
  ACCOUNT_TYPE,
  callMessageSchema,
  callSignalMessageSchema,
  type Call,
  type CallMessage,
  type CallSignalMessage,
  type CallWithIce,
  type Conversation,
} from '@masar/shared';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { turnCredential } from '../src/modules/calls/ice.ts';
import { newId } from '../src/lib/ids.ts';
import { apiCaller, createUser, loadConversation, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { listenForMqtt, mqttClients } from './mqtt.ts';

/**
 * Calls about a load (issue 21 "Calls"; docs/calls.md), on PGlite and PostgreSQL, over a real
 * listening server and the `mqtt` client the web app uses: create / accept / leave and their
 * events, the spec's call messages on the parties' topics, SDP/ICE relay to the other party only,
 * strangers, blocks and the audio/video settings, 20 racing calls → one, the missed call's
 * notification, and TURN credentials in coturn's REST scheme.
 */
let t: TestContext;
let url: string;
let shipper: TestUser;
let carrier: TestUser;
let stranger: TestUser;
let conv: Conversation;
let loadId: string;
const { call, ok } = apiCaller(() => t);
const { connect: connectBare, closeAll } = mqttClients(() => url);

/** A client of `u` that already follows its profile topic. */
const connect = async (u: { id: string; accessToken: string }) => {
  const c = await connectBare(u);
  await c.subscribeAsync(`masar/u/${u.id}`);
  return c;
};
/** The call and call-signal messages a client hears on its profile topic. */
const inbox = (c: MqttClient) => {
  const got: { calls: CallMessage[]; signals: CallSignalMessage[] } = { calls: [], signals: [] };
  c.on('message', (_tp, payload) => {
    const data: unknown = JSON.parse(payload.toString());
    const a = callMessageSchema.safeParse(data);
    if (a.success) got.calls.push(a.data);
    const b = callSignalMessageSchema.safeParse(data);
    if (b.success) got.signals.push(b.data);
  });
  return got;
};
const until = async (what: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out');
    await t.app.container.services.events.drainAll();
    await new Promise((r) => setTimeout(r, 25));
  }
};
const count = async (q: string, params: unknown[] = []) => Number((await t.database.query<{ n: string | number }>(q, params))[0].n);
const ring = (u: TestUser, type: 'AudioCall' | 'VideoCall' = 'AudioCall', conversationId = conv.id, key?: string) =>
  call<CallWithIce>('POST', '/meetings/v1/meeting', key ? { ...u.headers, 'idempotency-key': key } : u.headers, { conversationId, type });
const accept = (u: TestUser, meetingId: string, deviceId = 'tab-1') => call<CallWithIce>('POST', '/meetings/v1/accept', u.headers, { meetingId, deviceId });
const leave = (u: TestUser, meetingId: string) => call<Call>('DELETE', `/meetings/v1/leave?meetingId=${meetingId}`, u.headers);
const eventsOf = (id: string) =>
  t.database.query<{ type: string; data: Record<string, unknown>; aggregate_type: string }>(
    `select type, data, aggregate_type from outbox_events where data->>'callId' = $1 order by created_at, id`,
    [id],
  );

beforeAll(async () => {
  t = await createTestApp({ REALTIME_SWEEP_SECONDS: 3600 });
  url = await listenForMqtt(t);
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Najd Foods' });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Qassim Haulage' });
  stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  ({ loadId, conv } = await loadConversation(t, shipper, carrier));
});
afterAll(async () => {
  await closeAll();
  await t?.close();
});

describe('a call from ring to hang-up', () => {
  it('rings, is answered, relays signalling to the other party only, and ends — each step an event and a spec message', async () => {
    const sc = await connect(shipper);
    const cc = await connect(carrier);
    const xc = await connect(stranger);
    const sIn = inbox(sc);
    const cIn = inbox(cc);
    const xIn = inbox(xc);

    const c = ok(await ring(shipper, 'AudioCall', conv.id, newId()), 201);
    expect(c).toMatchObject({ status: 'ringing', type: 'AudioCall', isReceiver: false, loadId, conversationId: conv.id, iceServers: [] });
    expect(c.counterpart).toEqual({ userId: carrier.id, companyName: 'Qassim Haulage' });
    // no phone number anywhere in the answer
    expect(JSON.stringify(c)).not.toContain(carrier.phone);
    expect(JSON.stringify(c)).not.toContain(shipper.phone);

    // the carrier hears meetingCreated and reads who calls
    await until(() => cIn.calls.some((m) => m.meetingId === c.meetingId && m.event === 'meetingCreated'));
    expect(cIn.calls.find((m) => m.meetingId === c.meetingId)).toMatchObject({ type: 'AudioCall', callerId: shipper.id, loadId, deviceId: null });
    const seen = ok(await call<Call>('GET', `/meetings/v1/meeting/${c.meetingId}`, carrier.headers));
    expect(seen).toMatchObject({ isReceiver: true, status: 'ringing', counterpart: { userId: shipper.id, companyName: 'Najd Foods' } });
    expect(JSON.stringify(seen)).not.toContain(shipper.phone);
    expect(ok(await call<{ call: CallWithIce | null }>('GET', '/meetings/v1/current', carrier.headers)).call?.meetingId).toBe(c.meetingId);

    // the caller cannot answer its own call
    expect((await accept(shipper, c.meetingId)).body.code).toBe('CALL_NOT_RINGING');
    const a = ok(await accept(carrier, c.meetingId, 'carrier-tab'));
    expect(a).toMatchObject({ status: 'active', answeredDeviceId: 'carrier-tab' });
    expect(a.answeredAt).not.toBeNull();
    // a second answer (another tab) is refused
    expect((await accept(carrier, c.meetingId, 'other-tab')).body.code).toBe('CALL_NOT_RINGING');
    await until(() => sIn.calls.some((m) => m.meetingId === c.meetingId && m.event === 'joinRequestAccept'));
    expect(sIn.calls.find((m) => m.event === 'joinRequestAccept')!.deviceId).toBe('carrier-tab');

    // SDP and ICE go to the other party, stamped with the sender's account, and to no stranger
    const offer = JSON.stringify({ type: 'offer', sdp: 'v=0 fake' });
    expect(ok(await call('POST', '/meetings/v1/signal', shipper.headers, { meetingId: c.meetingId, kind: 'offer', payload: offer }))).toEqual({
      relayed: true,
    });
    await until(() => cIn.signals.length === 1);
    expect(cIn.signals[0]).toMatchObject({ kind: 'call-signal', meetingId: c.meetingId, from: shipper.id, signal: 'offer', payload: offer });
    ok(await call('POST', '/meetings/v1/signal', carrier.headers, { meetingId: c.meetingId, kind: 'answer', payload: '{"type":"answer"}' }));
    await until(() => sIn.signals.length === 1);
    expect(sIn.signals[0]).toMatchObject({ from: carrier.id, signal: 'answer' });
    // the caller heard only the answer, the callee only the offer (no echo)
    expect(cIn.signals).toHaveLength(1);
    // a stranger may not signal, and heard nothing of it
    expect((await call('POST', '/meetings/v1/signal', stranger.headers, { meetingId: c.meetingId, kind: 'candidate', payload: '{}' })).status).toBe(404);
    // too long a payload is refused
    expect(
      (await call('POST', '/meetings/v1/signal', shipper.headers, { meetingId: c.meetingId, kind: 'candidate', payload: 'x'.repeat(16_001) })).status,
    ).toBe(400);

    // the callee hangs up: memberLeave on both sides
    const ended = ok(await leave(carrier, c.meetingId));
    expect(ended).toMatchObject({ status: 'ended', endReason: 'hangup' });
    // leaving again answers the call as it is
    expect(ok(await leave(shipper, c.meetingId)).status).toBe('ended');
    await until(() => sIn.calls.some((m) => m.meetingId === c.meetingId && m.event === 'memberLeave'));
    expect((await call('POST', '/meetings/v1/signal', shipper.headers, { meetingId: c.meetingId, kind: 'candidate', payload: '{}' })).body.code).toBe(
      'CALL_NOT_ACTIVE',
    );
    const evs = await eventsOf(c.meetingId);
    expect(evs.map((e) => e.type)).toEqual(['call.created', 'call.accepted', 'call.ended']);
    expect(evs.every((e) => e.aggregate_type === 'conversation')).toBe(true);
    expect(evs[2].data).toMatchObject({ reason: 'hangup', endedBy: 'carrier', by: 'shipper', shipperId: shipper.id, carrierId: carrier.id });
    expect(xIn.calls).toHaveLength(0);
    expect(xIn.signals).toHaveLength(0);
    // private: not on the load's timeline
    expect(
      await count(`select count(*) as n from load_timeline where event_id in (select id from outbox_events where data->>'callId' = $1)`, [c.meetingId]),
    ).toBe(0);
  });

  it('the caller hanging up an active call is meetingEndedByHost; the line is free again', async () => {
    const cc = await connect(carrier);
    const cIn = inbox(cc);
    const c = ok(await ring(carrier, 'VideoCall'), 201);
    expect(c.type).toBe('VideoCall');
    ok(await accept(shipper, c.meetingId));
    expect(ok(await leave(carrier, c.meetingId))).toMatchObject({ status: 'ended', endReason: 'hangup' });
    await until(() => cIn.calls.some((m) => m.meetingId === c.meetingId && m.event === 'meetingEndedByHost'));
    expect(await count(`select count(*) as n from call_lines`)).toBe(0);
  });

  it('a stranger gets NOT_FOUND for the conversation and for the call', async () => {
    expect((await ring(stranger)).body.code).toBe('NOT_FOUND');
    const c = ok(await ring(shipper), 201);
    for (const r of [
      await call('GET', `/meetings/v1/meeting/${c.meetingId}`, stranger.headers),
      await accept(stranger, c.meetingId),
      await leave(stranger, c.meetingId),
    ])
      expect([r.status, (r.body as { code: string }).code]).toEqual([404, 'NOT_FOUND']);
    // the callee declines: declined, memberLeave, no missed call
    expect(ok(await leave(carrier, c.meetingId))).toMatchObject({ status: 'declined', endReason: 'declined' });
    expect((await eventsOf(c.meetingId)).map((e) => e.type)).toEqual(['call.created', 'call.ended']);
  });
});

describe('who may call', () => {
  it('a block either way refuses (USER_BLOCKED)', async () => {
    expect((await call('POST', '/account/blocked', carrier.headers, { userId: shipper.id })).status).toBe(201);
    expect((await ring(shipper)).body.code).toBe('USER_BLOCKED');
    expect((await ring(carrier)).body.code).toBe('USER_BLOCKED');
    expect((await call('DELETE', `/account/blocked/${shipper.id}`, carrier.headers)).status).toBe(200);
  });

  it('the callee’s audio and video settings apply (CALL_NOT_ALLOWED), each for its kind of call', async () => {
    expect((await call('PATCH', '/account/settings', carrier.headers, { audio: 'nobody' })).status).toBe(200);
    const r = await ring(shipper, 'AudioCall');
    expect([r.status, r.body.code]).toEqual([403, 'CALL_NOT_ALLOWED']);
    // a video call is its own setting (counterparts by default): it rings
    const v = ok(await ring(shipper, 'VideoCall'), 201);
    ok(await leave(shipper, v.meetingId));
    expect((await call('PATCH', '/account/settings', carrier.headers, { audio: 'counterparts', video: 'nobody' })).status).toBe(200);
    expect((await ring(shipper, 'VideoCall')).body.code).toBe('CALL_NOT_ALLOWED');
    // the shipper's own settings do not stop the carrier calling it
    const back = ok(await ring(carrier, 'VideoCall'), 201);
    ok(await leave(carrier, back.meetingId));
    expect((await call('PATCH', '/account/settings', carrier.headers, { video: 'counterparts' })).status).toBe(200);
  });

  it('20 racing calls on one conversation: exactly one rings, the others are CALL_BUSY; a busy account cannot be called elsewhere', async () => {
    const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => ring(i % 2 ? shipper : carrier, 'AudioCall', conv.id, newId())));
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(Array(19).fill('CALL_BUSY'));
    expect(await count(`select count(*) as n from calls where conversation_id = $1 and status in ('ringing', 'active')`, [conv.id])).toBe(1);
    const live = rs.find((r) => r.status === 201)!.body.data;

    // the shipper talks to another carrier about another load: busy while the first call rings
    const other = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const load2 = ok<{ id: string }>(await call('POST', '/loads', shipper.headers, loadBody()), 201).id;
    ok(await call('POST', '/offers', other.headers, { loadId: load2, priceSar: '2100' }), 201);
    const conv2 = ok<Conversation>(await call('POST', '/chat/conversations', other.headers, { loadId: load2 }), 201);
    expect((await ring(other, 'AudioCall', conv2.id)).body.code).toBe('CALL_BUSY');
    ok(await leave(shipper, live.meetingId));
    const c2 = ok(await ring(other, 'AudioCall', conv2.id), 201);
    ok(await leave(other, c2.meetingId));
  });
});

describe('missed calls', () => {
  it('the caller hanging up while it rings is a missed call: meetingEndedByHost and a notification for the callee', async () => {
    const cc = await connect(carrier);
    const cIn = inbox(cc);
    const c = ok(await ring(shipper), 201);
    expect(ok(await leave(shipper, c.meetingId))).toMatchObject({ status: 'missed', endReason: 'cancelled' });
    await until(() => cIn.calls.some((m) => m.meetingId === c.meetingId && m.event === 'meetingEndedByHost'));
    const ofCall = `event_id in (select id from outbox_events where type = 'call.missed' and data->>'callId' = $1)`;
    await vi.waitFor(
      async () => {
        await t.app.container.services.events.drainAll();
        expect(await count(`select count(*) as n from notifications where ${ofCall}`, [c.meetingId])).toBe(1);
      },
      { timeout: 10_000, interval: 100 },
    );
    // for the carrier (the callee), in the chat category, opening the load
    const [n] = await t.database.query<{ user_id: string; category: string }>(`select user_id, category from notifications where ${ofCall}`, [c.meetingId]);
    expect(n).toEqual({ user_id: carrier.id, category: 'chat' });
    const list = ok<{ items: { type: string; link: string }[] }>(await call('GET', '/user/notification', carrier.headers));
    expect(list.items.find((i) => i.type === 'call.missed')?.link).toContain(loadId);
  });

  it('a call nobody answers within 45 s is missed (timeout): meetingEndedDueToNoUserPublishing, and it can no longer be answered', async () => {
    const cc = await connect(carrier);
    const cIn = inbox(cc);
    const c = ok(await ring(shipper), 201);
    expect(new Date(c.ringsUntil).getTime() - new Date(c.createdAt).getTime()).toBe(45_000);
    // not yet: 44 s later it still rings
    expect(await t.app.container.services.calls.expireDue(new Date(Date.now() + 44_000))).toBe(0);
    expect(await t.app.container.services.calls.expireDue(new Date(Date.now() + 46_000))).toBe(1);
    expect(ok(await call<Call>('GET', `/meetings/v1/meeting/${c.meetingId}`, carrier.headers))).toMatchObject({ status: 'missed', endReason: 'timeout' });
    expect((await accept(carrier, c.meetingId)).body.code).toBe('CALL_NOT_RINGING');
    await until(() => cIn.calls.some((m) => m.meetingId === c.meetingId && m.event === 'meetingEndedDueToNoUserPublishing'));
    expect((await eventsOf(c.meetingId)).map((e) => [e.type, e.data.reason])).toEqual([
      ['call.created', undefined],
      ['call.missed', 'timeout'],
    ]);
  });
});

describe('ICE servers', () => {
  it('TURN credentials follow coturn’s REST scheme: "<expiry>:<user>" and base64(HMAC-SHA1(secret, username))', () => {
    const now = Date.UTC(2026, 10, 27, 9, 0, 0);
    const cred = turnCredential('north-wind-secret-0123', 'user-1', 3600, now);
    expect(cred.username).toBe(`${now / 1000 + 3600}:user-1`);
    // computed independently: the known vector of the scheme
    expect(cred.credential).toBe(createHmac('sha1', 'north-wind-secret-0123').update('1795773600:user-1').digest('base64'));
    expect(cred.username).toBe('1795773600:user-1');
  });

  it('a call hands out STUN and TURN from the configuration, with a fresh credential for the caller', async () => {
    const t2 = await createTestApp({
      STUN_URLS: ['stun:stun.masar.test:3478'],
      TURN_URLS: ['turn:turn.masar.test:3478?transport=udp', 'turns:turn.masar.test:5349'],
      TURN_SECRET: 'coturn-static-auth-secret',
      TURN_TTL_SECONDS: 600,
    });
    try {
      const api = apiCaller(() => t2);
      const s = await createUser(t2, { accountType: ACCOUNT_TYPE.shipper });
      const k = await createUser(t2, { accountType: ACCOUNT_TYPE.carrier });
      const l = api.ok<{ id: string }>(await api.call('POST', '/loads', s.headers, loadBody()), 201).id;
      api.ok(await api.call('POST', '/offers', k.headers, { loadId: l, priceSar: '2500' }), 201);
      const cv = api.ok<Conversation>(await api.call('POST', '/chat/conversations', k.headers, { loadId: l }), 201);
      const before = Math.floor(Date.now() / 1000);
      const c = api.ok<CallWithIce>(await api.call('POST', '/meetings/v1/meeting', s.headers, { conversationId: cv.id, type: 'AudioCall' }), 201);
      expect(c.iceServers[0]).toEqual({ urls: ['stun:stun.masar.test:3478'] });
      const turn = c.iceServers[1];
      expect(turn.urls).toEqual(['turn:turn.masar.test:3478?transport=udp', 'turns:turn.masar.test:5349']);
      const [expiry, user] = turn.username!.split(':');
      expect(user).toBe(s.id);
      expect(Number(expiry) - before).toBeGreaterThanOrEqual(600);
      expect(Number(expiry) - before).toBeLessThanOrEqual(602);
      expect(turn.credential).toBe(createHmac('sha1', 'coturn-static-auth-secret').update(turn.username!).digest('base64'));
    } finally {
      await t2.close();
    }
  });
});
