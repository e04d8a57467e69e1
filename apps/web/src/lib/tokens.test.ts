import { describe, expect, it, vi } from 'vitest';
import { createTokenManager, type TokenPair } from './tokens';

/**
 * `state.refresh` plays the server's HttpOnly refresh cookie: script never reads it, the fake
 * /generateToken below succeeds only while it is set and rotates it.
 */
function setup(initial: { token?: string; refresh?: string; user?: boolean } = {}) {
  const state = { token: initial.token ?? null, refresh: initial.refresh ?? null };
  let guestN = 0;
  const deps = {
    store: {
      token: () => state.token,
      save: (t: TokenPair) => {
        state.token = t.accessToken;
        if (t.refreshToken) state.refresh = t.refreshToken;
      },
      clear: () => {
        state.token = null;
        state.refresh = null;
      },
    },
    guestSignIn: vi.fn(async () => {
      await new Promise((r) => setTimeout(r, 5));
      guestN++;
      return { accessToken: `guest${guestN}`, refreshToken: `gref${guestN}`, accessExpireAt: 'x' };
    }),
    generateToken: vi.fn(async (_acc: string | null): Promise<{ message: string; data: TokenPair }> => {
      if (!state.refresh) throw new Error('401');
      return { message: 'ok', data: { accessToken: 'new', refreshToken: 'newref', accessExpireAt: 'x' } };
    }),
    isUser: () => initial.user ?? false,
    onSessionLost: vi.fn(),
  };
  return { state, deps, tm: createTokenManager(deps) };
}

describe('token manager (spec §4/§8)', () => {
  it('after a reload a signed-in user gets the access token back from the refresh cookie, not a guest token', async () => {
    const { tm, deps } = setup({ refresh: 'ref', user: true });
    const tokens = await Promise.all([tm.getAccessToken(), tm.getAccessToken()]);
    expect(tokens).toEqual(['new', 'new']);
    expect(deps.generateToken).toHaveBeenCalledTimes(1);
    expect(deps.generateToken).toHaveBeenCalledWith(null);
    expect(deps.guestSignIn).not.toHaveBeenCalled();
  });

  it('a user whose refresh cookie is gone falls back to a guest token', async () => {
    const { tm, deps } = setup({ user: true });
    expect(await tm.getAccessToken()).toBe('guest1');
    expect(deps.generateToken).toHaveBeenCalledTimes(1);
  });

  it('signs in as a guest once for concurrent requests without a token', async () => {
    const { tm, deps } = setup();
    const tokens = await Promise.all([tm.getAccessToken(), tm.getAccessToken(), tm.getAccessToken()]);
    expect(tokens).toEqual(['guest1', 'guest1', 'guest1']);
    expect(deps.guestSignIn).toHaveBeenCalledTimes(1);
  });

  it('regenerates once on 406 for concurrent failures', async () => {
    const { tm, deps, state } = setup({ token: 'old', refresh: 'ref', user: true });
    const r = await Promise.all([1, 2, 3].map(() => tm.onAuthError(406, 'TOKEN_EXPIRED', { usedToken: 'old', retried: false })));
    expect(r).toEqual([true, true, true]);
    expect(deps.generateToken).toHaveBeenCalledTimes(1);
    expect(deps.generateToken).toHaveBeenCalledWith('old');
    expect(state).toEqual({ token: 'new', refresh: 'newref' });
  });

  it('keeps the token when the answer says 407', async () => {
    const { tm, deps, state } = setup({ token: 'old', refresh: 'ref' });
    deps.generateToken.mockResolvedValueOnce({ message: '407: still valid', data: { accessToken: 'old', accessExpireAt: 'y' } });
    expect(await tm.onAuthError(406, 'TOKEN_EXPIRED', { usedToken: 'old', retried: false })).toBe(true);
    expect(state.token).toBe('old');
    expect(state.refresh).toBe('ref');
  });

  it('falls back to guest sign-in when regeneration fails on 406', async () => {
    const { tm, deps, state } = setup({ token: 'old', refresh: 'ref', user: true });
    deps.generateToken.mockRejectedValueOnce(new Error('401'));
    expect(await tm.onAuthError(406, 'TOKEN_EXPIRED', { usedToken: 'old', retried: false })).toBe(true);
    expect(deps.onSessionLost).toHaveBeenCalledTimes(1);
    expect(state.token).toBe('guest1');
  });

  it('does not regenerate when another request already replaced the token', async () => {
    const { tm, deps } = setup({ token: 'fresh', refresh: 'ref' });
    expect(await tm.onAuthError(406, 'TOKEN_EXPIRED', { usedToken: 'stale', retried: false })).toBe(true);
    expect(deps.generateToken).not.toHaveBeenCalled();
  });

  it('401: one refresh, and a second 401 of a user clears everything', async () => {
    const { tm, deps, state } = setup({ token: 'old', refresh: 'ref', user: true });
    expect(await tm.onAuthError(401, 'UNAUTHORIZED', { usedToken: 'old', retried: false })).toBe(true);
    expect(deps.generateToken).toHaveBeenCalledTimes(1);
    expect(await tm.onAuthError(401, 'UNAUTHORIZED', { usedToken: 'new', retried: true })).toBe(false);
    expect(deps.onSessionLost).toHaveBeenCalledTimes(1);
    expect(state.token).toBeNull();
  });

  it('401 with a refresh that fails logs a user out without a retry', async () => {
    const { tm, deps, state } = setup({ token: 'old', refresh: 'ref', user: true });
    deps.generateToken.mockRejectedValueOnce(new Error('401'));
    expect(await tm.onAuthError(401, 'UNAUTHORIZED', { usedToken: 'old', retried: false })).toBe(false);
    expect(deps.onSessionLost).toHaveBeenCalledTimes(1);
    expect(state.token).toBeNull();
  });

  it('a guest whose token died gets a new guest token', async () => {
    const { tm, deps, state } = setup({ token: 'old', refresh: 'ref' });
    deps.generateToken.mockRejectedValueOnce(new Error('401'));
    expect(await tm.onAuthError(401, 'UNAUTHORIZED', { usedToken: 'old', retried: false })).toBe(true);
    expect(deps.onSessionLost).not.toHaveBeenCalled();
    expect(state.token).toBe('guest1');
  });
});
