import { eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions } from '../../db/schema/index.ts';
import { signAccessToken } from '../../lib/tokens.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { requestOtp, signUpViaApi, TEST_PASSWORD, uniquePhone } from './auth.testkit.ts';

// Access tokens, rotating refresh tokens, logout, password change and reset (spec §4 Tokens,
// §8: 401 / 406 / "407"; issue 2).

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_PER_IP_PER_MIN: 0, OTP_RATE_PER_IP_PER_10MIN: 0 });
});
afterAll(() => t?.close());
afterEach(() => {
  vi.useRealTimers();
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers });
const me = (accessToken: string) => t.app.inject({ url: '/api/v1/accountDetails', headers: { authorization: `Bearer ${accessToken}` } });
const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
/** The session family of an access token's session row (its `sid`). */
const familyOf = async (accessToken: string) => {
  const { sid } = decodeJwt(accessToken) as { sid: string };
  return (await t.database.db.select({ familyId: sessions.familyId }).from(sessions).where(eq(sessions.id, sid)))[0].familyId;
};
const regenerate = (refToken: string, accessToken?: string, headers: Record<string, string> = {}) =>
  post('/generateToken', accessToken ? { refToken, accessToken } : { refToken }, headers);

/**
 * Keep `n` chains of refresh-token rotations going from `refreshToken` (each chain rotates the
 * token its last answer gave) until `stop()`; a chain also ends at its first refused rotation.
 * `stop()` waits for the requests in flight and returns each chain's last tokens.
 */
function rotating(refreshToken: string, n: number) {
  let done = false;
  const chain = async () => {
    let last = { accessToken: '', refreshToken };
    while (!done) {
      const r = await regenerate(last.refreshToken);
      if (r.statusCode !== 200) break;
      last = r.json().data;
    }
    return last;
  };
  const chains = Promise.all(Array.from({ length: n }, chain));
  return {
    stop: async () => {
      done = true;
      return chains;
    },
  };
}
const liveInFamily = async (familyId: string) =>
  (await t.database.db.select().from(sessions).where(eq(sessions.familyId, familyId))).filter((r) => !r.revokedAt).length;

describe('access tokens', () => {
  it('answers 406 TOKEN_EXPIRED for an expired access token and 401 for a forged one', async () => {
    const u = await signUpViaApi(t.app);
    const { sid } = decodeJwt(u.token.accessToken) as { sid: string };
    const expired = await signAccessToken({ sub: u.profile.id, sid, typ: 'user', at: 1 }, t.config.jwtSecret, -1);
    const r = await me(expired.token);
    expect(r.statusCode).toBe(406);
    expect(r.json().code).toBe('TOKEN_EXPIRED');

    const forged = await signAccessToken({ sub: u.profile.id, sid, typ: 'user', at: 1 }, 'another-secret-another-secret-another-secret', 600);
    const f = await me(forged.token);
    expect(f.statusCode).toBe(401);
    expect(f.json().code).toBe('UNAUTHORIZED');
  });

  it('refuses a token signed with the server key but without exp (401), on every route mode (issue 22)', async () => {
    const u = await signUpViaApi(t.app);
    const { sid } = decodeJwt(u.token.accessToken) as { sid: string };
    const noExp = await new SignJWT({ sid, typ: 'user', at: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.profile.id)
      .setIssuedAt()
      .setIssuer('masar')
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const r = await me(noExp);
    expect(r.statusCode).toBe(401);
    expect(r.json().code).toBe('UNAUTHORIZED');
    // an 'auth: token' route (session lookup only) refuses it too
    const list = await t.app.inject({ url: '/api/v1/api-keys', headers: bearer(noExp) });
    expect(list.statusCode).toBe(401);
    // the same token with exp works: the signature and claims are otherwise right
    expect((await me(u.token.accessToken)).statusCode).toBe(200);
  });

  it('keeps a still-valid access token: message containing 407, same token, refresh token not used up', async () => {
    const u = await signUpViaApi(t.app);
    const r = await regenerate(u.token.refreshToken, u.token.accessToken);
    expect(r.statusCode).toBe(200);
    expect(r.json().message).toContain('407');
    expect(r.json().data).toEqual({ accessToken: u.token.accessToken, accessExpireAt: u.token.accessExpireAt });
    const ar = await regenerate(u.token.refreshToken, u.token.accessToken, { language: 'ar' });
    expect(ar.json().message).toContain('407');
    expect(ar.json().message).toMatch(/[\u0600-\u06FF]/);
    // the refresh token still rotates afterwards
    const rot = await regenerate(u.token.refreshToken);
    expect(rot.statusCode).toBe(200);
    expect(rot.json().message).not.toContain('407');
  });
});

describe('refresh-token rotation', () => {
  it('rotates: new access and refresh tokens; the old access token of an expired session regenerates', async () => {
    const u = await signUpViaApi(t.app);
    const { sid } = decodeJwt(u.token.accessToken) as { sid: string };
    const expired = await signAccessToken({ sub: u.profile.id, sid, typ: 'user', at: 1 }, t.config.jwtSecret, -1);
    const r = await regenerate(u.token.refreshToken, expired.token);
    expect(r.statusCode).toBe(200);
    const next = r.json().data;
    expect(next.accessToken).not.toBe(u.token.accessToken);
    expect(next.refreshToken).toBeTruthy();
    expect(next.refreshToken).not.toBe(u.token.refreshToken);
    expect(new Date(next.accessExpireAt).getTime()).toBeGreaterThan(Date.now());
    const ok = await me(next.accessToken);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.id).toBe(u.profile.id);
    // and again with the new refresh token
    const r2 = await regenerate(next.refreshToken);
    expect(r2.statusCode).toBe(200);
  });

  it('rejects reuse of a rotated refresh token after the reuse interval and kills the whole family', async () => {
    const u = await signUpViaApi(t.app);
    const first = (await regenerate(u.token.refreshToken)).json().data;
    const second = (await regenerate(first.refreshToken)).json().data;
    expect((await me(second.accessToken)).statusCode).toBe(200);

    // an attacker replays the very first refresh token, once its reuse interval is over
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (t.config.REFRESH_REUSE_GRACE_SECONDS + 1) * 1000);
    const replay = await regenerate(u.token.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('UNAUTHORIZED');
    // the legitimate holder's newest tokens are dead too
    expect((await regenerate(second.refreshToken)).statusCode).toBe(401);
    expect((await me(second.accessToken)).statusCode).toBe(401);
  });

  it('answers a token rotated moments ago (its answer was lost to a reload) with a new token of the same session family', async () => {
    const u = await signUpViaApi(t.app);
    // the rotation whose answer never reached the browser
    const lost = (await regenerate(u.token.refreshToken)).json().data;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (t.config.REFRESH_REUSE_GRACE_SECONDS - 5) * 1000);
    const again = await regenerate(u.token.refreshToken);
    expect(again.statusCode).toBe(200);
    const next = again.json().data;
    expect(next.refreshToken).not.toBe(lost.refreshToken);
    expect((await me(next.accessToken)).statusCode).toBe(200);
    // one family: both tokens stay good, and a logout with either ends both
    expect(await familyOf(next.accessToken)).toBe(await familyOf(u.token.accessToken));
    expect(await familyOf(lost.accessToken)).toBe(await familyOf(u.token.accessToken));
    const after = (await regenerate(next.refreshToken)).json().data;
    expect((await post('/account/logout', {}, bearer(after.accessToken))).statusCode).toBe(200);
    expect((await regenerate(lost.refreshToken)).statusCode).toBe(401);
    expect((await regenerate(u.token.refreshToken)).statusCode).toBe(401);
  });

  it('gives each of 20 concurrent rotations of one token a working token, and the family stays live', async () => {
    const u = await signUpViaApi(t.app);
    const all = await Promise.all(Array.from({ length: 20 }, () => regenerate(u.token.refreshToken)));
    expect(all.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const tokens = all.map((r) => r.json().data as { accessToken: string; refreshToken: string });
    expect(new Set(tokens.map((x) => x.refreshToken)).size).toBe(20);
    for (const x of tokens.slice(0, 3)) expect((await me(x.accessToken)).statusCode).toBe(200);
    // exactly one rotation retired the token: one retired row, twenty live ones, nothing revoked
    const familyId = await familyOf(u.token.accessToken);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.familyId, familyId));
    expect(rows.filter((r) => r.rotatedAt).length).toBe(1);
    expect(rows.filter((r) => !r.rotatedAt && !r.revokedAt).length).toBe(20);
    expect(rows.filter((r) => r.revokedAt).length).toBe(0);
  });

  it('leaves no live token in a family whose logout raced 20 chains of rotations (a rotation in flight added none)', async () => {
    for (let round = 0; round < 3; round++) {
      const u = await signUpViaApi(t.app);
      const familyId = await familyOf(u.token.accessToken);
      const chains = rotating(u.token.refreshToken, 20);
      await new Promise((r) => setTimeout(r, 30 + round * 40));
      expect((await post('/account/logout', {}, bearer(u.token.accessToken))).statusCode).toBe(200);
      const last = await chains.stop();
      expect(await liveInFamily(familyId)).toBe(0);
      for (const x of last.slice(0, 5)) {
        expect((await regenerate(x.refreshToken)).statusCode).toBe(401);
        if (x.accessToken) expect((await me(x.accessToken)).statusCode).toBe(401);
      }
    }
  });

  it('answers 401 for an unknown or expired refresh token', async () => {
    expect((await regenerate('not-a-token')).statusCode).toBe(401);
    const u = await signUpViaApi(t.app);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (t.config.REFRESH_TOKEN_TTL_DAYS + 1) * 86_400_000);
    expect((await regenerate(u.token.refreshToken)).statusCode).toBe(401);
  });

  it('rotates guest tokens too', async () => {
    const g = (await post('/guest/signIn', { deviceId: 'dev-1' })).json().data.token;
    const r = await regenerate(g.refreshToken);
    expect(r.statusCode).toBe(200);
    expect(decodeJwt(r.json().data.accessToken)).toMatchObject({ typ: 'guest' });
  });
});

describe('guest to user', () => {
  it('closes the guest session when the guest signs in', async () => {
    const u = await signUpViaApi(t.app);
    const g = (await post('/guest/signIn', { deviceId: 'dev-3' })).json().data.token;
    const res = await post('/account/signIn', { phone: u.phone, password: TEST_PASSWORD }, bearer(g.accessToken));
    expect(res.statusCode).toBe(200);
    expect((await regenerate(g.refreshToken)).statusCode).toBe(401);
    // the user's own sessions are untouched
    expect((await me(res.json().data.token.accessToken)).statusCode).toBe(200);
    expect((await me(u.token.accessToken)).statusCode).toBe(200);
  });
});

describe('logout', () => {
  it('revokes the session: the access token gets 401 and the refresh token is dead; device info is kept', async () => {
    const u = await signUpViaApi(t.app);
    const device = {
      ipAddress: '1.2.3.4',
      latitude: 24.7,
      longitude: 46.7,
      deviceMake: 'Apple',
      deviceModel: 'Mac',
      deviceOsVersion: '14',
      deviceId: 'web-abc',
      city: 'Riyadh',
      country: 'SA',
      refToken: u.token.refreshToken,
    };
    const out = await post('/account/logout', device, bearer(u.token.accessToken));
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: 'Signed out.', data: null });
    expect((await me(u.token.accessToken)).statusCode).toBe(401);
    expect((await regenerate(u.token.refreshToken)).statusCode).toBe(401);
    const { sid } = decodeJwt(u.token.accessToken) as { sid: string };
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.id, sid));
    expect(row.revokedAt).toBeInstanceOf(Date);
    expect(row.logoutInfo).toMatchObject({ deviceId: 'web-abc', city: 'Riyadh', latitude: 24.7 });
    expect(row.logoutInfo).not.toHaveProperty('refToken');
  });

  it('works for guests and needs a token', async () => {
    const g = (await post('/guest/signIn', { deviceId: 'dev-2' })).json().data.token;
    expect((await post('/account/logout', {}, bearer(g.accessToken))).statusCode).toBe(200);
    expect((await regenerate(g.refreshToken)).statusCode).toBe(401);
    expect((await post('/account/logout', {})).statusCode).toBe(401);
  });
});

describe('passwords', () => {
  it('changes the password, refusing a wrong current one, and signs out the other sessions', async () => {
    const u = await signUpViaApi(t.app);
    const other = (await post('/account/signIn', { phone: u.phone, password: TEST_PASSWORD })).json().data.token;
    const wrong = await post(
      '/account/changePassword',
      { oldPassword: 'Wrong@999', newPassword: 'Newpass@1', confirmPassword: 'Newpass@1' },
      bearer(u.token.accessToken),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('WRONG_PASSWORD');
    const mismatch = await post(
      '/account/changePassword',
      { oldPassword: TEST_PASSWORD, newPassword: 'Newpass@1', confirmPassword: 'Newpass@2' },
      bearer(u.token.accessToken),
    );
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors).toContainEqual({ path: 'confirmPassword', message: 'Passwords do not match.' });

    const ok = await post(
      '/account/changePassword',
      { oldPassword: TEST_PASSWORD, newPassword: 'Newpass@1', confirmPassword: 'Newpass@1' },
      bearer(u.token.accessToken),
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('Password changed successfully.');
    expect((await me(u.token.accessToken)).statusCode).toBe(200);
    expect((await me(other.accessToken)).statusCode).toBe(401);
    expect((await regenerate(other.refreshToken)).statusCode).toBe(401);
    expect((await post('/account/signIn', { phone: u.phone, password: TEST_PASSWORD })).statusCode).toBe(401);
    expect((await post('/account/signIn', { phone: u.phone, password: 'Newpass@1' })).statusCode).toBe(200);
  });

  it('signs out a session that was refreshing while the password changed (20 chains of rotations)', async () => {
    const u = await signUpViaApi(t.app);
    const other = (await post('/account/signIn', { phone: u.phone, password: TEST_PASSWORD })).json().data.token;
    const familyId = await familyOf(other.accessToken);
    const chains = rotating(other.refreshToken, 20);
    await new Promise((r) => setTimeout(r, 30));
    const ok = await post(
      '/account/changePassword',
      { oldPassword: TEST_PASSWORD, newPassword: 'Newpass@1', confirmPassword: 'Newpass@1' },
      bearer(u.token.accessToken),
    );
    expect(ok.statusCode).toBe(200);
    await chains.stop();
    expect(await liveInFamily(familyId)).toBe(0);
    expect((await me(u.token.accessToken)).statusCode).toBe(200);
  });

  it('resets a forgotten password with an SMS code and signs out everywhere', async () => {
    const u = await signUpViaApi(t.app);
    expect((await post('/account/forgotPassword', { phone: uniquePhone() })).json().code).toBe('NOT_REGISTERED');
    const sent = await post('/account/forgotPassword', { phone: u.phone });
    expect(sent.statusCode).toBe(200);
    const { otpId } = sent.json().data;
    const res = await t.app.inject({ url: `/api/v1/dev/outbox?phone=${encodeURIComponent(u.phone)}` });
    const otp = /\b(\d{4})\b/.exec(res.json().data.items[0].body)![1];

    // a signup or login code cannot reset a password
    const login = await requestOtp(t.app, u.phone, 'login');
    const crossed = await post('/account/resetPassword', {
      phone: u.phone,
      otpId: login.otpId,
      otp: login.otp,
      newPassword: 'Reset@2026',
      confirmPassword: 'Reset@2026',
    });
    expect(crossed.json().code).toBe('INVALID_OTP');

    const reset = await post(
      '/account/resetPassword',
      { phone: u.phone, otpId, otp, newPassword: 'Reset@2026', confirmPassword: 'Reset@2026' },
      { language: 'ar' },
    );
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toMatch(/[\u0600-\u06FF]/);
    expect((await me(u.token.accessToken)).statusCode).toBe(401);
    expect((await post('/account/signIn', { phone: u.phone, password: 'Reset@2026' })).statusCode).toBe(200);
    // the reset code is single-use
    const again = await post('/account/resetPassword', { phone: u.phone, otpId, otp, newPassword: 'Other@2026', confirmPassword: 'Other@2026' });
    expect(again.json().code).toBe('INVALID_OTP');
  });
});
