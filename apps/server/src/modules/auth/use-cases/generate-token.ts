import { decodeJwt } from 'jose';
import { PROFILE_STATUS, type AccountType, type Tokens } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { verifyAccessToken } from '../../../lib/tokens.ts';
import * as repo from '../auth.repository.ts';
import { issueSession, sha256 } from '../auth.shared.ts';
import type { AuthUseCaseDeps } from '../deps.ts';

export type GenerateTokenDeps = Pick<AuthUseCaseDeps, 'db' | 'config' | 'now'>;

/** Answer of /generateToken: either "keep your access token" (407) or a rotated token pair. */
export type GenerateTokenResult = { kept: true; accessToken: string; accessExpireAt: string } | { kept: false; token: Tokens };

/**
 * POST /generateToken. A still-valid access token of this session is kept (407 answer);
 * otherwise the refresh token is rotated (single use). A retired (already rotated) refresh
 * token revokes its whole family: someone else has a copy.
 */
export async function generateToken(deps: GenerateTokenDeps, refToken: string, accessToken: string | undefined): Promise<GenerateTokenResult> {
  const { db, config, now } = deps;
  const s = await repo.findSessionByRefreshHash(db, sha256(refToken));
  if (!s || s.revokedAt) throw new AppError('UNAUTHORIZED');
  const t = now();
  // Rotated moments ago: the holder most likely never received that rotation's answer (a
  // reload or a navigation cancelled the request after the server had answered), so it is
  // still holding this token. Answer with a new token of the family, as Auth0's "reuse
  // interval" and Okta's grace period do; later, reuse is theft.
  const inGrace = (rotatedAt: Date) => t.getTime() - rotatedAt.getTime() <= config.REFRESH_REUSE_GRACE_SECONDS * 1000;
  if (s.rotatedAt && !inGrace(s.rotatedAt)) {
    await repo.revokeFamily(db, s.familyId, t);
    throw new AppError('UNAUTHORIZED');
  }
  if (s.expiresAt.getTime() <= t.getTime()) throw new AppError('UNAUTHORIZED');
  let accountType: AccountType | null = null;
  if (s.userId) {
    const u = await repo.findUserById(db, s.userId);
    if (!u || u.status === PROFILE_STATUS.deleted) {
      await repo.revokeFamily(db, s.familyId, t);
      throw new AppError('UNAUTHORIZED');
    }
    accountType = u.accountType as AccountType;
  }
  if (accessToken) {
    const v = await verifyAccessToken(accessToken, config.jwtSecret);
    if (v.ok && v.claims.sid === s.id) {
      const exp = decodeJwt(accessToken).exp ?? 0;
      return { kept: true, accessToken, accessExpireAt: new Date(exp * 1000).toISOString() };
    }
  }
  const token = await db.transaction(async (tx) => {
    // A fresh token is retired here: of concurrent rotations exactly one retires it. Any other
    // (a token retired moments ago, or the loser of that race) re-reads its row under lock and
    // gets a sibling while still in the interval; a logout since then leaves it nothing.
    if (s.rotatedAt || !(await repo.markRotated(tx, s.id, t))) {
      const rotatedAt = await repo.lockRotatedAt(tx, s.id);
      if (!rotatedAt || !inGrace(rotatedAt)) return null;
    }
    return issueSession(deps, tx, { userId: s.userId, accountType, familyId: s.familyId, device: s.device as Record<string, unknown> });
  });
  if (!token) {
    // revoked meanwhile, or the interval is off and another rotation won: reuse
    await repo.revokeFamily(db, s.familyId, t);
    throw new AppError('UNAUTHORIZED');
  }
  return { kept: false, token };
}
