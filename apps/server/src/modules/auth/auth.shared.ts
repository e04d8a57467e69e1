import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LIMITS, PROFILE_STATUS, type AccountType, type Language, type OtpPurpose, type Profile, type Tokens } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { signAccessToken } from '../../lib/tokens.ts';
import * as repo from './auth.repository.ts';
import type { AuthUseCaseDeps } from './deps.ts';

/*
 * What the auth use cases (use-cases/*.ts) share: issuing a session, the profile answer, checking
 * and consuming an OTP, closing a guest session, mapping unique violations.
 *
 * Refresh tokens: 32 random bytes (base64url), stored as SHA-256 in `sessions.refresh_hash`. Each
 * rotation retires the row (rotated_at) and adds a new row to the same family; presenting a
 * retired token again is treated as theft and revokes the whole family, except within
 * REFRESH_REUSE_GRACE_SECONDS of its rotation (a lost answer, not a copy: see generateToken).
 */

/** What the HTTP layer knows about the caller: client IP, answer language, device details. */
export interface RequestMeta {
  ip: string;
  lang: Language;
  device?: Record<string, unknown>;
  /** The guest session the caller signed in from, if any: closed once the user is signed in. */
  guestSessionId?: string;
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The stored hash of an OTP: HMAC-SHA-256 under the JWT secret of `otpId:code`. */
export const otpHash = (config: Pick<AuthUseCaseDeps['config'], 'jwtSecret'>, otpId: string, code: string) =>
  createHmac('sha256', config.jwtSecret).update(`${otpId}:${code}`).digest('hex');

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

/** EMAIL_EXISTS or PHONE_EXISTS for a unique violation on those columns; any other error as it is. */
export function rethrowUnique(e: unknown): never {
  const v = uniqueViolation(e);
  if (v?.includes('email')) throw new AppError('EMAIL_EXISTS');
  if (v?.includes('phone')) throw new AppError('PHONE_EXISTS');
  throw e;
}

/**
 * A new session (a new family unless `familyId` is given) and its token pair: a refresh token of
 * 32 random bytes, stored only as its SHA-256, and a signed access token (user or guest).
 */
export async function issueSession(
  { config, now }: Pick<AuthUseCaseDeps, 'config' | 'now'>,
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

const STATUS_TEXT: Record<number, { en: string; ar: string }> = {
  [PROFILE_STATUS.pending]: { en: 'Pending approval', ar: 'بانتظار الموافقة' },
  [PROFILE_STATUS.approved]: { en: 'Approved', ar: 'تمت الموافقة' },
  [PROFILE_STATUS.suspended]: { en: 'Suspended', ar: 'موقوف' },
  [PROFILE_STATUS.deleted]: { en: 'Deleted', ar: 'محذوف' },
  [PROFILE_STATUS.rejected]: { en: 'Rejected', ar: 'مرفوض' },
};

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
export async function loadProfile({ db }: Pick<AuthUseCaseDeps, 'db'>, userId: string, lang: Language): Promise<Profile> {
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

/**
 * Check an OTP without using it up. A wrong code counts an attempt (outside any transaction,
 * so a later rollback cannot undo it); at `LIMITS.otpMaxAttempts` wrong codes the OTP is dead.
 * The caller then consumes it with repo.consumeOtp inside its own transaction.
 */
export async function checkOtp(
  { db, config, now }: Pick<AuthUseCaseDeps, 'db' | 'config' | 'now'>,
  otpId: string,
  phone: string,
  purpose: OtpPurpose,
  code: string,
): Promise<void> {
  const maxAttempts = LIMITS.otpMaxAttempts;
  const otp = await repo.findOtp(db, otpId);
  if (!otp || otp.phone !== phone || otp.purpose !== purpose || otp.consumedAt) throw new AppError('INVALID_OTP');
  if (otp.attempts >= maxAttempts) throw new AppError('OTP_ATTEMPTS_EXCEEDED');
  if (otp.expiresAt.getTime() <= now().getTime()) throw new AppError('OTP_EXPIRED');
  const expected = Buffer.from(otp.codeHash, 'hex');
  const given = Buffer.from(otpHash(config, otp.id, code), 'hex');
  if (expected.length === given.length && timingSafeEqual(expected, given)) return;
  const attempts = await repo.addOtpAttempt(db, otp.id);
  throw new AppError(attempts >= maxAttempts ? 'OTP_ATTEMPTS_EXCEEDED' : 'INVALID_OTP');
}

/** Use up a checked OTP inside the caller's transaction (INVALID_OTP when it is gone meanwhile). */
export async function consumeOtpOrFail({ now }: Pick<AuthUseCaseDeps, 'now'>, tx: DbOrTx, otpId: string) {
  if (!(await repo.consumeOtp(tx, otpId, now(), LIMITS.otpMaxAttempts))) throw new AppError('INVALID_OTP');
}

/** A guest who signs in or up no longer needs the guest session: revoke it (guests only). */
export async function closeGuestSession({ db, now }: Pick<AuthUseCaseDeps, 'db' | 'now'>, meta: RequestMeta) {
  if (!meta.guestSessionId) return;
  const s = await repo.findSession(db, meta.guestSessionId);
  if (s && !s.userId) await repo.revokeFamily(db, s.familyId, now());
}
