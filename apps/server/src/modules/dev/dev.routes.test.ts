import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createGreatCircleRouting } from '../../gateways/routing/routing.ts';
import type { SmsGateway } from '../../gateways/sms/sms.ts';
import { createSandboxPayments } from '../../gateways/payments/sandbox.ts';
import { createSandboxEmail } from '../../gateways/email/sandbox.ts';
import { createTestApp, createTestDatabase } from '../../../test/helpers.ts';

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

/** Production needs Elm's real Bayan and WASL (their sandboxes are refused there). */
const REAL_ELM = {
  BAYAN_GATEWAY: 'http',
  BAYAN_APP_ID: 'app',
  BAYAN_APP_KEY: 'key',
  BAYAN_CLIENT_ID: 'client',
  WASL_GATEWAY: 'http',
  WASL_APP_ID: 'app',
  WASL_APP_KEY: 'key',
};
/** Real SMS and e-mail gateways: production refuses their sandboxes (issue 22). */
const REAL_MESSAGING = { SMS_GATEWAY: 'unifonic', SMS_API_KEY: 'app', EMAIL_GATEWAY: 'smtp', SMTP_URL: 'smtp://u:p@mail.example:587' };

describe('GET /api/v1/dev/outbox', () => {
  it('lists the sandbox SMS newest first, filtered by phone in any Saudi format', async () => {
    const t = await createTestApp();
    closers.push(() => t.close());
    await t.app.gateways.sms.send('+966512345678', 'first');
    await t.app.gateways.sms.send('+966512345679', 'other');
    await t.app.gateways.sms.send('+966512345678', 'second');
    const res = await t.app.inject({ url: '/api/v1/dev/outbox?phone=0512345678' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.items.map((m: { body: string }) => m.body)).toEqual(['second', 'first']);
    expect(res.json().data.total).toBe(2);
    const all = await t.app.inject({ url: '/api/v1/dev/outbox' });
    expect(all.json().data.total).toBe(3);
  });

  it('does not exist on the default configuration: the outbox is opt-in (anyone could read every code)', async () => {
    const database = await createTestDatabase();
    const config = loadConfig(
      // the defaults (production, sandbox SMS as on a staging server that allows it), but for
      // the payment gateway that production requires to be real
      {
        ALLOW_SANDBOX_GATEWAYS: '1',
        LOG_LEVEL: 'silent',
        DATA_DIR: 'memory://',
        WEB_DIST: '/nonexistent',
        PAYMENT_GATEWAY: 'moyasar',
        PAYMENT_SECRET_KEY: 'sk_test_x',
        PAYMENT_PUBLISHABLE_KEY: 'pk_test_x',
        PUBLIC_URL: 'https://masar.example',
        ...REAL_ELM,
      },
      { jwtSecret: 'test-secret-test-secret-test-secret-0123456789' },
    );
    expect(config.SMS_GATEWAY).toBe('sandbox');
    const app = await buildApp({ config, database, logger: false });
    closers.push(async () => {
      await app.close();
      await database.close();
    });
    await app.inject({ method: 'POST', url: '/api/v1/account/sendOtp', payload: { phone: '0512345678', purpose: 'signup' } });
    const res = await app.inject({ url: '/api/v1/dev/outbox?phone=0512345678' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toMatch(/\d{4}/);
  });

  it('refuses to start with the outbox switched on in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DEV_OUTBOX: '1', DATA_DIR: 'memory://' }, { jwtSecret: 'x'.repeat(40) })).toThrow(/DEV_OUTBOX/);
    expect(() => loadConfig({ DEV_OUTBOX: '1', DATA_DIR: 'memory://' }, { jwtSecret: 'x'.repeat(40) })).toThrow(/production/);
    expect(loadConfig({ NODE_ENV: 'development', DEV_OUTBOX: '1', DATA_DIR: 'memory://' }, { jwtSecret: 'x'.repeat(40) }).DEV_OUTBOX).toBe(true);
  });

  it('seeds the demo accounts (a public password) only when switched on, never in production', () => {
    // production needs a real payment gateway (the sandbox is refused below)
    const env = { DATA_DIR: 'memory://', PAYMENT_GATEWAY: 'moyasar', PUBLIC_URL: 'https://masar.example', ...REAL_ELM, ...REAL_MESSAGING };
    expect(loadConfig(env, { jwtSecret: 'x'.repeat(40) }).DEMO_SEED).toBe(false);
    expect(() => loadConfig({ ...env, DEMO_SEED: '1' }, { jwtSecret: 'x'.repeat(40) })).toThrow(/DEMO_SEED/);
    expect(loadConfig({ ...env, NODE_ENV: 'development', DEMO_SEED: '1' }, { jwtSecret: 'x'.repeat(40) }).DEMO_SEED).toBe(true);
  });

  it('refuses the sandbox payment gateway (test cards pay) in production, its default elsewhere', () => {
    expect(() => loadConfig({ DATA_DIR: 'memory://', ...REAL_ELM }, { jwtSecret: 'x'.repeat(40) })).toThrow(/PAYMENT_GATEWAY/);
    expect(() => loadConfig({ DATA_DIR: 'memory://', PAYMENT_GATEWAY: 'sandbox', NODE_ENV: 'production' }, { jwtSecret: 'x'.repeat(40) })).toThrow(
      /PAYMENT_GATEWAY.*refused when NODE_ENV=production/,
    );
    expect(loadConfig({ DATA_DIR: 'memory://', NODE_ENV: 'development' }, { jwtSecret: 'x'.repeat(40) }).PAYMENT_GATEWAY).toBe('sandbox');
  });

  it('refuses the Bayan and WASL sandboxes (made-up permits and verdicts) in production', () => {
    const real = { DATA_DIR: 'memory://', PAYMENT_GATEWAY: 'moyasar', PUBLIC_URL: 'https://masar.example' };
    expect(() => loadConfig({ ...real, WASL_GATEWAY: 'http' }, { jwtSecret: 'x'.repeat(40) })).toThrow(/BAYAN_GATEWAY.*refused when NODE_ENV=production/);
    expect(() => loadConfig({ ...real, BAYAN_GATEWAY: 'http' }, { jwtSecret: 'x'.repeat(40) })).toThrow(/WASL_GATEWAY.*refused when NODE_ENV=production/);
    expect(loadConfig({ ...real, ...REAL_ELM, ...REAL_MESSAGING }, { jwtSecret: 'x'.repeat(40) }).BAYAN_GATEWAY).toBe('http');
    expect(loadConfig({ DATA_DIR: 'memory://', NODE_ENV: 'development' }, { jwtSecret: 'x'.repeat(40) }).BAYAN_GATEWAY).toBe('sandbox');
  });

  it('refuses the sandbox SMS and e-mail in production, and every sandbox only unless ALLOW_SANDBOX_GATEWAYS=1 (issue 22)', () => {
    const secret = { jwtSecret: 'x'.repeat(40) };
    const real = { DATA_DIR: 'memory://', PAYMENT_GATEWAY: 'moyasar', PUBLIC_URL: 'https://masar.example', ...REAL_ELM, ...REAL_MESSAGING };
    expect(loadConfig(real, secret).SMS_GATEWAY).toBe('unifonic');
    expect(() => loadConfig({ ...real, SMS_GATEWAY: 'sandbox' }, secret)).toThrow(/SMS_GATEWAY.*refused when NODE_ENV=production.*ALLOW_SANDBOX_GATEWAYS=1/);
    expect(() => loadConfig({ ...real, EMAIL_GATEWAY: 'sandbox' }, secret)).toThrow(/EMAIL_GATEWAY.*refused when NODE_ENV=production/);
    // the staging switch: every sandbox at once (the defaults) starts in production…
    const staging = loadConfig({ DATA_DIR: 'memory://', ALLOW_SANDBOX_GATEWAYS: '1' }, secret);
    expect([staging.NODE_ENV, staging.SMS_GATEWAY, staging.EMAIL_GATEWAY, staging.PAYMENT_GATEWAY, staging.BAYAN_GATEWAY, staging.WASL_GATEWAY]).toEqual([
      'production',
      'sandbox',
      'sandbox',
      'sandbox',
      'sandbox',
      'sandbox',
    ]);
    // …but not the outbox nor the demo accounts
    expect(() => loadConfig({ DATA_DIR: 'memory://', ALLOW_SANDBOX_GATEWAYS: '1', DEV_OUTBOX: '1' }, secret)).toThrow(/DEV_OUTBOX/);
    expect(() => loadConfig({ DATA_DIR: 'memory://', ALLOW_SANDBOX_GATEWAYS: '1', DEMO_SEED: '1' }, secret)).toThrow(/DEMO_SEED/);
    // elsewhere the sandboxes stay the defaults
    expect(loadConfig({ DATA_DIR: 'memory://', NODE_ENV: 'development' }, secret).SMS_GATEWAY).toBe('sandbox');
  });

  it('does not exist with a real SMS provider (no outbox)', async () => {
    const database = await createTestDatabase();
    const sent: string[] = [];
    const provider: SmsGateway = {
      name: 'fake-provider',
      send: async (to) => {
        sent.push(to);
        return { id: '1' };
      },
    };
    const config = loadConfig(
      { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', WEB_DIST: '/nonexistent' },
      { jwtSecret: 'test-secret-test-secret-test-secret-0123456789' },
    );
    const app = await buildApp({
      config,
      database,
      logger: false,
      gateways: {
        sms: provider,
        routing: createGreatCircleRouting(1.2),
        payments: createSandboxPayments(),
        email: createSandboxEmail('Masar <no-reply@masar.example>'),
      },
    });
    closers.push(async () => {
      await app.close();
      await database.close();
    });
    const res = await app.inject({ url: '/api/v1/dev/outbox?phone=0512345678' });
    expect(res.statusCode).toBe(404);
    // OTPs still go out through the provider
    const otp = await app.inject({ method: 'POST', url: '/api/v1/account/sendOtp', payload: { phone: '0512345678', purpose: 'signup' } });
    expect(otp.statusCode).toBe(200);
    expect(sent).toEqual(['+966512345678']);
  });

  it('answers SMS_SEND_FAILED (502) when the provider fails', async () => {
    const database = await createTestDatabase();
    const failing: SmsGateway = {
      name: 'down',
      send: async () => {
        throw new Error('provider down');
      },
    };
    const config = loadConfig(
      { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory://', WEB_DIST: '/nonexistent' },
      { jwtSecret: 'test-secret-test-secret-test-secret-0123456789' },
    );
    const app = await buildApp({
      config,
      database,
      logger: false,
      gateways: {
        sms: failing,
        routing: createGreatCircleRouting(1.2),
        payments: createSandboxPayments(),
        email: createSandboxEmail('Masar <no-reply@masar.example>'),
      },
    });
    closers.push(async () => {
      await app.close();
      await database.close();
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/account/sendOtp',
      payload: { phone: '0512345670', purpose: 'signup' },
      headers: { language: 'ar' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ code: 'SMS_SEND_FAILED', message: 'تعذر إرسال الرسالة النصية. يرجى المحاولة مرة أخرى.' });
  });
});
