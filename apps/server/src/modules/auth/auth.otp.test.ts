import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '@masar/shared';
import { otps } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { readOtp, requestOtp, signUpViaApi, uniquePhone } from './auth.testkit.ts';

// OTP life cycle (spec §5, §9; issue 2): 4 digits, 5-minute expiry by the server's clock,
// at most 5 wrong attempts, rate limits per phone and per IP.

let t: TestContext;
let ipSeq = 0;
/** A different client address per test, so the per-IP limits don't couple tests. */
const freshIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_PER_IP_PER_MIN: 0 });
});
afterAll(() => t?.close());
afterEach(() => {
  vi.useRealTimers();
});

const post = (url: string, payload: object, opts: { headers?: Record<string, string>; ip?: string } = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers: opts.headers, remoteAddress: opts.ip ?? '127.0.0.1' });

/** Move the server's clock (Date only: timers and the database keep running). */
function clockAt(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
}

describe('OTP expiry', () => {
  it('accepts a code until 5 minutes have passed and refuses it afterwards', async () => {
    const u = await signUpViaApi(t.app);
    const start = Date.now();
    clockAt(start);
    const a = await requestOtp(t.app, u.phone, 'login');
    clockAt(start + LIMITS.otpTtlMs - 1000);
    const inTime = await post('/account/signIn', { phone: u.phone, otpId: a.otpId, otp: a.otp });
    expect(inTime.statusCode).toBe(200);

    clockAt(start + 61_000); // past the per-minute send limit
    const b = await requestOtp(t.app, u.phone, 'login');
    clockAt(start + 61_000 + LIMITS.otpTtlMs + 1000);
    const late = await post('/account/signIn', { phone: u.phone, otpId: b.otpId, otp: b.otp });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ code: 'OTP_EXPIRED', message: 'The verification code has expired. Request a new one.' });
    const lateAr = await post('/account/signIn', { phone: u.phone, otpId: b.otpId, otp: b.otp }, { headers: { language: 'ar' } });
    expect(lateAr.json().message).toBe('انتهت صلاحية رمز التحقق. اطلب رمزاً جديداً.');
  });

  it('stores the code hashed, never in clear', async () => {
    const phone = uniquePhone();
    const { otpId, otp } = await requestOtp(t.app, phone, 'signup');
    const rows = await t.database.db.select().from(otps);
    const row = rows.find((r) => r.id === otpId)!;
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.codeHash).not.toContain(otp);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(LIMITS.otpTtlMs);
  });
});

describe('OTP attempts', () => {
  it('dies after 5 wrong codes, even for the right code afterwards', async () => {
    const phone = uniquePhone();
    const { otpId, otp } = await requestOtp(t.app, phone, 'signup');
    const wrongCode = otp === '9999' ? '0000' : String(Number(otp) + 1).padStart(4, '0');
    const body = {
      accountType: 1,
      firstName: 'A',
      lastName: 'B',
      companyName: 'C',
      email: `a${phone.slice(-7)}@example.sa`,
      phone,
      password: 'Najd@2026',
      otpId,
    };
    const codes: string[] = [];
    for (let i = 0; i < LIMITS.otpMaxAttempts; i++) codes.push((await post('/account/signUp', { ...body, otp: wrongCode })).json().code);
    expect(codes).toEqual(['INVALID_OTP', 'INVALID_OTP', 'INVALID_OTP', 'INVALID_OTP', 'OTP_ATTEMPTS_EXCEEDED']);
    const right = await post('/account/signUp', { ...body, otp });
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe('OTP_ATTEMPTS_EXCEEDED');
    // a new code works
    const fresh = await requestOtp(t.app, phone, 'signup');
    const ok = await post('/account/signUp', { ...body, otpId: fresh.otpId, otp: fresh.otp });
    expect(ok.statusCode).toBe(200);
  });

  it('counts wrong attempts even when they race', async () => {
    const u = await signUpViaApi(t.app);
    const { otpId, otp } = await requestOtp(t.app, u.phone, 'login');
    const wrongCode = otp === '1234' ? '4321' : '1234';
    const answers = await Promise.all(Array.from({ length: 8 }, () => post('/account/signIn', { phone: u.phone, otpId, otp: wrongCode })));
    expect(answers.every((r) => r.statusCode >= 400)).toBe(true);
    const right = await post('/account/signIn', { phone: u.phone, otpId, otp });
    expect(right.json().code).toBe('OTP_ATTEMPTS_EXCEEDED');
  });
});

describe('OTP rate limits', () => {
  it('allows 3 codes per phone per minute and 10 per hour', async () => {
    const phone = uniquePhone();
    const start = Date.now();
    clockAt(start);
    const send = () => post('/account/sendOtp', { phone, purpose: 'signup' }, { ip: freshIp() });
    for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(200);
    const fourth = await send();
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ code: 'RATE_LIMITED', message: 'Too many requests. Please wait and try again.' });
    const ar = await post('/account/sendOtp', { phone, purpose: 'signup' }, { headers: { language: 'ar' } });
    expect(ar.json().message).toBe('طلبات كثيرة. يرجى الانتظار ثم المحاولة مجدداً.');

    // the next minutes: up to 10 within the hour
    let sent = 3;
    for (let minute = 1; sent < 10; minute++) {
      clockAt(start + minute * 61_000);
      for (let i = 0; i < 3 && sent < 10; i++, sent++) expect((await send()).statusCode).toBe(200);
    }
    clockAt(start + 10 * 61_000);
    expect((await send()).statusCode).toBe(429);
    clockAt(start + 3_600_000 + 5_000);
    expect((await send()).statusCode).toBe(200);
  });

  it('allows 20 codes per IP per 10 minutes, whatever the phone', async () => {
    const ip = freshIp();
    const start = Date.now();
    clockAt(start);
    for (let i = 0; i < 20; i++) expect((await post('/account/sendOtp', { phone: uniquePhone(), purpose: 'signup' }, { ip })).statusCode).toBe(200);
    const over = await post('/account/sendOtp', { phone: uniquePhone(), purpose: 'signup' }, { ip });
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('RATE_LIMITED');
    expect((await post('/account/sendOtp', { phone: uniquePhone(), purpose: 'signup' }, { ip: freshIp() })).statusCode).toBe(200);
    clockAt(start + 600_000 + 1000);
    expect((await post('/account/sendOtp', { phone: uniquePhone(), purpose: 'signup' }, { ip })).statusCode).toBe(200);
  });

  it('sends the SMS in the language of the request', async () => {
    const phone = uniquePhone();
    await post('/account/sendOtp', { phone, purpose: 'signup' }, { headers: { language: 'ar' }, ip: freshIp() });
    const res = await t.app.inject({ url: `/api/v1/dev/outbox?phone=${encodeURIComponent(phone)}` });
    const [m] = res.json().data.items;
    expect(m.to).toBe(phone);
    expect(m.body).toMatch(/^مسار: رمز التحقق الخاص بك هو \d{4}\./);
    expect(await readOtp(t.app, phone)).toMatch(/^\d{4}$/);
  });
});

describe('per-IP request limit on the auth endpoints', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestApp({ AUTH_RATE_PER_IP_PER_MIN: 2 });
  });
  afterAll(() => limited?.close());

  it('answers 429 RATE_LIMITED, localized, past the limit', async () => {
    const signIn = (ip: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/api/v1/account/signIn',
        payload: { phone: uniquePhone(), password: 'Wrong@123' },
        headers: { language: 'ar' },
        remoteAddress: ip,
      });
    expect((await signIn('10.9.0.1')).statusCode).toBe(401);
    expect((await signIn('10.9.0.1')).statusCode).toBe(401);
    const third = await signIn('10.9.0.1');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ code: 'RATE_LIMITED', message: 'طلبات كثيرة. يرجى الانتظار ثم المحاولة مجدداً.' });
    expect((await signIn('10.9.0.2')).statusCode).toBe(401);
  });
});
