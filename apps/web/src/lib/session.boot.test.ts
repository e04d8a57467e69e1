import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/render';
import { clearTokens, writeUser } from './storage';
import { tokenManager } from './session';

/**
 * public/boot.js sends POST /generateToken for a signed-in reader before the app's modules have
 * loaded (issue 23); the app's first regeneration takes that answer instead of asking again.
 */
const pair = (accessToken: string) => ({ accessToken, accessExpireAt: '2099-01-01T00:00:00.000Z' });
const answer = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

describe('the regeneration boot.js started', () => {
  beforeEach(() => {
    clearTokens();
    tokenManager.reset();
    writeUser(2, 'u-1');
  });
  afterEach(() => {
    window.__masarBootToken = undefined;
    clearTokens();
    vi.unstubAllGlobals();
  });

  it('is adopted by the first regeneration: its token is used and no second /generateToken is sent', async () => {
    const calls = stubApi((m, p) => (p === '/generateToken' ? { body: { message: 'ok', data: pair('from-app') } } : undefined));
    window.__masarBootToken = answer(200, { message: 'ok', data: pair('from-boot') });
    expect(await tokenManager.getAccessToken()).toBe('from-boot');
    expect(calls.filter((c) => c.path === '/generateToken')).toHaveLength(0);
    expect(window.__masarBootToken).toBeUndefined();
  });

  it('is taken once: a later regeneration (an expired token) asks the server itself', async () => {
    const calls = stubApi((m, p) => (p === '/generateToken' ? { body: { message: 'ok', data: pair('from-app') } } : undefined));
    window.__masarBootToken = answer(200, { message: 'ok', data: pair('from-boot') });
    expect(await tokenManager.getAccessToken()).toBe('from-boot');
    expect(await tokenManager.onAuthError(406, 'TOKEN_EXPIRED', { usedToken: 'from-boot', retried: false })).toBe(true);
    expect(await tokenManager.getAccessToken()).toBe('from-app');
    expect(calls.filter((c) => c.path === '/generateToken')).toHaveLength(1);
  });

  it('answered with an error counts as a failed regeneration: the lost session ends as without boot.js', async () => {
    const calls = stubApi((m, p) => (p === '/guest/signIn' ? { body: { message: 'ok', data: { token: pair('guest') } } } : undefined));
    window.__masarBootToken = answer(401, { message: 'Session expired', code: 'UNAUTHORIZED' });
    // a signed-in user whose refresh cookie is gone falls back to a guest token, exactly as when the app asked
    expect(await tokenManager.getAccessToken()).toBe('guest');
    expect(calls.map((c) => c.path)).toEqual(['/guest/signIn']);
  });

  it('is not used when boot.js sent nothing (a guest, an old shell): the app asks itself', async () => {
    const calls = stubApi((m, p) => (p === '/generateToken' ? { body: { message: 'ok', data: pair('from-app') } } : undefined));
    expect(await tokenManager.getAccessToken()).toBe('from-app');
    expect(calls.filter((c) => c.path === '/generateToken')).toHaveLength(1);
  });
});
