import { useLocation } from 'react-router';
import { ACCOUNT_TYPE } from '@masar/shared';
import { useSession } from '../lib/session';

/** Who is looking: the app shell's session (signed-in profile and account type, or a guest). */
export function useViewer() {
  const s = useSession();
  return { profile: s.profile ?? null, accountType: s.accountType, isSignedIn: s.isSignedIn, isLoading: s.profileLoading };
}

const PREFIX_BY_TYPE: Record<number, string> = { [ACCOUNT_TYPE.shipper]: '/shippers', [ACCOUNT_TYPE.carrier]: '/carriers', [ACCOUNT_TYPE.broker]: '/brokers' };

/**
 * The role prefix of the current screen ("/shippers", "/carriers", "/brokers"): from the URL
 * under a role path, else from the account type, else "".
 */
export function useRoleBase(accountType?: number | null) {
  const { pathname } = useLocation();
  const m = /^\/(shippers|carriers|brokers)(\/|$)/.exec(pathname);
  if (m) return `/${m[1]}`;
  return accountType ? (PREFIX_BY_TYPE[accountType] ?? '') : '';
}

/** Paths of the load board screens per role prefix (spec §2 routes). */
export const rolePaths = (base: string) => ({
  search: base === '/shippers' ? '/shippers/search-shipments' : `${base}/load-search`,
  myLoads: base === '/carriers' ? '/carriers/my-shipments' : `${base}/my-loads`,
  postLoad: `${base}/post-load`,
  load: (id: string) => `${base}/loads/${id}`,
  offers: `${base}/offers`,
  canPost: base === '/shippers' || base === '/brokers',
});
