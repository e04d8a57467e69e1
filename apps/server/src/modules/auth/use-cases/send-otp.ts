import { randomInt } from 'node:crypto';
import { LIMITS, type Language, type OtpPurpose } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import * as repo from '../auth.repository.ts';
import { otpHash, type RequestMeta } from '../auth.shared.ts';
import type { AuthUseCaseDeps } from '../deps.ts';

export type SendOtpDeps = Pick<AuthUseCaseDeps, 'db' | 'config' | 'sms' | 'now'>;

/** Text of the OTP SMS (spec §5: 4 digits by phone), in the language the client asked for. */
export function otpSmsText(code: string, lang: Language): string {
  const minutes = LIMITS.otpTtlMs / 60_000;
  return lang === 'ar'
    ? `مسار: رمز التحقق الخاص بك هو ${code}. صالح لمدة ${minutes} دقائق. لا تشاركه مع أحد.`
    : `Masar: your verification code is ${code}. It expires in ${minutes} minutes. Do not share it.`;
}

async function enforceOtpRateLimits({ db, config, now }: Pick<SendOtpDeps, 'db' | 'config' | 'now'>, phone: string, ip: string) {
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

/**
 * POST /account/sendOtp: a 4-digit code by SMS, valid 5 minutes (spec §5, §9).
 * signup needs an unregistered phone (PHONE_EXISTS), login/reset a registered one
 * (NOT_REGISTERED). Rate-limited per phone and per IP (RATE_LIMITED).
 */
export async function sendOtp(deps: SendOtpDeps, phone: string, purpose: OtpPurpose, meta: RequestMeta): Promise<{ otpId: string }> {
  const { db, config, sms, now } = deps;
  const user = await repo.findUserByPhone(db, phone);
  if (purpose === 'signup' && user) throw new AppError('PHONE_EXISTS');
  if (purpose !== 'signup' && !user) throw new AppError('NOT_REGISTERED');
  await enforceOtpRateLimits(deps, phone, meta.ip);
  const id = newId();
  const code = String(randomInt(0, 10 ** LIMITS.otpDigits)).padStart(LIMITS.otpDigits, '0');
  const t = now();
  await repo.insertOtp(db, {
    id,
    phone,
    purpose,
    codeHash: otpHash(config, id, code),
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
}
