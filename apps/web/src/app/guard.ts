/**
 * The route guard of spec §2 as a pure function, run on every route change.
 *
 * - A signed-in user with an account type may only open paths beginning with /carriers/,
 *   /shippers/, /brokers/, /vendor, /driver or /reset-password; any other path (home, login,
 *   signup, unknown paths…) goes to the landing page of the type: carrier → load search,
 *   shipper → my loads, broker → broker my loads, otherwise home. The dashboard and account
 *   page follow the type (a shipper opening /carriers/account lands on /shippers/account).
 * - A guest opening a signed-in page goes home; when the link came from an e-mail
 *   (?trigger=email) under a carrier, shipper or broker path, an alert says so first.
 */
import { ROLE_LANDING } from '@masar/shared';

export type Access = 'public' | 'guest' | 'user';

export interface GuardSession {
  isSignedIn: boolean;
  accountType: number | null;
}

export interface Redirect {
  to: string;
  /** show the "you are not signed in" alert */
  alert?: 'notSignedIn';
}

const LANDING: Record<number, string> = ROLE_LANDING;
const PREFIX: Record<number, string> = { 1: '/shippers', 2: '/carriers', 3: '/brokers' };
const SIGNED_IN_PREFIXES = ['/carriers/', '/shippers/', '/brokers/', '/vendor', '/driver', '/reset-password'];
const ROLE_PATH = /^\/(carriers|shippers|brokers)\//;
/** Sections that exist once per type and follow the user's type (spec §2). */
const TYPED_SECTIONS = new Set(['account', 'dashboard', 'pricing', 'checkout', 'billing-and-invoice', 'profile-approval']);

export function landingOf(accountType: number | null): string {
  return (accountType && LANDING[accountType]) || '/';
}

/**
 * @param path     location pathname
 * @param search   location search (with or without "?")
 * @param session  who is signed in
 * @param access   access of the matched route, when known (undefined: no route matched)
 * @returns where to go instead, or null to stay
 */
export function guard(path: string, search: string, session: GuardSession, access?: Access): Redirect | null {
  if (session.isSignedIn) {
    const type = session.accountType;
    if (!type || !LANDING[type]) return path === '/' ? null : { to: '/' };
    if (!SIGNED_IN_PREFIXES.some((p) => path.startsWith(p))) return { to: landingOf(type) };
    const m = /^\/(carriers|shippers|brokers)\/([^/]+)\/?$/.exec(path);
    if (m && TYPED_SECTIONS.has(m[2]) && `/${m[1]}` !== PREFIX[type]) return { to: `${PREFIX[type]}/${m[2]}` };
    return null;
  }
  const protectedPath = access === 'user' || ROLE_PATH.test(path);
  if (!protectedPath) return null;
  const fromEmail = new URLSearchParams(search).get('trigger') === 'email' && ROLE_PATH.test(path);
  return fromEmail ? { to: '/', alert: 'notSignedIn' } : { to: '/' };
}
