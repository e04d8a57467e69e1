import { describe, expect, it } from 'vitest';
import { MESSAGES, message, type MessageKey } from './messages.ts';

// The success-message catalogue (issue 18): one table per module, read through `message`.

const entries = Object.entries(MESSAGES).flatMap(([mod, table]) =>
  Object.entries(table as Record<string, { en: string; ar: string }>).map(([name, text]) => ({ key: `${mod}.${name}` as MessageKey, ...text })),
);

describe('success-message catalogue', () => {
  it('every entry has non-empty English and Arabic text', () => {
    expect(entries.length).toBeGreaterThan(80);
    for (const e of entries) {
      expect(e.en.trim(), e.key).not.toBe('');
      expect(e.en, e.key).not.toMatch(/[\u0600-\u06FF]/);
      expect(e.ar.trim(), e.key).not.toBe('');
      expect(e.ar, e.key).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it('message() answers the text of the language, English by default', () => {
    expect(message('contact.sent', 'en')).toBe(MESSAGES.contact.sent.en);
    expect(message('contact.sent', 'ar')).toBe(MESSAGES.contact.sent.ar);
    expect(message('common.ok')).toBe('OK');
    expect(message('common.ok', 'fr')).toBe('OK');
    expect(message('common.ok', 'ar')).toBe('تم');
  });

  it('a text without braced numbers comes back byte for byte', () => {
    for (const e of entries) {
      if (/\{\d/.test(e.en + e.ar)) continue;
      expect(message(e.key, 'en', 'arab'), e.key).toBe(e.en);
      expect(message(e.key, 'ar', 'latn'), e.key).toBe(e.ar);
    }
  });

  it('braced numbers follow the reader’s digit system, as fleet’s WASL message did', () => {
    expect(message('fleet.waslNotRequired', 'en')).toBe('WASL is not required under 3.5 tons.');
    expect(message('fleet.waslNotRequired', 'ar')).toBe('لا يلزم التسجيل في وصل لأقل من ٣٫٥ طن.');
    expect(message('fleet.waslNotRequired', 'ar', 'latn')).toBe('لا يلزم التسجيل في وصل لأقل من 3.5 طن.');
    expect(message('fleet.waslNotRequired', 'en', 'arab')).toBe('WASL is not required under ٣٫٥ tons.');
  });

  it('refuses a key that is not in the catalogue', () => {
    expect(() => message('contact.nope' as MessageKey, 'en')).toThrow(/unknown message key/);
    expect(() => message('nope' as MessageKey, 'en')).toThrow(/unknown message key/);
    expect(() => message('contact.toString' as MessageKey, 'en')).toThrow(/unknown message key/);
  });
});
