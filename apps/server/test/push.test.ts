import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, Agent, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, defaultNotificationPreferences, type Load, type Offer, type PushPayload } from '@masar/shared';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { notificationsHandler } from '../src/modules/notifications/notifications.service.ts';
import { createPushService } from '../src/modules/notifications/notifications.push.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { createTestDatabase, ENGINE, type TestContext } from './helpers.ts';

/**
 * Web push (issue 21; docs/notifications.md "Web push"), on PGlite and PostgreSQL: a local push
 * service over https (a self-signed certificate the sender's agent trusts) receives the pushes
 * and DECRYPTS them (aes128gcm, RFC 8291) with the browser's private key — as a browser would.
 * A counter offer reaches the carrier's browser in the carrier's language with the load's URL;
 * a redelivered event pushes nothing again; 410 and 404 remove the subscription; push off → no
 * push; quiet hours hold it; unsubscribe works; failures are logged without the endpoint's token.
 */

/** A browser: its push subscription keys and the endpoint path the local push service answers on. */
interface Browser {
  ecdh: ECDH;
  auth: string;
  path: string;
  token: { endpoint: string; keys: { p256dh: string; auth: string } };
}
interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const PORT = ENGINE === 'postgres' ? 4302 : 4301;
let t: TestContext;
let server: Server;
let dir: string;
let shipper: TestUser;
let carrier: TestUser;
const received: Received[] = [];
/** What the push service answers per path (default 201). */
const answer = new Map<string, number>();
const logs: unknown[] = [];
const { call, ok } = apiCaller(() => t);
const drain = () => t.app.container.services.events.drainAll();
const sendDue = (now?: Date) => t.app.container.services.push.sendDue(now);

function browser(): Browser {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  const path = `/wpush/${randomBytes(12).toString('hex')}`;
  return { ecdh, auth, path, token: { endpoint: `https://127.0.0.1:${PORT}${path}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } } };
}
/** Decrypt a received push as the browser would. */
function decrypt(b: Browser, r: Received): PushPayload {
  return JSON.parse(ece.decrypt(r.body, { version: 'aes128gcm', privateKey: b.ecdh, authSecret: b.auth }).toString('utf8')) as PushPayload;
}
const to = (b: Browser) => received.filter((r) => r.path === b.path);
const subscriptions = async (userId: string) =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from push_subscriptions where user_id = $1', [userId]))[0].n;
const subscribe = (u: TestUser, b: Browser, lang = 'en') =>
  call('POST', '/topics/subscribe', { ...u.headers, language: lang }, { token: b.token, topic: `user_${u.id}` });

/** A load of the shipper with a bid of the carrier, countered by the shipper; drained. */
async function counter(price = '2800'): Promise<Load> {
  const load = ok(await call<Load>('POST', '/loads', shipper.headers, loadBody()), 201);
  const offer = ok(await call<Offer>('POST', '/offers', carrier.headers, { loadId: load.id, priceSar: '3000' }), 201);
  ok(await call('POST', '/offerRespond', shipper.headers, { offerId: offer.id, action: 'counter', priceSar: price }));
  await drain();
  return load;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'masar-push-'));
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-days',
    '1',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    join(dir, 'cert.pem'),
  ]);
  const cert = readFileSync(join(dir, 'cert.pem'));
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answer.get(path) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(PORT, '127.0.0.1', resolve));

  const database = await createTestDatabase();
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO_SEED: '0', DATA_DIR: 'memory://', WEB_DIST: '/nonexistent', JOBS: '0', PUSH_ALLOW_PRIVATE: '1' },
    { jwtSecret: 'test-secret-test-secret-test-secret-0123456789' },
  );
  const log = { error: (o: unknown, m: string) => void logs.push({ o, m }), info: (o: unknown, m: string) => void logs.push({ o, m }) };
  const container = createContainer({ config, database, log, pushAgent: new Agent({ ca: cert }) });
  const app = await buildApp({ config, database, container, logger: false });
  await app.ready();
  t = { app, database, config, close: async () => (await app.close(), await database.close()) };
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => server?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('VAPID keys (configuration)', () => {
  const base = { NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  const secret = { jwtSecret: 'x'.repeat(40) };
  it('are generated once into DATA_DIR (0600) and kept; both or neither from the environment; the test switch is refused in production', () => {
    const d = mkdtempSync(join(tmpdir(), 'masar-vapid-'));
    try {
      const a = loadConfig({ ...base, DATA_DIR: d }, secret).vapid;
      expect(a).toMatchObject({ generated: true, subject: 'mailto:support@masar.example' });
      expect(Buffer.from(a.publicKey, 'base64url')).toHaveLength(65);
      expect(Buffer.from(a.privateKey, 'base64url')).toHaveLength(32);
      expect(statSync(join(d, 'vapid-keys.json')).mode & 0o777).toBe(0o600);
      expect(loadConfig({ ...base, DATA_DIR: d }, secret).vapid.publicKey).toBe(a.publicKey);
      const env = loadConfig(
        { ...base, DATA_DIR: d, VAPID_PUBLIC_KEY: a.publicKey, VAPID_PRIVATE_KEY: a.privateKey, VAPID_SUBJECT: 'https://masar.example' },
        secret,
      ).vapid;
      expect(env).toEqual({ publicKey: a.publicKey, privateKey: a.privateKey, subject: 'https://masar.example', generated: false });
      expect(() => loadConfig({ ...base, DATA_DIR: d, VAPID_PUBLIC_KEY: a.publicKey }, secret)).toThrow(/VAPID_PRIVATE_KEY/);
      expect(() => loadConfig({ ...base, DATA_DIR: d, VAPID_SUBJECT: 'support@masar.example' }, secret)).toThrow(/VAPID_SUBJECT/);
      expect(() => loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: 'memory://', ALLOW_SANDBOX_GATEWAYS: '1', PUSH_ALLOW_PRIVATE: '1' }, secret)).toThrow(
        /PUSH_ALLOW_PRIVATE/,
      );
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('web push', () => {
  it('answers the VAPID public key (the one in the configuration)', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/v1/push/vapid-public-key' });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.publicKey).toBe(t.config.vapid.publicKey);
    expect(Buffer.from(t.config.vapid.publicKey, 'base64url')).toHaveLength(65);
  });

  it("a counter offer reaches the carrier's browser encrypted, in the carrier's language, with the load's screen", async () => {
    await t.database.query(`update users set language = 'ar' where id = $1`, [carrier.id]);
    const b = browser();
    expect(ok(await subscribe(carrier, b, 'ar'))).toEqual({ subscribed: true, topic: `user_${carrier.id}` });
    const load = await counter('2800');
    expect(await sendDue()).toBe(1);
    const got = to(b);
    expect(got).toHaveLength(1);
    expect(got[0].headers['content-encoding']).toBe('aes128gcm');
    expect(String(got[0].headers.authorization)).toMatch(new RegExp(`^vapid t=.+, k=${t.config.vapid.publicKey}$`));
    expect(got[0].headers.ttl).toBe('86400');
    const p = decrypt(b, got[0]);
    expect(p).toMatchObject({ title: 'عرض مضاد', url: `/carriers/loads/${load.id}`, tag: `masar:offers:${load.id}`, lang: 'ar' });
    expect(p.body).toContain(load.referenceId);
    expect(p.body).toContain('٢٬٨٠٠');
    const [s] = await t.database.query<{ last_success_at: unknown }>('select last_success_at from push_subscriptions where endpoint = $1', [b.token.endpoint]);
    expect(s.last_success_at).not.toBeNull();
    // the shipper (who countered) has no browser and gets no push row
    expect((await t.database.query<{ n: number }>('select count(*)::int as n from notification_pushes where user_id = $1', [shipper.id]))[0].n).toBe(0);

    // a redelivered event queues nothing: no second push
    const [e] = await t.database.query<{
      id: string;
      type: string;
      aggregate_type: string;
      aggregate_id: string;
      actor_id: string;
      data: Record<string, unknown>;
    }>(`select id, type, aggregate_type, aggregate_id, actor_id, data from outbox_events where type = 'offer.countered' order by seq desc limit 1`);
    await t.app.container.db.transaction((tx) =>
      notificationsHandler.handle(tx, { ...e, aggregateType: e.aggregate_type, aggregateId: e.aggregate_id, actorId: e.actor_id } as never),
    );
    expect(await sendDue()).toBe(0);
    expect(to(b)).toHaveLength(1);
    await call('POST', '/topics/unsubscribe', carrier.headers, { token: b.token, topic: `user_${carrier.id}` });
    await t.database.query(`update users set language = 'en' where id = $1`, [carrier.id]);
  });

  it('an English user gets the English text', async () => {
    const b = browser();
    ok(await subscribe(carrier, b));
    const load = await counter('1500');
    await sendDue();
    const p = decrypt(b, to(b)[0]);
    expect(p).toMatchObject({ title: 'Counter offer', url: `/carriers/loads/${load.id}`, lang: 'en' });
    expect(p.body).toBe(`${load.referenceId} · SAR 1,500`);
    ok(await call('POST', '/topics/unsubscribe', carrier.headers, { token: b.token, topic: `user_${carrier.id}` }));
  });

  it.each([410, 404])('a push service answering %i removes the subscription', async (status) => {
    const b = browser();
    ok(await subscribe(carrier, b));
    answer.set(b.path, status);
    const before = await subscriptions(carrier.id);
    await counter();
    await sendDue();
    expect(to(b)).toHaveLength(1);
    expect(await subscriptions(carrier.id)).toBe(before - 1);
    // the next notification goes nowhere (no browser left, no push queued)
    await counter();
    expect(await sendDue()).toBe(0);
    expect(to(b)).toHaveLength(1);
  });

  it('another failure is retried later and logged without the endpoint token or keys', async () => {
    const b = browser();
    ok(await subscribe(carrier, b));
    answer.set(b.path, 500);
    logs.length = 0;
    await counter();
    await sendDue();
    expect(to(b)).toHaveLength(1);
    expect(await subscriptions(carrier.id)).toBe(1);
    const text = JSON.stringify(logs);
    expect(text).toContain('push: send failed');
    expect(text).toContain(`127.0.0.1:${PORT}`);
    expect(text).not.toContain(b.path.slice(7));
    expect(text).not.toContain(b.token.keys.p256dh);
    expect(text).not.toContain(b.auth);
    // retried after the backoff, and delivered once the service is back
    answer.delete(b.path);
    expect(await sendDue()).toBe(0);
    expect(await sendDue(new Date(Date.now() + 60_000))).toBe(1);
    expect(to(b)).toHaveLength(2);
    ok(await call('POST', '/topics/unsubscribe', carrier.headers, { token: b.token, topic: `user_${carrier.id}` }));
  });

  it('push off for the category → no push; quiet hours hold it until they end', async () => {
    const b = browser();
    ok(await subscribe(carrier, b));
    const prefs = defaultNotificationPreferences();
    prefs.channels.offers.push = false;
    ok(await call('PUT', '/user/notification/preferences', carrier.headers, prefs));
    await counter();
    expect(await sendDue()).toBe(0);
    expect(to(b)).toHaveLength(0);

    // quiet from this minute for half an hour (Riyadh time; a window may run past midnight)
    const riyadhMin = (Math.floor(Date.now() / 60_000) + 180) % 1440;
    const from = `${String(Math.floor(riyadhMin / 60)).padStart(2, '0')}:${String(riyadhMin % 60).padStart(2, '0')}`;
    const end = (riyadhMin + 30) % 1440;
    const quietTo = `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
    ok(await call('PUT', '/user/notification/preferences', carrier.headers, { ...defaultNotificationPreferences(), quietFrom: from, quietTo }));
    await counter();
    expect(await sendDue()).toBe(0);
    expect(await sendDue(new Date(Date.now() + 31 * 60_000))).toBe(1);
    expect(to(b)).toHaveLength(1);
    ok(await call('PUT', '/user/notification/preferences', carrier.headers, defaultNotificationPreferences()));
    ok(await call('POST', '/topics/unsubscribe', carrier.headers, { token: b.token, topic: `user_${carrier.id}` }));
  });

  it('unsubscribe removes the browser: no push after it; subscribing twice is one subscription', async () => {
    const b = browser();
    ok(await subscribe(carrier, b));
    ok(await subscribe(carrier, b));
    expect(await subscriptions(carrier.id)).toBe(1);
    expect(ok(await call('POST', '/topics/unsubscribe', carrier.headers, { token: b.token, topic: `user_${carrier.id}` }))).toEqual({
      subscribed: false,
      topic: `user_${carrier.id}`,
    });
    expect(await subscriptions(carrier.id)).toBe(0);
    await counter();
    expect(await sendDue()).toBe(0);
    expect(to(b)).toHaveLength(0);
  });

  it('a browser another user subscribed moves to the user who subscribes it last', async () => {
    const b = browser();
    ok(await subscribe(carrier, b));
    ok(await call('POST', '/topics/subscribe', shipper.headers, { token: b.token, topic: `user_${shipper.id}` }));
    expect(await subscriptions(carrier.id)).toBe(0);
    expect(await subscriptions(shipper.id)).toBe(1);
    // the carrier cannot unsubscribe the shipper's browser
    ok(await call('POST', '/topics/unsubscribe', carrier.headers, { token: b.token, topic: `user_${carrier.id}` }));
    expect(await subscriptions(shipper.id)).toBe(1);
    ok(await call('POST', '/topics/unsubscribe', shipper.headers, { token: b.token, topic: `user_${shipper.id}` }));
  });

  it('rejects bad subscriptions with localized errors: keys, another account’s topic, a private or http endpoint', async () => {
    const b = browser();
    const bad = await call<never>(
      'POST',
      '/topics/subscribe',
      { ...carrier.headers, language: 'ar' },
      { token: { ...b.token, keys: { p256dh: 'x', auth: b.auth } }, topic: `user_${carrier.id}` },
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    const errors = (bad.body as unknown as { errors: { path: string; message: string }[] }).errors;
    expect(errors).toContainEqual({ path: 'token.keys.p256dh', message: 'مفاتيح اشتراك الإشعارات الفورية غير صالحة.' });

    const other = await call<never>('POST', '/topics/subscribe', carrier.headers, { token: b.token, topic: `user_${shipper.id}` });
    expect(other.status).toBe(400);
    expect((other.body as unknown as { errors: unknown[] }).errors).toContainEqual({
      path: 'topic',
      message: 'The topic is not valid: use your profile topic.',
    });

    const guest = await call<never>('POST', '/topics/subscribe', {}, { token: b.token, topic: `user_${carrier.id}` });
    expect(guest.status).toBe(401);

    // without PUSH_ALLOW_PRIVATE (production): https to a public host only
    const strict = createPushService({
      db: t.app.container.db,
      vapid: t.config.vapid,
      allowPrivate: false,
      accountOf: async (id) => id,
      log: { error: () => undefined, info: () => undefined },
    });
    for (const endpoint of ['https://127.0.0.1/x', 'http://push.example.com/x', 'https://localhost/x', 'https://10.1.2.3/x'])
      await expect(strict.subscribe(carrier.id, { token: { ...b.token, endpoint }, topic: `user_${carrier.id}` }, null)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
  });
});
