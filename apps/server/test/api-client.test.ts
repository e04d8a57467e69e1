import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMasarClient } from '@masar/api-client';
import { ACCOUNT_TYPE, type WebhookEventPayload } from '@masar/shared';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { verifySignature } from '../src/modules/webhooks/webhooks.sign.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

// An integrator's walk with the generated typed client (packages/api-client) over real HTTP:
// post a load with an API key, hear about the offer by webhook, accept it, see the booking.
let t: TestContext;
let baseUrl: string;
let tms: TestUser;
let carrier: TestUser;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: true, WEBHOOK_RETRY_BASE_SECONDS: 0.2 });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  tms = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

describe('the typed client', () => {
  it('posts a load, receives the offer by a signed webhook, accepts it and sees the booking', async () => {
    // the integrator's receiver
    const events: WebhookEventPayload[] = [];
    let secret = '';
    const rx = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (verifySignature(secret, body, String(req.headers['masar-signature']))) events.push(JSON.parse(body) as WebhookEventPayload);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', () => r()));
    try {
      // set up once with the account session: a key and a webhook
      const session = createMasarClient({ baseUrl, accessToken: tms.accessToken });
      const key = await session.POST('/api/v1/api-keys', { body: { name: 'TMS', scopes: ['loads:read', 'loads:write', 'offers:read', 'offers:write'] } });
      expect(key.error).toBeUndefined();
      const hook = await session.POST('/api/v1/webhooks', {
        body: { url: `http://127.0.0.1:${(rx.address() as { port: number }).port}/masar`, events: ['offer.created', 'load.booked'] },
      });
      secret = hook.data!.data.secret;

      // from here on, as the TMS does: with the key
      const masar = createMasarClient({ baseUrl, apiKey: key.data!.data.key, language: 'ar' });
      const body = loadBody();
      const posted = await masar.POST('/api/v1/loads', { body, headers: { 'Idempotency-Key': 'tms-load-1' } });
      expect(posted.response.status).toBe(201);
      const loadId = posted.data!.data.id;
      // a retry of the same create returns the same load
      const again = await masar.POST('/api/v1/loads', { body, headers: { 'Idempotency-Key': 'tms-load-1' } });
      expect(again.response.headers.get('idempotent-replayed')).toBe('true');
      expect(again.data!.data.id).toBe(loadId);

      const bid = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: carrier.headers, payload: { loadId, priceSar: '2750.50' } });
      expect(bid.statusCode).toBe(201);
      for (let i = 0; i < 200 && !events.some((e) => e.type === 'offer.created' && e.loadId === loadId); i++) await new Promise((r) => setTimeout(r, 50));
      const offerEvent = events.find((e) => e.type === 'offer.created' && e.loadId === loadId)!;
      expect(offerEvent.data).toMatchObject({ priceSar: '2750.50', carrierId: carrier.id });

      const accepted = await masar.POST('/api/v1/offerRespond', { body: { offerId: String(offerEvent.data.offerId), action: 'accept' } });
      expect(accepted.error).toBeUndefined();
      expect(accepted.data!.data.status).toBe('accepted');
      const load = await masar.GET('/api/v1/loads/{id}', { params: { path: { id: loadId } } });
      expect(load.data!.data).toMatchObject({ status: 'unassigned', bookedPriceSar: '2750.50' });
      for (let i = 0; i < 200 && !events.some((e) => e.type === 'load.booked' && e.loadId === loadId); i++) await new Promise((r) => setTimeout(r, 50));
      expect(events.filter((e) => e.loadId === loadId).map((e) => e.type)).toEqual(['offer.created', 'load.booked']);

      // errors come as the typed envelope, in the asked language
      const scoped = await masar.GET('/api/v1/vehicles', {});
      expect(scoped.response.status).toBe(403);
      expect(scoped.error).toMatchObject({ code: 'API_KEY_SCOPE', message: 'مفتاح الواجهة البرمجية هذا لا يسمح بهذا الإجراء. امنحه الصلاحية من حسابك.' });
    } finally {
      await new Promise<void>((r) => rx.close(() => r()));
    }
  });
});
