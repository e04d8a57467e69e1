import { PROFILE_STATUS, type AccountType, type Profile, type SignInBody, type Tokens } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../../lib/password.ts';
import * as repo from '../auth.repository.ts';
import { checkOtp, closeGuestSession, consumeOtpOrFail, issueSession, loadProfile, type RequestMeta } from '../auth.shared.ts';
import type { AuthUseCaseDeps } from '../deps.ts';

export type SignInDeps = Pick<AuthUseCaseDeps, 'db' | 'config' | 'now'>;

/** Sliding window of the wrong-password throttle (config LOGIN_MAX_FAILED_PER_15MIN). */
const LOGIN_THROTTLE_WINDOW_MS = 15 * 60_000;

// Verifying against a real hash for unknown phones keeps the timing the same (no enumeration).
let dummyHash: Promise<string> | undefined;

function assertCanSignIn(u: repo.UserRow) {
  if (u.status === PROFILE_STATUS.suspended) throw new AppError('ACCOUNT_SUSPENDED');
  if (u.status === PROFILE_STATUS.deleted) throw new AppError('ACCOUNT_DELETED');
}

/** Sign in by password: the unknown-phone timing, the wrong-password throttle, then a new session. */
async function signInWithPassword(
  deps: SignInDeps,
  body: Extract<SignInBody, { password: string }>,
  meta: RequestMeta,
): Promise<{ user: repo.UserRow; token: Tokens }> {
  const { db, config, now } = deps;
  const user = await repo.findUserByPhone(db, body.phone);
  if (!user) {
    dummyHash ??= hashPassword('Dummy-password!');
    await verifyPassword(await dummyHash, body.password);
    throw new AppError('INVALID_CREDENTIALS');
  }
  const t = now();
  const windowStart = new Date(t.getTime() - LOGIN_THROTTLE_WINDOW_MS);
  const max = config.LOGIN_MAX_FAILED_PER_15MIN;
  if (max > 0 && user.failedLogins >= max && user.failedLoginWindowAt && user.failedLoginWindowAt > windowStart)
    throw new AppError('TOO_MANY_PASSWORD_ATTEMPTS');
  if (!(await verifyPassword(user.passwordHash, body.password))) {
    if (max > 0) await repo.recordFailedLogin(db, user.id, t, windowStart);
    throw new AppError('INVALID_CREDENTIALS');
  }
  assertCanSignIn(user);
  if (user.failedLogins > 0) await repo.clearFailedLogins(db, user.id);
  const token = await issueSession(deps, db, { userId: user.id, accountType: user.accountType as AccountType, device: meta.device });
  return { user, token };
}

/** Sign in by a login OTP: checked, then used up in the transaction that opens the session. */
async function signInWithOtp(
  deps: SignInDeps,
  body: Exclude<SignInBody, { password: string }>,
  meta: RequestMeta,
): Promise<{ user: repo.UserRow; token: Tokens }> {
  const { db } = deps;
  await checkOtp(deps, body.otpId, body.phone, 'login', body.otp);
  const u = await repo.findUserByPhone(db, body.phone);
  if (!u) throw new AppError('NOT_REGISTERED');
  assertCanSignIn(u);
  const token = await db.transaction(async (tx) => {
    await consumeOtpOrFail(deps, tx, body.otpId);
    return issueSession(deps, tx, { userId: u.id, accountType: u.accountType as AccountType, device: meta.device });
  });
  return { user: u, token };
}

/**
 * POST /account/signIn by password (INVALID_CREDENTIALS for a wrong password or an unknown
 * phone alike) or by a login OTP. Suspended/deleted accounts get 403.
 */
export async function signIn(deps: SignInDeps, body: SignInBody, meta: RequestMeta): Promise<{ token: Tokens; profile: Profile }> {
  const { user, token } = 'password' in body ? await signInWithPassword(deps, body, meta) : await signInWithOtp(deps, body, meta);
  await closeGuestSession(deps, meta);
  return { token, profile: await loadProfile(deps, user.id, meta.lang) };
}
