import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { AccountType, Profile, Tokens } from '@masar/shared';
import i18n from '../i18n';
import { ApiError, masar, noAuth, setTokenHandler, unwrap, unwrapEnvelope } from './api';
import { deviceInfo, guestSignInBody } from './device';
import { clearEverything, clearTokens, readStoredSession, writeTokens, writeUser, type StoredSession } from './storage';
import { createTokenManager, webLock, type TokenPair } from './tokens';

/** Landing page of each account type (spec §2 route guard). */
export const LANDING: Record<AccountType, string> = { 1: '/shippers/my-loads', 2: '/carriers/load-search', 3: '/brokers/my-loads' };
/** Path prefix of each account type. */
export const ROLE_PREFIX: Record<AccountType, '/shippers' | '/carriers' | '/brokers'> = { 1: '/shippers', 2: '/carriers', 3: '/brokers' };

export function landingOf(accountType: number | null | undefined): string {
  return accountType === 1 || accountType === 2 || accountType === 3 ? LANDING[accountType] : '/';
}

type SessionEvent = { type: 'lost' } | { type: 'blocked'; code: 'ACCOUNT_SUSPENDED' | 'ACCOUNT_DELETED' };
const listeners = new Set<(e: SessionEvent) => void>();
function emit(e: SessionEvent) {
  for (const l of listeners) l(e);
}

declare global {
  interface Window {
    /** POST /generateToken as public/boot.js sent it for a signed-in reader, before the modules ran. */
    __masarBootToken?: Promise<Response>;
  }
}

const regenerateCall = (accessToken: string | null) => masar.POST('/api/v1/generateToken', { body: accessToken ? { accessToken } : {}, headers: noAuth });

/**
 * The regeneration public/boot.js started at page load, in the shape of the client's own call
 * (`{ response, data }` or `{ response, error }`), handed out once: the first regeneration of a
 * page without a token adopts it instead of sending the same request again after the modules have
 * loaded (issue 23). null when boot.js sent none or it was taken already. It was sent outside the
 * cross-tab lock (webLock): two tabs loading at once present the same refresh token, and the server
 * answers the second within its reuse interval with a token of the same session (tokens.ts).
 */
export function bootRegeneration(): ReturnType<typeof regenerateCall> | null {
  const sent = typeof window === 'undefined' ? undefined : window.__masarBootToken;
  if (!sent) return null;
  window.__masarBootToken = undefined;
  return sent.then(async (response) => {
    const body: unknown = await response.json().catch(() => undefined);
    // the same union openapi-fetch resolves to: data on 2xx, error otherwise
    return (response.ok ? { response, data: body } : { response, error: body }) as Awaited<ReturnType<typeof regenerateCall>>;
  });
}

export const tokenManager = createTokenManager({
  store: {
    token: () => readStoredSession().token,
    save: (t: TokenPair) => writeTokens(t),
    clear: () => clearTokens(),
  },
  // eslint-disable-next-line no-restricted-syntax -- session layer: the API client's own guest sign-in, not a user's write
  guestSignIn: async () => (await unwrap(masar.POST('/api/v1/guest/signIn', { body: guestSignInBody(), headers: noAuth }))).token,
  generateToken: (accessToken) => unwrapEnvelope((accessToken ? null : bootRegeneration()) ?? regenerateCall(accessToken)),
  isUser: () => readStoredSession().uid !== null,
  onSessionLost: () => emit({ type: 'lost' }),
  lock: webLock,
});

setTokenHandler({
  getAccessToken: () => tokenManager.getAccessToken(),
  onAuthError: (status, code, ctx) => tokenManager.onAuthError(status, code, ctx),
  language: () => i18n.language || document.documentElement.lang || 'en',
  onApiError: (err: ApiError) => {
    // only a signed-in user is "logged out soon"; a blocked account trying to sign in just sees the message
    if ((err.code === 'ACCOUNT_SUSPENDED' || err.code === 'ACCOUNT_DELETED') && readStoredSession().uid) emit({ type: 'blocked', code: err.code });
  },
});

export interface SessionValue {
  /** The signed-in user's profile (GET /accountDetails); undefined for guests or while loading. */
  profile: Profile | undefined;
  profileLoading: boolean;
  /** GET /accountDetails failed (spec §8 'Failed to fetch profile details'). */
  profileError: boolean;
  /** 1 shipper, 2 carrier, 3 broker; null for guests. Known at once (cookie `userType`). */
  accountType: AccountType | null;
  uid: string | null;
  isGuest: boolean;
  isSignedIn: boolean;
  /** Why the account is blocked, when a call answered ACCOUNT_SUSPENDED/ACCOUNT_DELETED. */
  blocked: 'ACCOUNT_SUSPENDED' | 'ACCOUNT_DELETED' | null;
  /** Store the tokens and profile of a sign-in/sign-up answer. */
  signIn: (tokens: Tokens, profile: Profile) => void;
  /** Logout (spec §4): call logout with device info, clear cookies and storage (language kept), go home. */
  signOut: () => Promise<void>;
  refreshProfile: () => Promise<void>;
}

/**
 * Work to do before logout while the session still authenticates (e.g. web push unsubscribes
 * this browser from the account's topic). Each runs with a time limit; failures are only logged:
 * logout never waits long for them.
 */
export const beforeSignOut = new Set<() => Promise<void>>();

const SessionContext = createContext<SessionValue | null>(null);
export const PROFILE_QUERY_KEY = ['accountDetails'] as const;

function userOf(s: StoredSession): { accountType: AccountType; uid: string } | null {
  return s.uid && s.userType ? { accountType: s.userType as AccountType, uid: s.uid } : null;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [user, setUser] = useState(() => userOf(readStoredSession()));
  const [blocked, setBlocked] = useState<SessionValue['blocked']>(null);

  const profileQuery = useQuery({
    queryKey: PROFILE_QUERY_KEY,
    queryFn: () => unwrap(masar.GET('/api/v1/accountDetails')),
    enabled: user !== null,
    staleTime: 60_000,
  });

  const dropLocal = useCallback(() => {
    clearEverything();
    tokenManager.reset();
    setUser(null);
    queryClient.clear();
  }, [queryClient]);

  useEffect(() => {
    const onEvent = (e: SessionEvent) => {
      if (e.type === 'lost') {
        dropLocal();
        void navigate('/', { replace: true });
      } else setBlocked(e.code);
    };
    listeners.add(onEvent);
    return () => {
      listeners.delete(onEvent);
    };
  }, [dropLocal, navigate]);

  const signIn = useCallback(
    (tokens: Tokens, profile: Profile) => {
      writeTokens(tokens);
      writeUser(profile.accountType, profile.id);
      queryClient.clear();
      queryClient.setQueryData(PROFILE_QUERY_KEY, profile);
      setBlocked(null);
      setUser({ accountType: profile.accountType as AccountType, uid: profile.id });
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    await Promise.all(
      [...beforeSignOut].map((fn) =>
        Promise.race([fn(), new Promise((r) => setTimeout(r, 3000))]).catch((err: unknown) => console.warn('before sign-out', err)),
      ),
    );
    try {
      // the server revokes the session and clears the HttpOnly refresh cookie
      // eslint-disable-next-line no-restricted-syntax -- session layer: sign-out must clear the local session even when this fails
      await unwrap(masar.POST('/api/v1/account/logout', { body: { ...deviceInfo() } }));
    } catch {
      // The server may already consider the session gone; the local sign-out must still happen.
    }
    dropLocal();
    setBlocked(null);
    void navigate('/', { replace: true });
  }, [dropLocal, navigate]);

  const refreshProfile = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
  }, [queryClient]);

  const value = useMemo<SessionValue>(
    () => ({
      profile: user ? profileQuery.data : undefined,
      profileLoading: user !== null && profileQuery.isLoading,
      profileError: user !== null && profileQuery.isError,
      accountType: user?.accountType ?? null,
      uid: user?.uid ?? null,
      isGuest: user === null,
      isSignedIn: user !== null,
      blocked,
      signIn,
      signOut,
      refreshProfile,
    }),
    [user, profileQuery.data, profileQuery.isLoading, profileQuery.isError, blocked, signIn, signOut, refreshProfile],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session: who is signed in, their profile, and sign-in/out. Use inside <SessionProvider>. */
export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession must be used inside <SessionProvider>');
  return v;
}

/** Path under the signed-in user's own role prefix, e.g. rolePath(2, 'offers') → /carriers/offers. */
export function rolePath(accountType: AccountType | null, section: string): string {
  return accountType ? `${ROLE_PREFIX[accountType]}/${section}` : '/';
}
