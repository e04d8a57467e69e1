import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type ApiKeyCreated, type Load, type WebhookDelivery, type WebhookEventPayload } from '@masar/shared';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { signatureHeader, verifySignature } from '../src/modules/webhooks/webhooks.sign.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { eventually, webhookReceiver } from './webhook-receiver.ts';

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let other: TestUser;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: true, WEBHOOK_RETRY_BASE_SECONDS: 0.2, WEBHOOK_TIMEOUT_MS: 2000 });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
});
afterAll(() => t?.close());

const { call } = apiCaller(() => t);
const newKey = async (user: TestUser, scopes: string[], ratePerMinute?: number) => {
  const r = await call<ApiKeyCreated>('POST', '/api-keys', user.headers, { name: `key ${scopes.join(' ')}`, scopes, ratePerMinute });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data;
};
const withKey = (k: { key: string }) => ({ 'x-api-key': k.key });

describe('API keys', () => {
  it('act as their owner within their scopes, and only there', async () => {
    const read = await newKey(shipper, ['loads:read']);
    expect(read.key).toMatch(/^msk_[A-Za-z0-9_-]{43}$/);
    const listed = await call<{ items: Record<string, unknown>[] }>('GET', '/api-keys', shipper.headers);
    const item = listed.body.data.items.find((k) => k.id === read.id)!;
    expect(item).toMatchObject({ name: read.name, prefix: read.key.slice(0, 10), scopes: ['loads:read'] });
    expect(JSON.stringify(listed.body)).not.toContain(read.key);

    expect((await call('GET', '/my-loads?tab=posted', withKey(read))).status).toBe(200);
    expect((await call('GET', '/cities?search=riy', withKey(read))).status).toBe(200);
    const refused = await call('POST', '/loads', withKey(read), loadBody());
    expect(refused).toMatchObject({ status: 403, body: { code: 'API_KEY_SCOPE' } });

    const write = await newKey(shipper, ['loads:read', 'loads:write']);
    const posted = await call<Load>('POST', '/loads', withKey(write), loadBody({ post: false }));
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    // the load is the owner's: visible with the owner's session
    expect((await call<Load>('GET', `/loads/${posted.body.data.id}`, shipper.headers)).body.data.id).toBe(posted.body.data.id);
    // another owner's key cannot reach it (unposted loads are private)
    const othersKey = await newKey(other, ['loads:read', 'loads:write']);
    expect((await call('GET', `/loads/${posted.body.data.id}`, withKey(othersKey))).status).toBe(404);
    expect((await call('DELETE', `/loads/${posted.body.data.id}`, withKey(othersKey))).status).toBe(404);

    // never the account, sessions or key management
    for (const [m, u] of [
      ['GET', '/accountDetails'],
      ['GET', '/api-keys'],
      ['GET', '/webhooks'],
    ] as const)
      expect((await call(m, u, withKey(write))).body.code).toBe('API_KEY_NOT_ALLOWED');
    // uses are counted, refused ones included (reference data is public: a key there is not used)
    const after = (await call<{ items: { id: string; useCount: number; lastUsedAt: string | null }[] }>('GET', '/api-keys', shipper.headers)).body.data.items;
    expect(after.find((k) => k.id === read.id)).toMatchObject({ useCount: 2 });
    expect(after.find((k) => k.id === read.id)?.lastUsedAt).not.toBeNull();
  });

  it('a revoked key is refused at once; an unknown key too', async () => {
    const k = await newKey(shipper, ['loads:read']);
    expect((await call('GET', '/my-loads', withKey(k))).status).toBe(200);
    expect((await call('DELETE', `/api-keys/${k.id}`, shipper.headers)).status).toBe(200);
    expect(await call('GET', '/my-loads', withKey(k))).toMatchObject({ status: 401, body: { code: 'API_KEY_INVALID' } });
    expect((await call('DELETE', `/api-keys/${k.id}`, shipper.headers)).status).toBe(404);
    expect((await call('DELETE', `/api-keys/${k.id}`, other.headers)).status).toBe(404);
    expect((await call('GET', '/my-loads', { 'x-api-key': 'msk_nope' })).body.code).toBe('API_KEY_INVALID');
  });

  it('limits each key to its own requests per minute', async () => {
    const k = await newKey(shipper, ['loads:read'], 3);
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await call('GET', '/my-loads', withKey(k))).status);
    expect(codes).toEqual([200, 200, 200, 429]);
    // another key of the same owner has its own budget
    const k2 = await newKey(shipper, ['loads:read'], 3);
    expect((await call('GET', '/my-loads', withKey(k2))).status).toBe(200);
  });

  it('validates the body with the shared schema', async () => {
    const r = await call('POST', '/api-keys', shipper.headers, { name: '', scopes: ['everything'] });
    expect(r).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
  });
});

describe('webhook signatures', () => {
  it('verify with the documented scheme and refuse tampering and stale timestamps', () => {
    const body = JSON.stringify({ id: 'x', type: 'offer.created' });
    const at = new Date('2026-11-23T10:00:00Z');
    const h = signatureHeader('whsec_test', body, at);
    expect(h).toMatch(/^t=1795428000,v1=[0-9a-f]{64}$/);
    expect(verifySignature('whsec_test', body, h, 300, at)).toBe(true);
    expect(verifySignature('whsec_other', body, h, 300, at)).toBe(false);
    expect(verifySignature('whsec_test', body.replace('x', 'y'), h, 300, at)).toBe(false);
    expect(verifySignature('whsec_test', body, h, 300, new Date(at.getTime() + 301_000))).toBe(false);
  });
});

/** A receiver that records what arrives and can be switched to failing. */
const receiver = () => webhookReceiver((headers, body) => ({ headers, body }), 'down for maintenance');
const until = eventually;

describe('webhooks', () => {
  it('refuses http and private hosts unless allowed', async () => {
    const { createWebhooksService } = await import('../src/modules/webhooks/webhooks.service.ts');
    const strict = createWebhooksService({ db: t.database.db, allowPrivate: false, timeoutMs: 1000 });
    const user = { id: shipper.id } as never;
    for (const url of [
      'http://example.com/h',
      'https://127.0.0.1/h',
      'https://localhost/h',
      'https://10.1.2.3/h',
      'https://[::1]/h',
      'https://u:p@example.com/h',
    ])
      await expect(strict.create(user, { url, events: ['offer.created'] }), url).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('delivers signed events to the parties, in order per load, after the receiver comes back, once each', async () => {
    const rx = receiver();
    const url = await rx.start();
    try {
      const ep = await call<{ id: string; secret: string }>('POST', '/webhooks', shipper.headers, {
        url,
        events: ['offer.created', 'offer.countered', 'offer.accepted', 'load.booked'],
      });
      expect(ep.status, JSON.stringify(ep.body)).toBe(201);
      expect(ep.body.data.secret).toMatch(/^whsec_/);
      const { id: endpointId, secret } = ep.body.data;

      const load = (await call<Load>('POST', '/loads', shipper.headers, loadBody())).body.data;
      const offer = await call<{ id: string }>('POST', '/offers', carrier.headers, { loadId: load.id, priceSar: '2500' });
      expect(offer.status).toBe(201);
      await until(() => rx.got.length >= 1);
      const first = rx.got[0];
      expect(verifySignature(secret, first.body, first.headers['masar-signature'])).toBe(true);
      const p = JSON.parse(first.body) as WebhookEventPayload;
      expect(p).toMatchObject({
        type: 'offer.created',
        loadId: load.id,
        data: { offerId: offer.body.data.id, carrierId: carrier.id, shipperId: shipper.id, priceSar: '2500.00' },
      });
      expect(first.headers['masar-event-id']).toBe(p.id);

      // the receiver goes down; three more events on the same load queue up behind each other
      rx.setFailing(true);
      await call('POST', '/offerRespond', shipper.headers, { offerId: offer.body.data.id, action: 'counter', priceSar: '2300' });
      await call('POST', '/offerRespond', carrier.headers, { offerId: offer.body.data.id, action: 'accept' });
      await until(() => rx.got.length >= 3); // failed attempts of the head (counter), retried
      const log = await call<{ items: WebhookDelivery[] }>('GET', `/webhooks/${endpointId}/deliveries?status=pending`, shipper.headers);
      expect(log.body.data.items.map((d) => d.eventType).sort()).toEqual(['load.booked', 'offer.accepted', 'offer.countered']);
      const head = log.body.data.items.find((d) => d.eventType === 'offer.countered')!;
      expect(head).toMatchObject({ lastStatusCode: 503, lastResponse: 'down for maintenance' });
      expect(head.attempts).toBeGreaterThanOrEqual(1);
      // while the head fails, nothing behind it was tried
      expect(rx.got.every((g) => (JSON.parse(g.body) as WebhookEventPayload).type !== 'offer.accepted')).toBe(true);

      rx.setFailing(false);
      await until(async () => {
        const all = await call<{ items: WebhookDelivery[] }>('GET', `/webhooks/${endpointId}/deliveries`, shipper.headers);
        return all.body.data.items.every((d) => d.status === 'succeeded');
      });
      const ok = rx.got.filter((_, i) => i === 0 || true).map((g) => JSON.parse(g.body) as WebhookEventPayload);
      // a receiver that checks the event id sees each event once, in publish order
      const seen: string[] = [];
      for (const e of ok) if (!seen.includes(e.id)) seen.push(e.id);
      const types = seen.map((id) => ok.find((e) => e.id === id)!.type);
      expect(types).toEqual(['offer.created', 'offer.countered', 'offer.accepted', 'load.booked']);
      for (const g of rx.got) expect(verifySignature(secret, g.body, g.headers['masar-signature'])).toBe(true);

      // resend: the same event (same id) arrives again; a receiver that dedups by id is unharmed
      const all = (await call<{ items: WebhookDelivery[] }>('GET', `/webhooks/${endpointId}/deliveries`, shipper.headers)).body.data.items;
      const booked = all.find((d) => d.eventType === 'load.booked')!;
      const before = rx.got.length;
      expect((await call('POST', `/webhook-deliveries/${booked.id}/resend`, shipper.headers)).status).toBe(200);
      await until(() => rx.got.length > before);
      expect(JSON.parse(rx.got.at(-1)!.body)).toMatchObject({ id: booked.eventId, type: 'load.booked' });
      // someone else can neither see nor resend it
      expect((await call('POST', `/webhook-deliveries/${booked.id}/resend`, other.headers)).status).toBe(404);
      expect((await call('GET', `/webhooks/${endpointId}/deliveries`, other.headers)).status).toBe(404);
      // the log keeps finished deliveries 30 days
      const svc = t.app.container.services.webhooks;
      expect(await svc.cleanup(new Date(Date.now() + 29 * 86_400_000))).toBe(0);
      await until(async () =>
        (await call<{ items: WebhookDelivery[] }>('GET', `/webhooks/${endpointId}/deliveries`, shipper.headers)).body.data.items.every(
          (d) => d.status !== 'pending',
        ),
      );
      expect(await svc.cleanup(new Date(Date.now() + 31 * 86_400_000))).toBeGreaterThanOrEqual(4);
      expect((await call<{ items: WebhookDelivery[] }>('GET', `/webhooks/${endpointId}/deliveries`, shipper.headers)).body.data.items).toEqual([]);
    } finally {
      await rx.stop();
    }
  });

  it('sends the carrier its own events, and nothing to endpoints not subscribed', async () => {
    const rx = receiver();
    const url = await rx.start();
    try {
      await call('POST', '/webhooks', carrier.headers, { url, events: ['load.booked'] });
      const load = (await call<Load>('POST', '/loads', shipper.headers, loadBody())).body.data;
      const offer = await call<{ id: string }>('POST', '/offers', carrier.headers, { loadId: load.id, priceSar: '1800' });
      await call('POST', '/offerRespond', shipper.headers, { offerId: offer.body.data.id, action: 'accept' });
      await until(() => rx.got.some((g) => (JSON.parse(g.body) as WebhookEventPayload).loadId === load.id));
      const mine = rx.got.map((g) => JSON.parse(g.body) as WebhookEventPayload).filter((e) => e.loadId === load.id);
      expect(mine.map((e) => e.type)).toEqual(['load.booked']);
    } finally {
      await rx.stop();
    }
  });
});
