import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from './auth.routes.ts';
import { readOtp, requestOtp, signUpViaApi, TEST_PASSWORD } from './auth.testkit.ts';

// Issue 6: a revoked session's access token stops working at once on every route, and the web
// app's refresh token lives in an HttpOnly, SameSite=Strict cookie scoped to /generateToken.

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_PER_IP_PER_MIN: 0, OTP_RATE_PER_IP_PER_10MIN: 0, TRUST_PROXY: true });
});
afterAll(() => t?.close());
afterEach(() => {
  vi.useRealTimers();
});

const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
/** A route that takes any token (the board), and one that needs the user (profile). */
const board = (token: string) => t.app.inject({ url: '/api/v1/loads', headers: bearer(token) });
const profile = (token: string) => t.app.inject({ url: '/api/v1/accountDetails', headers: bearer(token) });
const cookieOf = (res: {
  cookies: { name: string; value: string; path?: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; maxAge?: number }[];
}) => res.cookies.find((c) => c.name === REFRESH_COOKIE);

describe('revoked sessions end everywhere at once', () => {
  it('logout: the old access token is refused on routes that take any token, and on user routes', async () => {
    const u = await signUpViaApi(t.app);
    expect((await board(u.token.accessToken)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/account/logout', headers: bearer(u.token.accessToken), payload: {} });
    expect(out.statusCode).toBe(200);
    expect((await board(u.token.accessToken)).statusCode).toBe(401);
    expect((await profile(u.token.accessToken)).statusCode).toBe(401);
  });

  it('password reset: every session of the account is refused at once', async () => {
    const u = await signUpViaApi(t.app);
    const { otpId } = await requestOtp(t.app, u.phone, 'reset');
    const otp = await readOtp(t.app, u.phone);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/resetPassword',
      payload: { phone: u.phone, otpId, otp, newPassword: 'Newpass@1', confirmPassword: 'Newpass@1' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await board(u.token.accessToken)).statusCode).toBe(401);
  });

  it('a guest session that logged out is refused too', async () => {
    const g = await t.app.inject({ method: 'POST', url: '/api/v1/guest/signIn', payload: { deviceId: 'dev-1' } });
    const token = g.json().data.token.accessToken as string;
    expect((await board(token)).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/v1/account/logout', headers: bearer(token), payload: {} });
    expect((await board(token)).statusCode).toBe(401);
  });
});

describe('the refresh-token cookie', () => {
  it('sign-in sets it HttpOnly, SameSite=Strict, scoped to /generateToken, for the refresh lifetime', async () => {
    const u = await signUpViaApi(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/account/signIn', payload: { phone: u.phone, password: TEST_PASSWORD } });
    expect(res.statusCode, res.body).toBe(200);
    const c = cookieOf(res);
    expect(c).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: REFRESH_COOKIE_PATH, maxAge: t.config.REFRESH_TOKEN_TTL_DAYS * 86_400 });
    expect(c?.secure).toBeFalsy();
    expect(c?.value).toBe(res.json().data.token.refreshToken);
  });

  it('is Secure when the request came over https (behind a trusted proxy)', async () => {
    const g = await t.app.inject({ method: 'POST', url: '/api/v1/guest/signIn', headers: { 'x-forwarded-proto': 'https' }, payload: { deviceId: 'dev-2' } });
    expect(g.statusCode, g.body).toBe(200);
    expect(cookieOf(g)?.secure).toBe(true);
  });

  it('regenerates from the cookie alone (no refresh token in the body), rotating the cookie; logout clears it', async () => {
    const u = await signUpViaApi(t.app);
    const first = await t.app.inject({ method: 'POST', url: '/api/v1/generateToken', cookies: { [REFRESH_COOKIE]: u.token.refreshToken }, payload: {} });
    expect(first.statusCode, first.body).toBe(200);
    const rotated = cookieOf(first)!.value;
    expect(rotated).not.toBe(u.token.refreshToken);
    const access = first.json().data.accessToken as string;
    expect((await profile(access)).statusCode).toBe(200);
    // the old cookie is single-use: presenting it again after the reuse interval revokes the
    // family, and the answer clears the cookie
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (t.config.REFRESH_REUSE_GRACE_SECONDS + 1) * 1000);
    const reuse = await t.app.inject({ method: 'POST', url: '/api/v1/generateToken', cookies: { [REFRESH_COOKIE]: u.token.refreshToken }, payload: {} });
    expect(reuse.statusCode).toBe(401);
    expect(cookieOf(reuse)?.value).toBe('');
    expect((await profile(access)).statusCode).toBe(401);
    const none = await t.app.inject({ method: 'POST', url: '/api/v1/generateToken', payload: {} });
    expect(none.statusCode).toBe(401);
    const v = await signUpViaApi(t.app);
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/account/logout', headers: bearer(v.token.accessToken), payload: {} });
    expect(cookieOf(out)).toMatchObject({ value: '', path: REFRESH_COOKIE_PATH });
  });
});
