import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IClientPublishOptions, type MqttClient } from 'mqtt';
import { ACCOUNT_TYPE, conversationTypingTopic, typingMessageSchema, userTopic, type Conversation, type TypingMessage } from '@masar/shared';
import { newId } from '../src/lib/ids.ts';
import { apiCaller, createTeamMember, createUser, loadConversation, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { listenForMqtt, mqttClients, until, closed } from './mqtt.ts';

/**
 * Typing on a conversation's MQTT topic (issue 21 "topic ACL", chat "typing"; docs/realtime.md),
 * on PGlite and PostgreSQL, over a real listening server and the `mqtt` client the web app uses:
 * only the conversation's parties (a team member for its owner) follow and signal; the other party
 * hears the signal stamped by the broker with the real author; a stranger, a malformed or
 * non-typing publish is disconnected; a block drops the signals both ways and refuses following.
 *
 * No fixed sleeps: a SUBACK on the same connection says every publish sent before it was decided
 * (the broker checks a client's packets in order), and "nothing arrived" is shown by the next
 * signal arriving first.
 */
let t: TestContext;
let url: string;
let shipper: TestUser;
let carrier: TestUser;
let stranger: TestUser;
let conv: Conversation;
let topic: string;
const { call, ok } = apiCaller(() => t);
const { connect, closeAll } = mqttClients(() => url);
/** The typing messages a client hears, parsed with the shared schema, with the packet's retain flag. */
const inbox = (c: MqttClient) => {
  const got: { msg: TypingMessage; retain: boolean }[] = [];
  c.on('message', (tp, payload, packet) => {
    if (tp.endsWith('/typing')) got.push({ msg: typingMessageSchema.parse(JSON.parse(payload.toString())), retain: packet.retain });
  });
  return got;
};
const signal = (c: MqttClient, typing: unknown, o: IClientPublishOptions = {}, to = topic) => c.publish(to, JSON.stringify({ typing }), { qos: 0, ...o });
/** Every publish `c` sent before this is decided once its SUBACK is back (the broker checks a client's packets in order). */
const decided = (c: MqttClient, u: TestUser) => c.subscribeAsync(userTopic(u.id));

/** A user who acts for `owner` as a team member with `role`. */
const member = (owner: TestUser, role: 'admin' | 'viewer') => createTeamMember(t, owner, role);

beforeAll(async () => {
  t = await createTestApp({ REALTIME_SWEEP_SECONDS: 3600 });
  url = await listenForMqtt(t);
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Najd Foods' });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Qassim Haulage' });
  stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  ({ conv } = await loadConversation(t, shipper, carrier));
  topic = conversationTypingTopic(conv.id);
  expect(topic).toBe(`masar/c/${conv.id}/typing`);
});
afterAll(async () => {
  await closeAll();
  await t?.close();
});

describe('typing on a conversation topic', () => {
  it("grants the conversation's parties its typing topic and refuses a stranger and any other spelling", async () => {
    for (const u of [shipper, carrier]) expect((await (await connect(u)).subscribeAsync(topic)).map((g) => g.qos)).toEqual([0]);
    const x = await connect(stranger);
    for (const tp of [topic, 'masar/c/+/typing', 'masar/c/#', conversationTypingTopic(conv.id.toUpperCase()), conversationTypingTopic(newId())])
      await expect(x.subscribeAsync(tp)).rejects.toThrow(/Subscribe error/);
    expect(x.connected).toBe(true);
    // a party may not widen its grant with a wildcard either
    await expect((await connect(carrier)).subscribeAsync('masar/c/+/typing')).rejects.toThrow(/Subscribe error/);
  });

  it('passes a signal on to the other party stamped with its real author; a forged author is overwritten', async () => {
    const s = await connect(shipper);
    await s.subscribeAsync(topic);
    const heard = inbox(s);
    const c = await connect(carrier);
    c.publish(topic, JSON.stringify({ typing: true, userId: stranger.id, side: 'shipper', conversationId: newId(), v: 1, kind: 'typing' }));
    await until(() => heard.length === 1);
    expect(heard[0].msg).toMatchObject({ v: 1, kind: 'typing', conversationId: conv.id, side: 'carrier', userId: carrier.id, typing: true });
    expect(heard[0].retain).toBe(false);
    signal(c, false);
    await until(() => heard.length === 2);
    expect(heard[1].msg).toMatchObject({ side: 'carrier', userId: carrier.id, typing: false });

    // the other way round, and in the order sent (a stop never overtakes the start before it)
    const back = inbox(c);
    await c.subscribeAsync(topic);
    for (const typing of [true, false, true, false]) signal(s, typing);
    await until(() => back.filter((h) => h.msg.side === 'shipper').length === 4);
    expect(back.filter((h) => h.msg.side === 'shipper').map((h) => [h.msg.userId, h.msg.typing])).toEqual([
      [shipper.id, true],
      [shipper.id, false],
      [shipper.id, true],
      [shipper.id, false],
    ]);

    // nothing is retained: a party following later hears nothing until the next signal
    const late = await connect(shipper);
    await late.subscribeAsync(topic);
    const lateHeard = inbox(late);
    signal(c, true);
    await until(() => lateHeard.length === 1);
    expect(lateHeard[0].msg).toMatchObject({ userId: carrier.id, typing: true });
  });

  it("a team member follows and signals for its owner; a viewer's signal is dropped (it may not send)", async () => {
    const c = await connect(carrier);
    await c.subscribeAsync(topic);
    const heard = inbox(c);
    const viewer = await member(shipper, 'viewer');
    const v = await connect(viewer);
    expect((await v.subscribeAsync(topic)).map((g) => g.qos)).toEqual([0]);
    signal(v, true);
    await decided(v, viewer);
    const admin = await member(shipper, 'admin');
    const a = await connect(admin);
    signal(a, true);
    await until(() => heard.length === 1);
    // the owner's side and account, never the member's own id; the viewer's signal never came
    expect(heard[0].msg).toMatchObject({ side: 'shipper', userId: shipper.id, typing: true });
    expect(v.connected).toBe(true);
  });

  it("disconnects a stranger's signal and every publish that is not a typing signal", async () => {
    const heard = inbox(await connect(shipper).then(async (s) => (await s.subscribeAsync(topic), s)));
    const x = await connect(stranger);
    const gone = closed(x);
    signal(x, true);
    await gone;

    const cases: [string, (c: MqttClient) => void][] = [
      ['another topic', (c) => c.publish(userTopic(shipper.id), JSON.stringify({ typing: true }))],
      ['not JSON', (c) => c.publish(topic, 'typing')],
      ['no boolean', (c) => signal(c, 'yes')],
      ['too long', (c) => c.publish(topic, JSON.stringify({ typing: true, pad: 'x'.repeat(300) }))],
      ['QoS 1', (c) => signal(c, true, { qos: 1 })],
      ['retained', (c) => signal(c, true, { retain: true })],
      ['a wildcard-free topic of no conversation', (c) => signal(c, true, {}, conversationTypingTopic(newId()))],
    ];
    for (const [what, send] of cases) {
      const c = await connect(carrier);
      const cut = closed(c);
      send(c);
      await cut;
      expect(c.connected, what).toBe(false);
    }
    // none of it reached the shipper: the next good signal is the first thing it hears
    signal(await connect(carrier), false);
    await until(() => heard.length === 1);
    expect(heard[0].msg).toMatchObject({ userId: carrier.id, typing: false });
  });

  it('a block drops the signals both ways and refuses following; lifting it lets them through again', async () => {
    const s = await connect(shipper);
    await s.subscribeAsync(topic);
    const shipperHeard = inbox(s);
    const c = await connect(carrier);
    await c.subscribeAsync(topic);
    const carrierHeard = inbox(c);
    ok(await call('POST', '/account/blocked', shipper.headers, { userId: carrier.id }), 201);

    signal(c, true);
    signal(s, true);
    await Promise.all([decided(c, carrier), decided(s, shipper)]);
    // dropped, not cut: the connections stay, and a new follow is refused
    expect([c.connected, s.connected]).toEqual([true, true]);
    await expect((await connect(carrier)).subscribeAsync(topic)).rejects.toThrow(/Subscribe error/);

    ok(await call('DELETE', `/account/blocked/${carrier.id}`, shipper.headers));
    signal(c, false);
    signal(s, false);
    await until(() => shipperHeard.some((h) => h.msg.side === 'carrier') && carrierHeard.some((h) => h.msg.side === 'shipper'));
    // the first each heard from the other is the stop sent after the block was lifted
    expect(shipperHeard.find((h) => h.msg.side === 'carrier')!.msg.typing).toBe(false);
    expect(carrierHeard.find((h) => h.msg.side === 'shipper')!.msg.typing).toBe(false);
  });
});
