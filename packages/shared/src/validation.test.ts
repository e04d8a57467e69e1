import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emailSchema, loginPasswordSchema, normalizeSaudiPhone, otpSchema, passwordSchema, phoneSchema } from './validation.ts';
import { VALIDATION_MESSAGES, localizeValidationMessage } from './messages.ts';
import { ERRORS } from './errors.ts';

const msgs = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? [] : r.error!.issues.map((i) => i.message));

describe('Saudi phone numbers (spec §5)', () => {
  it.each(['+966512345678', '0512345678', '512345678', '966512345678', '+966 51 234 5678', '055-123-4567'])('accepts %s and normalises to E.164', (p) => {
    const r = phoneSchema.safeParse(p);
    expect(r.success).toBe(true);
    expect(r.data).toMatch(/^\+9665\d{8}$/);
  });
  it('rejects numbers that do not start with 5 with the spec message', () => {
    expect(msgs(phoneSchema.safeParse('+966112345678'))).toEqual(['v.phoneStart5']);
    expect(msgs(phoneSchema.safeParse('0112345678'))).toEqual(['v.phoneStart5']);
  });
  it.each(['+96651234567', '+9665123456789', 'abc', '', '+971501234567'])('rejects %s', (p) => {
    expect(phoneSchema.safeParse(p).success).toBe(false);
  });
  it('any 8 digits after +9665 (mobile ranges) normalise to themselves', () => {
    fc.assert(
      fc.property(fc.constantFrom('0', '3', '4', '5', '6', '8', '9'), fc.stringMatching(/^\d{7}$/), (second, rest) => {
        const e164 = `+9665${second}${rest}`;
        expect(normalizeSaudiPhone(e164)).toBe(e164);
        expect(normalizeSaudiPhone(`05${second}${rest}`)).toBe(e164);
      }),
    );
  });
});

describe('passwords (spec §5: 6–15, a capital, a special character)', () => {
  it.each(['Masar@2026', 'Ab#123', 'ABCDEFGHIJKLM!1'])('accepts %s', (p) => expect(passwordSchema.safeParse(p).success).toBe(true));
  it('rejects too short and too long', () => {
    expect(msgs(passwordSchema.safeParse('Ab#1'))).toContain('v.passwordLength');
    expect(msgs(passwordSchema.safeParse('Abcdefghijklmn#1'))).toContain('v.passwordLength');
  });
  it('rejects a password without a capital letter', () => expect(msgs(passwordSchema.safeParse('masar@2026'))).toEqual(['v.passwordCapital']));
  it('rejects a password without a special character', () => expect(msgs(passwordSchema.safeParse('Masar2026'))).toEqual(['v.passwordSpecial']));
  it('login accepts any password of at least 6 characters', () => {
    expect(loginPasswordSchema.safeParse('abcdef').success).toBe(true);
    expect(msgs(loginPasswordSchema.safeParse('abcde'))).toEqual(['v.passwordLoginMin']);
  });
});

describe('e-mail and OTP', () => {
  it.each(['a@b.co', 'Sara.Harbi+ops@najd-foods.com.sa'])('accepts %s (lower-cased)', (e) => {
    const r = emailSchema.safeParse(e);
    expect(r.success).toBe(true);
    expect(r.data).toBe(e.toLowerCase());
  });
  it.each(['a@b', 'a b@c.com', '@c.com', 'a@.', 'plain'])('rejects %s', (e) => expect(emailSchema.safeParse(e).success).toBe(false));
  it('OTP is exactly 4 digits', () => {
    expect(otpSchema.safeParse('0427').success).toBe(true);
    for (const bad of ['427', '04271', 'abcd', '４２７１']) expect(otpSchema.safeParse(bad).success).toBe(false);
  });
});

describe('message catalogues', () => {
  it('every validation key has non-empty English and Arabic text', () => {
    for (const [key, v] of Object.entries(VALIDATION_MESSAGES)) {
      expect(v.en, key).not.toBe('');
      expect(v.ar, key).toMatch(/[\u0600-\u06FF]/);
    }
  });
  it('every error code has an HTTP status and English and Arabic text', () => {
    for (const [code, e] of Object.entries(ERRORS)) {
      expect(e.status, code).toBeGreaterThanOrEqual(200);
      expect(e.en, code).not.toBe('');
      expect(e.ar, code).toMatch(/[\u0600-\u06FF]/);
    }
  });
  it('localizes keys and leaves other text alone', () => {
    expect(localizeValidationMessage('v.phoneStart5', 'ar')).toBe(VALIDATION_MESSAGES['v.phoneStart5'].ar);
    expect(localizeValidationMessage('v.phoneStart5', 'en')).toBe('Phone number must start with 5.');
    expect(localizeValidationMessage('Too small', 'ar')).toBe('Too small');
  });
});
