import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';
import { LIMITS } from './constants.ts';

/**
 * Normalise a Saudi mobile number to E.164 (`+9665XXXXXXXX`), or null when it is not a valid
 * SA mobile number. Accepts `05XXXXXXXX`, `5XXXXXXXX`, `9665…`, `+9665…` with spaces or dashes.
 * Source: spec §5 (valid for the country, allowed country sa, starts with 5 in +966 format).
 */
export function normalizeSaudiPhone(input: string): string | null {
  const raw = input.replace(/[\s-()]/g, '');
  const parsed = parsePhoneNumberFromString(raw.startsWith('966') ? `+${raw}` : raw, 'SA');
  if (!parsed || parsed.country !== 'SA' || !parsed.isValid()) return null;
  if (!parsed.nationalNumber.startsWith('5') || parsed.nationalNumber.length !== 9) return null;
  return parsed.number;
}

/** zod schema for a Saudi mobile phone; outputs E.164. Messages: v.phoneInvalid / v.phoneStart5. */
export const phoneSchema = z
  .string({ error: 'v.phoneInvalid' })
  .trim()
  .transform((val, ctx) => {
    // One libphonenumber parse per value: CSV imports validate thousands of phones.
    const e164 = normalizeSaudiPhone(val);
    if (e164) return e164;
    const digits = val.replace(/\D/g, '').replace(/^966/, '').replace(/^0/, '');
    ctx.addIssue({ code: 'custom', message: digits.length > 0 && !digits.startsWith('5') ? 'v.phoneStart5' : 'v.phoneInvalid' });
    return z.NEVER;
  });

/**
 * E-mail per spec §5: one non-space chunk, @, non-space chunk, dot, non-space chunk.
 */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const emailSchema = z
  .string({ error: 'v.emailInvalid' })
  .trim()
  .max(254, 'v.emailInvalid')
  .regex(EMAIL_RE, 'v.emailInvalid')
  .transform((v) => v.toLowerCase());

/** Special characters accepted by the password rule: anything that is not a letter or digit. */
const SPECIAL_RE = /[^A-Za-z0-9\s]/;

/** New password per spec §5: 6–15 characters, a capital letter and a special character. */
export const passwordSchema = z
  .string({ error: 'v.passwordLength' })
  .min(LIMITS.passwordMin, 'v.passwordLength')
  .max(LIMITS.passwordMax, 'v.passwordLength')
  .regex(/[A-Z]/, 'v.passwordCapital')
  .regex(SPECIAL_RE, 'v.passwordSpecial');

/** Password at login: minimum 6 (spec §5), nothing else (old passwords stay usable). */
export const loginPasswordSchema = z.string({ error: 'v.passwordLoginMin' }).min(LIMITS.passwordMin, 'v.passwordLoginMin').max(128);

/** 4-digit OTP (spec §5). */
export const otpSchema = z.string({ error: 'v.otpFormat' }).regex(/^\d{4}$/, 'v.otpFormat');

export const nameSchema = z.string({ error: 'v.nameRequired' }).trim().min(1, 'v.nameRequired').max(60, 'v.nameRequired');
