/**
 * Client-stored keys (spec §3) and the cookie helpers behind them. Account type and user id
 * live in cookies for 30 days (spec §9); theme and the device id in local storage; the language
 * in a cookie mirrored to local storage (see i18n/index.ts). Tokens are not stored by script
 * (issue 6): the access token is kept in memory, the refresh token in the server's HttpOnly
 * cookie.
 */
export const KEYS = {
  token: 'token',
  refreshToken: 'refreshToken',
  accessExpireAt: 'accessExpireAt',
  userType: 'userType',
  uid: 'uid',
  theme: 'theme',
  language: 'language',
  deviceId: 'deviceId',
  /** Web push (spec §3): this browser's push subscription endpoint, set once push is enabled here. */
  fcmToken: 'fcmToken',
  /** Web push: the topics (JSON list) this browser is subscribed to on the server. */
  fcmSubscribedIds: 'fcmSubscribedIds',
} as const;

/** Spec §9: tokens and account type are kept 30 days. */
export const TOKEN_COOKIE_DAYS = 30;

export function getCookie(name: string): string | null {
  const m = new RegExp(`(?:^|; )${name}=([^;]*)`).exec(document.cookie);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

export function setCookie(name: string, value: string, days = TOKEN_COOKIE_DAYS) {
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${Math.round(days * 86400)}; samesite=lax${secure}`;
}

export function deleteCookie(name: string) {
  document.cookie = `${name}=; path=/; max-age=0; samesite=lax`;
}

/** Stored tokens plus who they belong to (userType/uid only for signed-in users). */
export interface StoredSession {
  token: string | null;
  refreshToken: string | null;
  accessExpireAt: string | null;
  userType: number | null;
  uid: string | null;
}

/** The access token of this page, in memory only: never in a cookie or storage a script could read later. */
const memory: { token: string | null; accessExpireAt: string | null } = { token: null, accessExpireAt: null };

export function readStoredSession(): StoredSession {
  const userType = Number(getCookie(KEYS.userType));
  return {
    token: memory.token,
    refreshToken: null,
    accessExpireAt: memory.accessExpireAt,
    userType: [1, 2, 3].includes(userType) ? userType : null,
    uid: getCookie(KEYS.uid),
  };
}

/** Keep the access token in memory (the refresh token is the server's HttpOnly cookie). */
export function writeTokens(t: { accessToken: string; accessExpireAt: string; refreshToken?: string }) {
  memory.token = t.accessToken;
  memory.accessExpireAt = t.accessExpireAt;
}

export function writeUser(userType: number, uid: string) {
  setCookie(KEYS.userType, String(userType));
  setCookie(KEYS.uid, uid);
}

export function clearTokens() {
  memory.token = null;
  memory.accessExpireAt = null;
  // also drops the script-readable token cookies that earlier versions kept
  for (const k of [KEYS.token, KEYS.refreshToken, KEYS.accessExpireAt, KEYS.userType, KEYS.uid]) deleteCookie(k);
}

/**
 * Logout (spec §4): clear cookies and local storage, keeping the language (cookie + storage)
 * and — as device preferences, not account data — the theme and the device id.
 */
export function clearEverything() {
  const keep = [KEYS.language, KEYS.theme, KEYS.deviceId] as string[];
  for (const c of document.cookie.split('; ')) {
    const name = c.split('=')[0];
    if (name && !keep.includes(name)) deleteCookie(name);
  }
  const saved = keep.map((k) => [k, localStorage.getItem(k)] as const);
  localStorage.clear();
  for (const [k, v] of saved) if (v !== null) localStorage.setItem(k, v);
}
