import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMoyasarPayments } from './moyasar.ts';
import { PaymentGatewayError } from './payments.ts';

/**
 * The acquirer adapter against a local HTTP server that answers in the acquirer's shapes: what
 * it sends (paths, Basic auth with the right key, halalas, token source, metadata) and how it
 * reads paid, failed and 3-D Secure answers.
 */
const seen: { method: string; url: string; auth: string; body: Record<string, unknown> }[] = [];
const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => resolve(s));
  });
const server = createServer((req, res) => {
  void read(req).then((text) => {
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    seen.push({ method: req.method!, url: req.url!, auth: String(req.headers.authorization), body });
    const send = (status: number, json: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    if (req.url === '/v1/tokens') return send(201, { id: 'token_abc', status: 'active', brand: 'mada', last_four: '0007' });
    if (req.url === '/v1/payments') {
      const amount = Number(body.amount);
      if (amount === 100) return send(201, { id: 'pay_paid', status: 'paid', amount });
      if (amount === 200) return send(201, { id: 'pay_failed', status: 'failed', source: { message: 'INSUFFICIENT_FUNDS', response_code: '51' } });
      if (amount === 300) return send(201, { id: 'pay_3ds', status: 'initiated', source: { transaction_url: 'https://acs.example/3ds/pay_3ds' } });
      return send(500, { message: 'boom' });
    }
    if (req.url === '/v1/payments/pay_3ds') return send(200, { id: 'pay_3ds', status: 'paid' });
    send(404, { type: 'not_found' });
  });
});
let gw: ReturnType<typeof createMoyasarPayments>;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  gw = createMoyasarPayments({ apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`, secretKey: 'sk_test_1', publishableKey: 'pk_test_1' });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const basic = (k: string) => `Basic ${Buffer.from(`${k}:`).toString('base64')}`;
const req = (amountHalalas: number) => ({
  token: 'token_abc',
  amountHalalas,
  description: 'Masar plan',
  intentId: 'i-1',
  callbackUrl: 'https://masar.example/checkout/confirm?intent=i-1',
});

describe('the acquirer adapter', () => {
  it('tokenizes with the publishable key and charges the token with the secret key, in halalas', async () => {
    expect(await gw.tokenize({ number: '4406470000000007', expMonth: 3, expYear: 2030, cvc: '123', holderName: 'Sara' })).toEqual({ token: 'token_abc' });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/tokens', auth: basic('pk_test_1'), body: { month: '03', year: '2030', save_only: true } });
    expect(await gw.charge(req(100))).toEqual({ status: 'succeeded', ref: 'pay_paid' });
    expect(seen[1]).toMatchObject({
      url: '/v1/payments',
      auth: basic('sk_test_1'),
      body: { amount: 100, currency: 'SAR', source: { type: 'token', token: 'token_abc' }, metadata: { intent_id: 'i-1' } },
    });
  });
  it('reads refusals, 3-D Secure and the verified state; a 5xx is a gateway error', async () => {
    expect(await gw.charge(req(200))).toEqual({ status: 'failed', ref: 'pay_failed', code: '51' });
    expect(await gw.charge(req(300))).toEqual({ status: 'requires_action', ref: 'pay_3ds', actionUrl: 'https://acs.example/3ds/pay_3ds' });
    expect(await gw.verify('pay_3ds')).toEqual({ status: 'succeeded', ref: 'pay_3ds' });
    await expect(gw.charge(req(999))).rejects.toBeInstanceOf(PaymentGatewayError);
  });
});
