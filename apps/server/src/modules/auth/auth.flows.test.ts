import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_TYPE, PROFILE_STATUS } from '@masar/shared';
import { users } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { readOtp, requestOtp, signUpViaApi, TEST_PASSWORD, uniquePhone } from './auth.testkit.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_PER_IP_PER_MIN: 0, OTP_RATE_PER_IP_PER_10MIN: 0 });
});
afterAll(() => t?.close());
afterEach(() => {
  vi.useRealTimers();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, headers });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url: `/api/v1${url}`, headers });
const isArabic = (s: string) => /[\u0600-\u06FF]/.test(s);

describe('guest sign-in', () => {
  it('gives a guest token triple that opens token routes but not user routes', async () => {
    const res = await post('/guest/signIn', { deviceId: 'web-123', deviceType: 3, appVersion: '1.0.0' });
    expect(res.statusCode).toBe(200);
    const { token } = res.json().data;
    expect(token).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), accessExpireAt: expect.any(String) });
    expect(new Date(token.accessExpireAt).getTime()).toBeGreaterThan(Date.now());
    expect(token.refreshToken.length).toBeGreaterThanOrEqual(43); // 32 bytes base64url

    const me = await get('/accountDetails', { authorization: `Bearer ${token.accessToken}` });
    expect(me.statusCode).toBe(403);
    expect(me.json().code).toBe('NOT_SIGNED_IN');
  });

  it('rejects a body without deviceId', async () => {
    const res = await post('/guest/signIn', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'deviceId' }] });
  });
});

describe('sign-up with an SMS code', () => {
  it('sends a 4-digit code to the sandbox outbox and creates a pending account', async () => {
    const phone = uniquePhone();
    const send = await post('/account/sendOtp', { phone: `0${phone.slice(4)}`, purpose: 'signup' });
    expect(send.statusCode).toBe(200);
    const { otpId } = send.json().data;
    expect(otpId).toMatch(/^[0-9a-f-]{36}$/);
    const otp = await readOtp(t.app, phone);
    expect(otp).toMatch(/^\d{4}$/);

    const res = await post('/account/signUp', {
      accountType: ACCOUNT_TYPE.carrier,
      firstName: 'Fahad',
      lastName: 'Al-Qahtani',
      companyName: 'Qahtani Transport',
      email: `Fahad.${phone.slice(-6)}@Example.sa`,
      phone,
      password: 'Truck@2026',
      otpId,
      otp,
    });
    expect(res.statusCode).toBe(200);
    const { token, profile } = res.json().data;
    expect(token.accessToken).toBeTruthy();
    expect(profile).toMatchObject({
      accountType: 2,
      phone,
      email: `fahad.${phone.slice(-6)}@example.sa`,
      status: PROFILE_STATUS.pending,
      statusText: 'Pending approval',
      isFirstTimeApproved: false,
      isFirstTimeLoginAfterApproved: false,
      accountsDetails: { status: 1, accountType: 2, isFirstTimeApproved: false, isFirstTimeLoginAfterApproved: false },
      activeSubscriptionId: null,
      mqttTopic: `masar/u/${profile.id}`,
      fcmTopic: `user_${profile.id}`,
    });

    // signed in right away
    const me = await get('/accountDetails', { authorization: `Bearer ${token.accessToken}` });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.id).toBe(profile.id);

    // the password is stored as an argon2 hash
    const [row] = await t.database.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, profile.id));
    expect(row.h).toMatch(/^\$argon2id\$/);

    // the code is single-use
    const again = await post('/account/signUp', {
      accountType: 1,
      firstName: 'A',
      lastName: 'B',
      companyName: 'C',
      email: `x${phone.slice(-6)}@example.sa`,
      phone,
      password: 'Truck@2026',
      otpId,
      otp,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('PHONE_EXISTS');
  });

  it('answers PHONE_EXISTS when asking a signup code for a registered phone', async () => {
    const u = await signUpViaApi(t.app);
    const res = await post('/account/sendOtp', { phone: u.phone, purpose: 'signup' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PHONE_EXISTS', message: 'Phone number already exists.' });
  });

  it('answers EMAIL_EXISTS for an e-mail in use (any case) and keeps the code usable', async () => {
    const first = await signUpViaApi(t.app);
    const phone = uniquePhone();
    const { otpId, otp } = await requestOtp(t.app, phone, 'signup');
    const body = { accountType: 1, firstName: 'Sara', lastName: 'H', companyName: 'Najd', phone, password: 'Najd@2026', otpId, otp };
    const dup = await post('/account/signUp', { ...body, email: first.email.toUpperCase() });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('EMAIL_EXISTS');
    const ok = await post('/account/signUp', { ...body, email: `sara.${phone.slice(-6)}@example.sa` });
    expect(ok.statusCode).toBe(200);
  });

  it('lets one of two racing sign-ups with the same e-mail win; the other hears EMAIL_EXISTS', async () => {
    const email = `race.${Date.now()}@example.sa`;
    const attempt = async () => {
      const phone = uniquePhone();
      const { otpId, otp } = await requestOtp(t.app, phone, 'signup');
      return () =>
        post('/account/signUp', { accountType: 1, firstName: 'R', lastName: 'C', companyName: 'Race', email, phone, password: 'Race@2026', otpId, otp });
    };
    const [a, b] = await Promise.all([attempt(), attempt()]);
    const answers = await Promise.all([a(), b()]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().code).toBe('EMAIL_EXISTS');
  });

  it('answers NOT_REGISTERED for a login code to an unknown phone', async () => {
    const res = await post('/account/sendOtp', { phone: uniquePhone(), purpose: 'login' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_REGISTERED');
  });

  it('rejects a wrong code, a code for another purpose and a malformed phone', async () => {
    const phone = uniquePhone();
    const { otpId, otp } = await requestOtp(t.app, phone, 'signup');
    const body = {
      accountType: 1,
      firstName: 'A',
      lastName: 'B',
      companyName: 'C',
      email: `w${phone.slice(-6)}@example.sa`,
      phone,
      password: 'Najd@2026',
      otpId,
    };
    const wrong = await post('/account/signUp', { ...body, otp: otp === '0000' ? '1111' : '0000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('INVALID_OTP');

    const other = uniquePhone();
    const foreign = await post('/account/signUp', { ...body, phone: other, otp });
    expect(foreign.json().code).toBe('INVALID_OTP');

    const bad = await post('/account/sendOtp', { phone: '+966412345678', purpose: 'signup' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ path: 'phone', message: 'Phone number must start with 5.' });
  });

  it('validates the password rule of spec §5 in Arabic', async () => {
    const res = await post(
      '/account/signUp',
      {
        accountType: 1,
        firstName: 'A',
        lastName: 'B',
        companyName: 'C',
        email: 'a@b.sa',
        phone: uniquePhone(),
        password: 'simple',
        otpId: '0190f0f0-0000-7000-8000-000000000000',
        otp: '1234',
      },
      { language: 'ar' },
    );
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(isArabic(body.message)).toBe(true);
    expect(body.errors).toContainEqual({ path: 'password', message: 'يجب أن تحتوي كلمة المرور على حرف كبير.' });
  });
});

describe('sign-in', () => {
  it('signs in by password and by a login code', async () => {
    const u = await signUpViaApi(t.app, { accountType: ACCOUNT_TYPE.broker });
    const byPassword = await post('/account/signIn', { phone: u.phone, password: TEST_PASSWORD });
    expect(byPassword.statusCode).toBe(200);
    expect(byPassword.json().data.profile).toMatchObject({ id: u.profile.id, accountType: 3 });

    const { otpId, otp } = await requestOtp(t.app, u.phone, 'login');
    const byOtp = await post('/account/signIn', { phone: u.phone, otpId, otp });
    expect(byOtp.statusCode).toBe(200);
    expect(byOtp.json().data.token.refreshToken).not.toBe(byPassword.json().data.token.refreshToken);

    // a login code works once
    const replay = await post('/account/signIn', { phone: u.phone, otpId, otp });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('INVALID_OTP');
  });

  it('answers the same INVALID_CREDENTIALS for a wrong password and an unknown phone, localized', async () => {
    const u = await signUpViaApi(t.app);
    const wrong = await post('/account/signIn', { phone: u.phone, password: 'Wrong@123' });
    const unknown = await post('/account/signIn', { phone: uniquePhone(), password: 'Wrong@123' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Wrong phone number or password.' });
    const ar = await post('/account/signIn', { phone: u.phone, password: 'Wrong@123' }, { language: 'ar' });
    expect(ar.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: 'رقم الجوال أو كلمة المرور غير صحيحة.' });
  });

  it('pauses password sign-in after 10 wrong passwords in 15 minutes; SMS-code sign-in still works', async () => {
    const u = await signUpViaApi(t.app);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const wrong = () => post('/account/signIn', { phone: u.phone, password: 'Wrong@123' });
    // a success resets the count
    for (let i = 0; i < 9; i++) expect((await wrong()).json().code).toBe('INVALID_CREDENTIALS');
    expect((await post('/account/signIn', { phone: u.phone, password: TEST_PASSWORD })).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await wrong()).json().code).toBe('INVALID_CREDENTIALS');
    const paused = await post('/account/signIn', { phone: u.phone, password: TEST_PASSWORD }, { language: 'ar' });
    expect(paused.statusCode).toBe(429);
    expect(paused.json().code).toBe('TOO_MANY_PASSWORD_ATTEMPTS');
    expect(isArabic(paused.json().message)).toBe(true);
    const { otpId, otp } = await requestOtp(t.app, u.phone, 'login');
    expect((await post('/account/signIn', { phone: u.phone, otpId, otp })).statusCode).toBe(200);
    vi.setSystemTime(start + 15 * 60_000 + 1000);
    expect((await post('/account/signIn', { phone: u.phone, password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it('refuses suspended and deleted accounts with 403', async () => {
    const s = await signUpViaApi(t.app);
    await t.database.db.update(users).set({ status: PROFILE_STATUS.suspended }).where(eq(users.phone, s.phone));
    const r1 = await post('/account/signIn', { phone: s.phone, password: TEST_PASSWORD });
    expect(r1.statusCode).toBe(403);
    expect(r1.json().code).toBe('ACCOUNT_SUSPENDED');
    // an existing session hears it too (the client shows the suspended dialog)
    const me = await get('/accountDetails', s.headers);
    expect(me.statusCode).toBe(403);
    expect(me.json().code).toBe('ACCOUNT_SUSPENDED');

    const d = await signUpViaApi(t.app);
    await t.database.db.update(users).set({ status: PROFILE_STATUS.deleted }).where(eq(users.phone, d.phone));
    const r2 = await post('/account/signIn', { phone: d.phone, password: TEST_PASSWORD }, { language: 'ar' });
    expect(r2.statusCode).toBe(403);
    expect(r2.json()).toMatchObject({ code: 'ACCOUNT_DELETED', message: 'تم حذف حسابك. سيتم تسجيل خروجك.' });
  });

  it('reports the first login after approval exactly once', async () => {
    const u = await signUpViaApi(t.app);
    await t.database.db
      .update(users)
      .set({ status: PROFILE_STATUS.approved, isFirstTimeApproved: true, isFirstTimeLoginAfterApproved: true })
      .where(eq(users.phone, u.phone));
    const first = await post('/account/signIn', { phone: u.phone, password: TEST_PASSWORD });
    expect(first.json().data.profile).toMatchObject({
      status: 2,
      statusText: 'Approved',
      isFirstTimeApproved: true,
      isFirstTimeLoginAfterApproved: true,
      accountsDetails: { isFirstTimeLoginAfterApproved: true },
    });
    const second = await post('/account/signIn', { phone: u.phone, password: TEST_PASSWORD });
    expect(second.json().data.profile.isFirstTimeLoginAfterApproved).toBe(false);
    const me = await get('/accountDetails', u.headers);
    expect(me.json().data).toMatchObject({ isFirstTimeApproved: true, isFirstTimeLoginAfterApproved: false });
  });
});

describe('profile', () => {
  it('needs a token; shows the status text in Arabic; edits basics with PATCH /account', async () => {
    expect((await get('/accountDetails')).statusCode).toBe(401);
    const u = await signUpViaApi(t.app);
    const ar = await get('/accountDetails', { ...u.headers, language: 'ar' });
    expect(ar.json().data.statusText).toBe('بانتظار الموافقة');

    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/account',
      headers: u.headers,
      payload: { firstName: 'Huda', companyName: 'Huda Freight' },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().data).toMatchObject({ firstName: 'Huda', lastName: 'Al-Otaibi', companyName: 'Huda Freight' });

    const other = await signUpViaApi(t.app);
    const taken = await t.app.inject({ method: 'PATCH', url: '/api/v1/account', headers: u.headers, payload: { email: other.email } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('EMAIL_EXISTS');

    const empty = await t.app.inject({ method: 'PATCH', url: '/api/v1/account', headers: u.headers, payload: {} });
    expect(empty.statusCode).toBe(400);
  });
});
