import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MqttClient } from 'mqtt';
import { ACCOUNT_TYPE, presenceMessageSchema, presenceTopic, userTopic, type Conversation, type PresenceMessage } from '@masar/shared';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { newId } from '../src/lib/ids.ts';
import { apiCaller, createTeamMember, createUser, loadConversation, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { listenForMqtt, mqttClients, until, closed } from './mqtt.ts';

/**
 * Presence in a chat conversation (issue 21 "only the server publishes, except typing and
 * presence"; docs/realtime.md "Presence"), on PGlite and PostgreSQL, over a real listening server
 * and the `mqtt` client the web app uses: a party following `masar/c/<id>/presence` hears the
 * other side's state at once, then online when its first connection (any of its users) opens and
 * offline with a stored last-seen time when its last one closes — the same as GET
 * /chat/conversations/:id answers; a stranger cannot follow, nobody may publish on it, and a
 * block hides it both ways until lifted.
 *
 * "Nothing arrived" is shown by a SUBACK on the follower's own connection after the news reached
 * another follower (the broker checks a client's work in order).
 */
let t: TestContext;
let url: string;
const { call, ok } = apiCaller(() => t);
const { connect, closeAll } = mqttClients(() => url);
/** The presence messages a client hears, parsed with the shared schema, with the retain flag. */
const inbox = (c: MqttClient) => {
  const got: (PresenceMessage & { retain: boolean })[] = [];
  c.on('message', (tp, payload, packet) => {
    if (tp.endsWith('/presence')) got.push({ ...presenceMessageSchema.parse(JSON.parse(payload.toString())), retain: packet.retain });
  });
  return got;
};
/** Follow a conversation's presence with a fresh connection of `u`; its inbox starts before the SUBACK. */
const follow = async (u: TestUser, conversationId: string) => {
  const c = await connect(u);
  const heard = inbox(c);
  expect((await c.subscribeAsync(presenceTopic(conversationId))).map((g) => g.qos)).toEqual([0]);
  return { c, heard };
};
const otherSide = async (u: TestUser, id: string) => ok<Conversation>(await call('GET', `/chat/conversations/${id}`, u.headers)).otherSide;

/** A shipper, a carrier with an offer on its load, and their conversation. */
async function pair(): Promise<{ shipper: TestUser; carrier: TestUser; conv: Conversation }> {
  const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  const { conv } = await loadConversation(t, shipper, carrier);
  return { shipper, carrier, conv };
}

/** A user who acts for `owner` as a team member with `role`. */
const member = (owner: TestUser, role: 'admin' | 'viewer') => createTeamMember(t, owner, role);

beforeAll(async () => {
  t = await createTestApp({ REALTIME_SWEEP_SECONDS: 3600 });
  url = await listenForMqtt(t);
});
afterAll(async () => {
  await closeAll();
  await t?.close();
});

describe('presence on a conversation topic', () => {
  it('the other party hears online on connect and offline with a last-seen on disconnect; the API agrees', async () => {
    const { shipper, carrier, conv } = await pair();
    expect(presenceTopic(conv.id)).toBe(`masar/c/${conv.id}/presence`);
    expect(await otherSide(shipper, conv.id)).toEqual({ online: false, lastSeenAt: null });

    // following answers the other side's state now: never seen
    const s = await follow(shipper, conv.id);
    await until(() => s.heard.length === 1);
    expect(s.heard[0]).toMatchObject({ v: 1, kind: 'presence', conversationId: conv.id, side: 'carrier', userId: carrier.id, online: false, lastSeenAt: null });
    expect(s.heard[0].retain).toBe(false);

    const c = await connect(carrier);
    await until(() => s.heard.length === 2);
    expect(s.heard[1]).toMatchObject({ side: 'carrier', userId: carrier.id, online: true });
    expect(await otherSide(shipper, conv.id)).toMatchObject({ online: true });

    // a second connection of the same account adds nothing; closing one of two neither
    const c2 = await connect(carrier);
    await c2.endAsync();
    // the carrier's side sees the shipper online (its follow connection is open)
    const back = await follow(carrier, conv.id);
    await until(() => back.heard.length === 1);
    expect(back.heard[0]).toMatchObject({ side: 'shipper', userId: shipper.id, online: true });

    const before = Date.now();
    await c.endAsync();
    await back.c.endAsync();
    await until(() => s.heard.length === 3);
    expect(s.heard.map((h) => h.online)).toEqual([false, true, false]);
    const seen = s.heard[2].lastSeenAt;
    expect(seen).not.toBeNull();
    expect(Math.abs(new Date(seen!).getTime() - before)).toBeLessThan(10_000);
    // stored: the API and a new follower say the same
    expect(await otherSide(shipper, conv.id)).toEqual({ online: false, lastSeenAt: seen });
    const later = await follow(shipper, conv.id);
    await until(() => later.heard.length === 1);
    expect(later.heard[0]).toMatchObject({ online: false, lastSeenAt: seen });
  });

  it("a team member's connection counts for its owner's side", async () => {
    const { shipper, carrier, conv } = await pair();
    const s = await follow(shipper, conv.id);
    await until(() => s.heard.length === 1);
    expect(s.heard[0].online).toBe(false);
    const admin = await member(carrier, 'admin');
    const m = await connect(admin);
    await until(() => s.heard.length === 2);
    // the carrier's account, never the member's own id
    expect(s.heard[1]).toMatchObject({ side: 'carrier', userId: carrier.id, online: true });
    // the owner connecting too adds nothing; the side is offline only when both are gone
    const o = await connect(carrier);
    await m.endAsync();
    const viewer = await member(shipper, 'viewer');
    // a viewer of the shipper follows for its owner; its answer comes after anything pending
    const v = await follow(viewer, conv.id);
    await until(() => v.heard.length === 1);
    expect(v.heard[0]).toMatchObject({ side: 'carrier', userId: carrier.id, online: true });
    expect(s.heard.map((h) => h.online)).toEqual([false, true]);
    await o.endAsync();
    await until(() => s.heard.length === 3 && v.heard.length === 2);
    expect([s.heard[2].online, v.heard[1].online]).toEqual([false, false]);
  });

  it('a stranger cannot follow; wildcards are refused; nobody may publish on a presence topic', async () => {
    const { shipper, carrier, conv } = await pair();
    const stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const x = await connect(stranger);
    const heard = inbox(x);
    for (const tp of [presenceTopic(conv.id), 'masar/c/+/presence', 'masar/c/#', presenceTopic(conv.id.toUpperCase()), presenceTopic(newId())])
      await expect(x.subscribeAsync(tp)).rejects.toThrow(/Subscribe error/);
    expect(x.connected).toBe(true);
    await connect(carrier);
    await connect(shipper);
    await x.subscribeAsync(userTopic(stranger.id));
    expect(heard).toEqual([]);

    for (const u of [shipper, stranger]) {
      const c = await connect(u);
      const cut = closed(c);
      c.publish(presenceTopic(conv.id), JSON.stringify({ online: true }));
      await cut;
      expect(c.connected).toBe(false);
    }
  });

  it('a block hides presence both ways (no follow, no news, the API says nothing) until it is lifted', async () => {
    const { shipper, carrier, conv } = await pair();
    // a second conversation of the carrier's, whose follower hears the carrier's news as a witness
    const other = await pair();
    const load = ok<{ id: string }>(await call('POST', '/loads', other.shipper.headers, loadBody()), 201);
    ok(await call('POST', '/offers', carrier.headers, { loadId: load.id, priceSar: '2400' }), 201);
    const witnessConv = ok<Conversation>(await call('POST', '/chat/conversations', carrier.headers, { loadId: load.id }), 201);

    const s = await follow(shipper, conv.id);
    const w = await follow(other.shipper, witnessConv.id);
    await until(() => s.heard.length === 1 && w.heard.length === 1);
    ok(await call('POST', '/account/blocked', shipper.headers, { userId: carrier.id }), 201);

    const c = await connect(carrier);
    await until(() => w.heard.length === 2);
    expect(w.heard[1]).toMatchObject({ userId: carrier.id, online: true });
    // the shipper's check of that news is decided before this SUBACK: nothing came
    await s.c.subscribeAsync(userTopic(shipper.id));
    expect(s.heard).toHaveLength(1);
    expect(await otherSide(shipper, conv.id)).toEqual({ online: false, lastSeenAt: null });
    expect(await otherSide(carrier, conv.id)).toEqual({ online: false, lastSeenAt: null });
    // neither side may follow while it stands
    await expect(c.subscribeAsync(presenceTopic(conv.id))).rejects.toThrow(/Subscribe error/);
    await expect((await connect(shipper)).subscribeAsync(presenceTopic(conv.id))).rejects.toThrow(/Subscribe error/);

    ok(await call('DELETE', `/account/blocked/${carrier.id}`, shipper.headers));
    expect(await otherSide(shipper, conv.id)).toMatchObject({ online: true });
    const again = await follow(shipper, conv.id);
    await until(() => again.heard.length === 1);
    expect(again.heard[0]).toMatchObject({ side: 'carrier', userId: carrier.id, online: true });
  });
});
