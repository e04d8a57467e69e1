import * as repo from '../auth.repository.ts';
import type { AuthUseCaseDeps } from '../deps.ts';

export type LogoutDeps = Pick<AuthUseCaseDeps, 'db' | 'now'>;

/** POST /account/logout: revoke the caller's session family, keeping the device info sent. */
export async function logout({ db, now }: LogoutDeps, sessionId: string, info: Record<string, unknown>): Promise<void> {
  const s = await repo.findSession(db, sessionId);
  if (!s) return;
  // never keep a live credential in the audit record
  const { refToken: _drop, ...logoutInfo } = info;
  await repo.revokeFamily(db, s.familyId, now(), { ...logoutInfo, at: now().toISOString() });
}
