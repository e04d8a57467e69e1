import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { decodeJwt } from 'jose';
import {
  LIMITS,
  PROFILE_STATUS,
  type AccountType,
  type Language,
  type OtpPurpose,
  type Profile,
  type SignInBody,
  type SignUpBody,
  type Tokens,
  type UpdateProfileBody,
} from '@masar/shared';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { SmsGateway } from '../../gateways/sms/sms.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { signAccessToken, verifyAccessToken } from '../../lib/tokens.ts';
import * as repo from './auth.repository.ts';

/** What the HTTP layer knows about the caller: client IP, answer language, device details. */
export interface RequestMeta {
  ip: string;
  lang: Language;
  device?: Record<string, unknown>;
  /** The guest session the caller signed in from, if any: closed once the user is signed in. */
  guestSessionId?: string;
}

export interface AuthDeps {
  db: Db;
  config: Pick<
    Config,
    | 'jwtSecret'
    | 'ACCESS_TOKEN_TTL_SECONDS'
    | 'REFRESH_TOKEN_TTL_DAYS'
    | 'REFRESH_REUSE_GRACE_SECONDS'
    | 'OTP_RATE_PER_PHONE_PER_MIN'
    | 'OTP_RATE_PER_PHONE_PER_HOUR'
    | 'OTP_RATE_PER_IP_PER_10MIN'
    | 'LOGIN_MAX_FAILED_PER_15MIN'
  >;
  sms: SmsGateway;
  /** The service's clock (OTP expiry, rate windows, session times). Defaults to the system clock. */
  now?: () => Date;
}

/** Answer of /generateToken: either "keep your access token" (407) or a rotated token pair. */
export type GenerateTokenResult = { kept: true; accessToken: string; accessExpireAt: string } | { kept: false; token: Tokens };

const STATUS_TEXT: Record<number, { en: string; ar: string }> = {
  [PROFILE_STATUS.pending]: { en: 'Pending approval', ar: 'بانتظار الموافقة' },
  [PROFILE_STATUS.approved]: { en: 'Approved', ar: 'تمت الموافقة' },
  [PROFILE_STATUS.suspended]: { en: 'Suspended', ar: 'موقوف' },
  [PROFILE_STATUS.deleted]: { en: 'Deleted', ar: 'محذوف' },
  [PROFILE_STATUS.rejected]: { en: 'Rejected', ar: 'مرفوض' },
};

/** Text of the OTP SMS (spec §5: 4 digits by phone), in the language the client asked for. */
export function otpSmsText(code: string, lang: Language): string {
  const minutes = LIMITS.otpTtlMs / 60_000;
  return lang === 'ar'
    ? `مسار: رمز التحقق الخاص بك هو ${code}. صالح لمدة ${minutes} دقائق. لا تشاركه مع أحد.`
    : `Masar: your verification code is ${code}. It expires in ${minutes} minutes. Do not share it.`;
}

/** Sliding window of the wrong-password throttle (config LOGIN_MAX_FAILED_PER_15MIN). */
const LOGIN_THROTTLE_WINDOW_MS = 15 * 60_000;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Name of the unique index a write violated (PostgreSQL 23505), on node-postgres and PGlite. */
function uniqueViolation(e: unknown): string | null {
  for (
    let c = e as { code?: string; constraint?: string; detail?: string; message?: string; cause?: unknown } | undefined, i = 0;
    c && i < 5;
    c = c.cause as typeof c, i++
  ) {
    if (c.code === '23505') return `${c.constraint ?? ''} ${c.detail ?? ''} ${c.message ?? ''}`;
  }
  return null;
}

function rethrowUnique(e: unknown): never {
  const v = uniqueViolation(e);
  if (v?.includes('email')) throw new AppError('EMAIL_EXISTS');
  if (v?.includes('phone')) throw new AppError('PHONE_EXISTS');
  throw e;
}

/**
 * Accounts and sessions (spec §2, §4, §5, §7, §8; issue 2): guest sign-in, OTP by SMS, sign-up,
 * sign-in by password or OTP, rotating refresh tokens with reuse detection, logout, password
 * change and reset, the profile. No HTTP here; SQL lives in auth.repository.ts.
 *
 * Refresh tokens: 32 random bytes (base64url), stored as SHA-256 in `sessions.refresh_hash`. Each
 * rotation retires the row (rotated_at) and adds a new row to the same family; presenting a
 * retired token again is treated as theft and revokes the whole family, except within
 * REFRESH_REUSE_GRACE_SECONDS of its rotation (a lost answer, not a copy: see generateToken).
 */
export function createAuthService(deps: AuthDeps) {
  const { db, config, sms } = deps;
  const now = deps.now ?? (() => new Date());
  const maxAttempts = LIMITS.otpMaxAttempts;
  // Verifying against a real hash for unknown phones keeps the timing the same (no enumeration).
  let dummyHash: Promise<string> | undefined;

  const otpHash = (otpId: string, code: string) => createHmac('sha256', config.jwtSecret).update(`${otpId}:${code}`).digest('hex');

  async function issueSession(
    tx: DbOrTx,
    opts: { userId: string | null; accountType: AccountType | null; familyId?: string; device?: Record<string, unknown> },
  ): Promise<Tokens> {
    const id = newId();
    const refreshToken = randomBytes(32).toString('base64url');
    const t = now();
    await repo.insertSession(tx, {
      id,
      familyId: opts.familyId ?? id,
      userId: opts.userId,
      refreshHash: sha256(refreshToken),
      device: opts.device ?? {},
      createdAt: t,
      expiresAt: new Date(t.getTime() + config.REFRESH_TOKEN_TTL_DAYS * 86_400_000),
    });
    const access = await signAccessToken(
      opts.userId ? { sub: opts.userId, sid: id, typ: 'user', at: opts.accountType ?? undefined } : { sub: id, sid: id, typ: 'guest' },
      config.jwtSecret,
      config.ACCESS_TOKEN_TTL_SECONDS,
    );
    return { accessToken: access.token, refreshToken, accessExpireAt: access.expiresAt };
  }

  function toProfile(u: repo.UserRow, activeSubscriptionId: string | null, firstLoginAfterApproval: boolean, lang: Language): Profile {
    const text = STATUS_TEXT[u.status] ?? { en: String(u.status), ar: String(u.status) };
    return {
      id: u.id,
      accountType: u.accountType,
      firstName: u.firstName,
      lastName: u.lastName,
      companyName: u.companyName,
      email: u.email,
      phone: u.phone,
      status: u.status,
      statusText: text[lang],
      isFirstTimeApproved: u.isFirstTimeApproved,
      isFirstTimeLoginAfterApproved: firstLoginAfterApproval,
      accountsDetails: {
        status: u.status,
        accountType: u.accountType,
        isFirstTimeApproved: u.isFirstTimeApproved,
        isFirstTimeLoginAfterApproved: firstLoginAfterApproval,
      },
      activeSubscriptionId,
      mqttTopic: `masar/u/${u.id}`,
      fcmTopic: `user_${u.id}`,
      createdAt: u.createdAt.toISOString(),
    };
  }

  /**
   * The profile as the client sees it. "First login after approval" (spec §4) is reported true
   * exactly once — by whichever profile answer comes first after the approval — then cleared.
   */
  /**
   * The profile answered by sign-in, sign-up and GET /accountDetails. A team member's is the
   * owner's account they act for (its type decides the web app's section), with `team` (issue 8).
   */
  async function loadProfile(userId: string, lang: Language): Promise<Profile> {
    const m = await repo.activeMembership(db, userId);
    if (m) {
      const o = await repo.findUserById(db, m.ownerId);
      if (!o) throw new AppError('UNAUTHORIZED');
      const p = toProfile(o, await repo.activeSubscriptionId(db, o.id), false, lang);
      return { ...p, team: { memberId: m.id, role: m.role, memberName: m.name } };
    }
    const u = await repo.findUserById(db, userId);
    if (!u) throw new AppError('UNAUTHORIZED');
    const first = u.isFirstTimeLoginAfterApproved ? await repo.takeFirstLoginAfterApproval(db, u.id) : false;
    return toProfile(first ? { ...u, isFirstTimeLoginAfterApproved: false } : u, await repo.activeSubscriptionId(db, u.id), first, lang);
  }

  function assertCanSignIn(u: repo.UserRow) {
    if (u.status === PROFILE_STATUS.suspended) throw new AppError('ACCOUNT_SUSPENDED');
    if (u.status === PROFILE_STATUS.deleted) throw new AppError('ACCOUNT_DELETED');
  }

  /**
   * Check an OTP without using it up. A wrong code counts an attempt (outside any transaction,
   * so a later rollback cannot undo it); at `LIMITS.otpMaxAttempts` wrong codes the OTP is dead.
   * The caller then consumes it with repo.consumeOtp inside its own transaction.
   */
  async function checkOtp(otpId: string, phone: string, purpose: OtpPurpose, code: string): Promise<void> {
    const otp = await repo.findOtp(db, otpId);
    if (!otp || otp.phone !== phone || otp.purpose !== purpose || otp.consumedAt) throw new AppError('INVALID_OTP');
    if (otp.attempts >= maxAttempts) throw new AppError('OTP_ATTEMPTS_EXCEEDED');
    if (otp.expiresAt.getTime() <= now().getTime()) throw new AppError('OTP_EXPIRED');
    const expected = Buffer.from(otp.codeHash, 'hex');
    const given = Buffer.from(otpHash(otp.id, code), 'hex');
    if (expected.length === given.length && timingSafeEqual(expected, given)) return;
    const attempts = await repo.addOtpAttempt(db, otp.id);
    throw new AppError(attempts >= maxAttempts ? 'OTP_ATTEMPTS_EXCEEDED' : 'INVALID_OTP');
  }

  async function consumeOtpOrFail(tx: DbOrTx, otpId: string) {
    if (!(await repo.consumeOtp(tx, otpId, now(), maxAttempts))) throw new AppError('INVALID_OTP');
  }

  /** A guest who signs in or up no longer needs the guest session: revoke it (guests only). */
  async function closeGuestSession(meta: RequestMeta) {
    if (!meta.guestSessionId) return;
    const s = await repo.findSession(db, meta.guestSessionId);
    if (s && !s.userId) await repo.revokeFamily(db, s.familyId, now());
  }

  async function enforceOtpRateLimits(phone: string, ip: string) {
    const t = now().getTime();
    const checks: [number, () => Promise<number>][] = [
      [config.OTP_RATE_PER_PHONE_PER_MIN, () => repo.countOtpsForPhone(db, phone, new Date(t - 60_000))],
      [config.OTP_RATE_PER_PHONE_PER_HOUR, () => repo.countOtpsForPhone(db, phone, new Date(t - 3_600_000))],
      [config.OTP_RATE_PER_IP_PER_10MIN, () => repo.countOtpsForIp(db, ip, new Date(t - 600_000))],
    ];
    for (const [max, countSent] of checks) {
      if (max > 0 && (await countSent()) >= max) throw new AppError('RATE_LIMITED');
    }
  }

  return {
    /** POST /guest/signIn: a session without a user, and a guest access token. */
    async guestSignIn(device: Record<string, unknown>): Promise<Tokens> {
      return issueSession(db, { userId: null, accountType: null, device });
    },

    /**
     * POST /account/sendOtp: a 4-digit code by SMS, valid 5 minutes (spec §5, §9).
     * signup needs an unregistered phone (PHONE_EXISTS), login/reset a registered one
     * (NOT_REGISTERED). Rate-limited per phone and per IP (RATE_LIMITED).
     */
    async sendOtp(phone: string, purpose: OtpPurpose, meta: RequestMeta): Promise<{ otpId: string }> {
      const user = await repo.findUserByPhone(db, phone);
      if (purpose === 'signup' && user) throw new AppError('PHONE_EXISTS');
      if (purpose !== 'signup' && !user) throw new AppError('NOT_REGISTERED');
      await enforceOtpRateLimits(phone, meta.ip);
      const id = newId();
      const code = String(randomInt(0, 10 ** LIMITS.otpDigits)).padStart(LIMITS.otpDigits, '0');
      const t = now();
      await repo.insertOtp(db, {
        id,
        phone,
        purpose,
        codeHash: otpHash(id, code),
        expiresAt: new Date(t.getTime() + LIMITS.otpTtlMs),
        ip: meta.ip,
        createdAt: t,
      });
      try {
        await sms.send(phone, otpSmsText(code, meta.lang));
      } catch {
        throw new AppError('SMS_SEND_FAILED');
      }
      return { otpId: id };
    },

    /**
     * POST /account/signUp: verify the signup OTP, create the account (pending, not first
     * approved) and sign in — one transaction.
     */
    async signUp(body: SignUpBody, meta: RequestMeta): Promise<{ token: Tokens; profile: Profile }> {
      if (await repo.findUserByPhone(db, body.phone)) throw new AppError('PHONE_EXISTS');
      if (await repo.emailTaken(db, body.email)) throw new AppError('EMAIL_EXISTS');
      await checkOtp(body.otpId, body.phone, 'signup', body.otp);
      const passwordHash = await hashPassword(body.password);
      const id = newId();
      const t = now();
      let token: Tokens;
      try {
        token = await db.transaction(async (tx) => {
          await consumeOtpOrFail(tx, body.otpId);
          await repo.insertUser(tx, {
            id,
            accountType: body.accountType,
            firstName: body.firstName,
            lastName: body.lastName,
            companyName: body.companyName,
            email: body.email,
            phone: body.phone,
            passwordHash,
            status: PROFILE_STATUS.pending,
            isFirstTimeApproved: false,
            isFirstTimeLoginAfterApproved: false,
            language: meta.lang,
            createdAt: t,
            updatedAt: t,
          });
          return issueSession(tx, { userId: id, accountType: body.accountType, device: meta.device });
        });
      } catch (e) {
        rethrowUnique(e);
      }
      await closeGuestSession(meta);
      return { token, profile: await loadProfile(id, meta.lang) };
    },

    /**
     * POST /account/signIn by password (INVALID_CREDENTIALS for a wrong password or an unknown
     * phone alike) or by a login OTP. Suspended/deleted accounts get 403.
     */
    async signIn(body: SignInBody, meta: RequestMeta): Promise<{ token: Tokens; profile: Profile }> {
      let user: repo.UserRow | undefined;
      let token: Tokens;
      if ('password' in body) {
        user = await repo.findUserByPhone(db, body.phone);
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
        token = await issueSession(db, { userId: user.id, accountType: user.accountType as AccountType, device: meta.device });
      } else {
        await checkOtp(body.otpId, body.phone, 'login', body.otp);
        const u = await repo.findUserByPhone(db, body.phone);
        if (!u) throw new AppError('NOT_REGISTERED');
        assertCanSignIn(u);
        user = u;
        token = await db.transaction(async (tx) => {
          await consumeOtpOrFail(tx, body.otpId);
          return issueSession(tx, { userId: u.id, accountType: u.accountType as AccountType, device: meta.device });
        });
      }
      await closeGuestSession(meta);
      return { token, profile: await loadProfile(user.id, meta.lang) };
    },

    /**
     * POST /generateToken. A still-valid access token of this session is kept (407 answer);
     * otherwise the refresh token is rotated (single use). A retired (already rotated) refresh
     * token revokes its whole family: someone else has a copy.
     */
    async generateToken(refToken: string, accessToken: string | undefined): Promise<GenerateTokenResult> {
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
        return issueSession(tx, { userId: s.userId, accountType, familyId: s.familyId, device: s.device as Record<string, unknown> });
      });
      if (!token) {
        // revoked meanwhile, or the interval is off and another rotation won: reuse
        await repo.revokeFamily(db, s.familyId, t);
        throw new AppError('UNAUTHORIZED');
      }
      return { kept: false, token };
    },

    /** POST /account/logout: revoke the caller's session family, keeping the device info sent. */
    async logout(sessionId: string, info: Record<string, unknown>): Promise<void> {
      const s = await repo.findSession(db, sessionId);
      if (!s) return;
      // never keep a live credential in the audit record
      const { refToken: _drop, ...logoutInfo } = info;
      await repo.revokeFamily(db, s.familyId, now(), { ...logoutInfo, at: now().toISOString() });
    },

    /** POST /account/changePassword: WRONG_PASSWORD; signs out every other session. */
    async changePassword(userId: string, sessionId: string, oldPassword: string, newPassword: string): Promise<void> {
      const u = await repo.findUserById(db, userId);
      if (!u) throw new AppError('UNAUTHORIZED');
      if (!(await verifyPassword(u.passwordHash, oldPassword))) throw new AppError('WRONG_PASSWORD');
      const passwordHash = await hashPassword(newPassword);
      const s = await repo.findSession(db, sessionId);
      await db.transaction(async (tx) => {
        await repo.updateUser(tx, userId, { passwordHash, updatedAt: now() });
        await repo.revokeUserSessions(tx, userId, now(), s?.familyId);
      });
    },

    /** POST /account/resetPassword: with a reset OTP; sets the password and signs out everywhere. */
    async resetPassword(phone: string, otpId: string, otp: string, newPassword: string): Promise<void> {
      await checkOtp(otpId, phone, 'reset', otp);
      const u = await repo.findUserByPhone(db, phone);
      if (!u) throw new AppError('NOT_REGISTERED');
      const passwordHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        await consumeOtpOrFail(tx, otpId);
        await repo.updateUser(tx, u.id, { passwordHash, updatedAt: now(), failedLogins: 0, failedLoginWindowAt: null });
        await repo.revokeUserSessions(tx, u.id, now());
      });
    },

    /** GET /accountDetails */
    profile: loadProfile,

    /** PATCH /account: names, company, e-mail (EMAIL_EXISTS when another account has it). */
    async updateProfile(userId: string, patch: UpdateProfileBody, lang: Language): Promise<Profile> {
      if (patch.email && (await repo.emailTaken(db, patch.email, userId))) throw new AppError('EMAIL_EXISTS');
      const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      try {
        await repo.updateUser(db, userId, { ...set, updatedAt: now() });
      } catch (e) {
        rethrowUnique(e);
      }
      return loadProfile(userId, lang);
    },
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
