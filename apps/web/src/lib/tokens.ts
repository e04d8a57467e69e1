/**
 * The token rules of spec §4/§8, independent of React and fetch (so they can be unit-tested):
 * - no token → guest sign-in; concurrent requests wait for ONE sign-in;
 * - 406 (TOKEN_EXPIRED) → regenerate with /generateToken (a message containing "407" means the
 *   token is still valid: keep it), falling back to guest sign-in;
 * - 401 → one refresh; a second 401 (or a failed refresh) of a signed-in user → clear
 *   everything and go home.
 * Refresh tokens rotate and a reused one revokes the whole session family on the server (after a
 * 30 s reuse interval that covers a rotation answer lost to a reload), so
 * regeneration is single-flight, serialized across tabs (Web Locks) and skipped when another
 * request or tab already replaced the token that failed.
 * The refresh token never reaches page scripts (issue 6): the server keeps it in an HttpOnly
 * cookie sent only to /generateToken, and the access token lives in memory. After a reload a
 * signed-in user's first request therefore regenerates from the cookie.
 */
export interface TokenPair {
  accessToken: string;
  accessExpireAt: string;
  refreshToken?: string;
}

export interface TokenStoreLike {
  token(): string | null;
  save(t: TokenPair): void;
  /** Forget the tokens only (a guest whose token died). */
  clear(): void;
}

export interface TokenManagerDeps {
  store: TokenStoreLike;
  guestSignIn(): Promise<TokenPair>;
  /** POST /generateToken; the refresh token goes as the HttpOnly cookie, not from script. */
  generateToken(accessToken: string | null): Promise<{ message: string; data: TokenPair }>;
  /** true while a user (not a guest) is signed in */
  isUser(): boolean;
  /** A signed-in user's session is gone: clear everything and go home. */
  onSessionLost(): void;
  /** Runs fn exclusively across tabs; defaults to a plain call. */
  lock?<T>(fn: () => Promise<T>): Promise<T>;
}

export function webLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? locks.request('masar-token', fn) : fn();
}

export function createTokenManager(deps: TokenManagerDeps) {
  const { store } = deps;
  const lock = <T>(fn: () => Promise<T>): Promise<T> => (deps.lock ? deps.lock(fn) : fn());
  let guestInFlight: Promise<string> | null = null;
  let regenInFlight: Promise<boolean> | null = null;

  function guestSignIn(): Promise<string> {
    guestInFlight ??= lock(async () => {
      const existing = store.token();
      if (existing) return existing; // another tab signed in meanwhile
      const t = await deps.guestSignIn();
      store.save(t);
      return t.accessToken;
    }).finally(() => {
      guestInFlight = null;
    });
    return guestInFlight;
  }

  /** true when a usable token is stored afterwards. */
  function regenerate(usedToken: string | null): Promise<boolean> {
    regenInFlight ??= lock(async () => {
      const current = store.token();
      if (current && current !== usedToken) return true; // already replaced
      try {
        const r = await deps.generateToken(current);
        if (r.message.includes('407')) return true; // still valid: keep it
        store.save(r.data);
        return true;
      } catch {
        return false;
      }
    }).finally(() => {
      regenInFlight = null;
    });
    return regenInFlight;
  }

  async function fallbackToGuest(): Promise<boolean> {
    if (deps.isUser()) deps.onSessionLost();
    store.clear();
    try {
      await guestSignIn();
      return true;
    } catch {
      return false;
    }
  }

  return {
    /** The token to send; signs in as a guest first when there is none. */
    async getAccessToken(): Promise<string | null> {
      const t = store.token();
      if (t) return t;
      // a signed-in user after a reload: the access token was in memory only, the refresh
      // cookie brings it back
      if (deps.isUser() && (await regenerate(null)) && store.token()) return store.token();
      try {
        return await guestSignIn();
      } catch {
        return null; // the request goes out without a token and fails visibly
      }
    },

    async onAuthError(status: 401 | 406, _code: string, ctx: { usedToken: string | null; retried: boolean }): Promise<boolean> {
      const current = store.token();
      // Another request (or tab) already replaced the token this one carried: just retry.
      if (!ctx.retried && current && current !== ctx.usedToken) return true;
      if (status === 406) {
        if (await regenerate(ctx.usedToken)) return true;
        return fallbackToGuest();
      }
      if (ctx.retried) {
        // second 401 in a row: the session is gone
        if (deps.isUser()) deps.onSessionLost();
        store.clear();
        return false;
      }
      if (await regenerate(ctx.usedToken)) return true;
      if (deps.isUser()) {
        deps.onSessionLost();
        store.clear();
        return false;
      }
      return fallbackToGuest();
    },

    /** For tests and logout: forget in-flight work. */
    reset() {
      guestInFlight = null;
      regenInFlight = null;
    },
  };
}

export type TokenManager = ReturnType<typeof createTokenManager>;
