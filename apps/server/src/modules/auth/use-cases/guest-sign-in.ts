import type { Tokens } from '@masar/shared';
import { issueSession } from '../auth.shared.ts';
import type { AuthUseCaseDeps } from '../deps.ts';

export type GuestSignInDeps = Pick<AuthUseCaseDeps, 'db' | 'config' | 'now'>;

/** POST /guest/signIn: a session without a user, and a guest access token. */
export async function guestSignIn(deps: GuestSignInDeps, device: Record<string, unknown>): Promise<Tokens> {
  return issueSession(deps, deps.db, { userId: null, accountType: null, device });
}
