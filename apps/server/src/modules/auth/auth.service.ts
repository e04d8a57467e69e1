import type { Language, OtpPurpose, SignInBody, SignUpBody, UpdateProfileBody } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import * as repo from './auth.repository.ts';
import { loadProfile, type RequestMeta } from './auth.shared.ts';
import type { AuthDeps, AuthUseCaseDeps } from './deps.ts';
import { changePassword } from './use-cases/change-password.ts';
import { generateToken } from './use-cases/generate-token.ts';
import { guestSignIn } from './use-cases/guest-sign-in.ts';
import { logout } from './use-cases/logout.ts';
import { resetPassword } from './use-cases/reset-password.ts';
import { sendOtp } from './use-cases/send-otp.ts';
import { signIn } from './use-cases/sign-in.ts';
import { signUp } from './use-cases/sign-up.ts';
import { updateProfile } from './use-cases/update-profile.ts';

export type { AuthDeps } from './deps.ts';
export type { RequestMeta } from './auth.shared.ts';
export type { GenerateTokenResult } from './use-cases/generate-token.ts';
export { otpSmsText } from './use-cases/send-otp.ts';

/**
 * Accounts and sessions (spec §2, §4, §5, §7, §8; issue 2): guest sign-in, OTP by SMS, sign-up,
 * sign-in by password or OTP, rotating refresh tokens with reuse detection, logout, password
 * change and reset, the profile. No HTTP here; SQL lives in auth.repository.ts; each rule in its
 * use case (use-cases/*.ts), what they share (sessions, OTP checks, the profile) in auth.shared.ts.
 */
export function createAuthService(deps: AuthDeps) {
  const d: AuthUseCaseDeps = { ...deps, now: deps.now ?? (() => new Date()) };
  return {
    /** POST /guest/signIn (use-cases/guest-sign-in.ts). */
    guestSignIn: (device: Record<string, unknown>) => guestSignIn(d, device),
    /** POST /account/sendOtp (use-cases/send-otp.ts). */
    sendOtp: (phone: string, purpose: OtpPurpose, meta: RequestMeta) => sendOtp(d, phone, purpose, meta),
    /** POST /account/signUp (use-cases/sign-up.ts). */
    signUp: (body: SignUpBody, meta: RequestMeta) => signUp(d, body, meta),
    /** POST /account/signIn (use-cases/sign-in.ts). */
    signIn: (body: SignInBody, meta: RequestMeta) => signIn(d, body, meta),
    /** POST /generateToken (use-cases/generate-token.ts). */
    generateToken: (refToken: string, accessToken: string | undefined) => generateToken(d, refToken, accessToken),
    /** POST /account/logout (use-cases/logout.ts). */
    logout: (sessionId: string, info: Record<string, unknown>) => logout(d, sessionId, info),
    /** POST /account/changePassword (use-cases/change-password.ts). */
    changePassword: (userId: string, sessionId: string, oldPassword: string, newPassword: string) =>
      changePassword(d, userId, sessionId, oldPassword, newPassword),
    /** POST /account/resetPassword (use-cases/reset-password.ts). */
    resetPassword: (phone: string, otpId: string, otp: string, newPassword: string) => resetPassword(d, phone, otpId, otp, newPassword),
    /** GET /accountDetails (loadProfile in auth.shared.ts). */
    profile: (userId: string, lang: Language) => loadProfile(d, userId, lang),
    /** PATCH /account (use-cases/update-profile.ts). */
    updateProfile: (userId: string, patch: UpdateProfileBody, lang: Language) => updateProfile(d, userId, patch, lang),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

/**
 * What the auth plugin asks on every request (issue 6: SQL only in repositories): the current
 * user with the liveness of the token's session, and the liveness alone for routes that take
 * any token.
 */
export function createSessionChecks(db: Db) {
  return {
    currentUser: (userId: string, sessionId?: string) => repo.loadCurrentUser(db, userId, sessionId),
    sessionLive: (sessionId: string) => repo.sessionLive(db, sessionId),
    /** null when the session is revoked; else the active team membership its user acts under (issue 8). */
    sessionActing: (sessionId: string) => repo.sessionActing(db, sessionId),
    /** Of `ids`, the sessions a real-time connection may keep (issue 21): live, user not suspended or deleted. */
    liveSessionIds: (ids: readonly string[]) => repo.liveSessionIds(db, ids),
    /** The user's active team membership (owner, role), or undefined: who an API key made by a member acts under (issue 22). */
    membershipOf: (userId: string) => repo.activeMembership(db, userId),
  };
}
export type SessionChecks = ReturnType<typeof createSessionChecks>;

/**
 * Cleanup of used and expired one-time codes and ended sessions (the daily 'auth.cleanup' job).
 * Rows stay a day after they end, for support questions ("I never got the code").
 */
export async function cleanupAuth(db: Db, now = new Date()): Promise<{ otps: number; sessions: number }> {
  const before = new Date(now.getTime() - 24 * 3_600_000);
  return { otps: await repo.deleteEndedOtps(db, before), sessions: await repo.deleteEndedSessions(db, before) };
}

/** Revoke every live session of `userId` inside the caller's transaction (a removed team member, issue 8). Returns how many. */
export async function revokeSessionsOf(tx: DbOrTx, userId: string, now = new Date()): Promise<number> {
  return repo.revokeUserSessions(tx, userId, now);
}
