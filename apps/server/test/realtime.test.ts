import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MqttClient } from 'mqtt';
import { ACCOUNT_TYPE, realtimeMessageSchema, userTopic, type Load, type Offer, type RealtimeMessage } from '@masar/shared';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { signAccessToken } from '../src/lib/tokens.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { listenForMqtt, mqttClients, until, closed } from './mqtt.ts';

/**
 * The real-time channel (issue 21; docs/realtime.md), on PGlite and PostgreSQL, over a real
 * listening server and the `mqtt` client the web app uses: sign-in by access token, the topic
 * ACL, a domain event reaching its parties' topics after the commit (the job worker's drain, as
 * in production), clients that may not publish, and a logout or a suspension cutting the
 * connection.
 */
let t: TestContext;
let url: string;
let shipper: TestUser;
let carrier: TestUser;
const { call, ok } = apiCaller(() => t);
const { connect, closeAll } = mqttClients(() => url);
/** The messages a client hears on its own topic, parsed with the shared schema. */
const inbox = (c: MqttClient) => {
  const got: { msg: RealtimeMessage; at: number }[] = [];
  c.on('message', (_topic, payload) => got.push({ msg: realtimeMessageSchema.parse(JSON.parse(payload.toString())), at: Date.now() }));
  return got;
};

beforeAll(async () => {
  // the job worker runs: the outbox drain wakes on the commit's NOTIFY, as in production
  t = await createTestApp({ REALTIME_SWEEP_SECONDS: 3600 });
  url = await listenForMqtt(t);
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(async () => {
  await closeAll();
  await t?.close();
});

describe('real-time channel (MQTT over WebSocket)', () => {
  it('refuses a forged token, a guest token and a client id of another user', async () => {
    await expect(connect(shipper, { password: 'not-a-token' })).rejects.toThrow(/Bad username or password/);
    const guest = await signAccessToken({ sub: shipper.id, sid: shipper.id, typ: 'guest' }, t.config.jwtSecret, 60);
    await expect(connect(shipper, { password: guest.token })).rejects.toThrow(/Bad username or password/);
    // the carrier's token with the shipper's id prefix: it could otherwise take the shipper's connection over
    await expect(connect(carrier, { clientId: `u:${shipper.id}:x` })).rejects.toThrow(/Identifier rejected/);
  });

  it("grants the user's own topic and refuses anyone else's", async () => {
    const c = await connect(shipper);
    const granted = await c.subscribeAsync(userTopic(shipper.id));
    expect(granted.map((g) => g.qos)).toEqual([0]);
    // refused in the SUBACK (0x80); the connection stays
    for (const topic of [userTopic(carrier.id), 'masar/#', '#']) await expect(c.subscribeAsync(topic)).rejects.toThrow(/Subscribe error/);
    expect(c.connected).toBe(true);
  });

  it("publishes a bid to the shipper's topic after the commit, and not to strangers", async () => {
    const s = await connect(shipper);
    await s.subscribeAsync(userTopic(shipper.id));
    const heard = inbox(s);
    const stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const x = await connect(stranger);
    await x.subscribeAsync(userTopic(stranger.id));
    const strangerHeard = inbox(x);

    const load = ok(await call<Load>('POST', '/loads', shipper.headers, loadBody()), 201);
    await until(() => heard.some((h) => h.msg.type === 'load.posted' && h.msg.loadId === load.id));
    const before = Date.now();
    const offer = ok(await call<Offer>('POST', '/offers', carrier.headers, { loadId: load.id, priceSar: '2500' }), 201);
    await until(() => heard.some((h) => h.msg.type === 'offer.created' && h.msg.loadId === load.id));
    const got = heard.find((h) => h.msg.type === 'offer.created')!;
    expect(got.msg).toMatchObject({ v: 1, kind: 'event', aggregateType: 'load', aggregateId: load.id });
    // a hint names what changed; the offer itself is read from the API
    expect(JSON.stringify(got.msg)).not.toContain(offer.priceSar);
    console.info(`realtime: bid → shipper's client in ${got.at - before} ms (request, commit, drain, publish)`);
    expect(strangerHeard).toEqual([]);
  });

  it('disconnects a client that publishes', async () => {
    const c = await connect(carrier);
    const gone = closed(c);
    c.publish(userTopic(shipper.id), 'spoof');
    await gone;
    expect(c.connected).toBe(false);
  });

  it('cuts the connection when the session logs out', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const c = await connect(u);
    const gone = closed(c);
    ok(await call('POST', '/account/logout', u.headers, {}));
    await gone;
    // and the revoked token cannot connect again
    await expect(connect(u)).rejects.toThrow(/Bad username or password/);
  });

  it('cuts the connection of a suspended account at the next sweep', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const c = await connect(u);
    await t.database.query(`update users set status = 3 where id = $1`, [u.id]);
    const gone = closed(c);
    await t.app.container.realtime!.sweep();
    await gone;
    expect(c.connected).toBe(false);
  });
});
