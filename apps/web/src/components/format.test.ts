import { describe, expect, it } from 'vitest';
import { asLang, cityName, dayToIso, formatDate, formatHijri, formatMoney, formatCount, formatNumber, isoToPicker, pickerToIso } from './format';

describe('money (Intl, SAR)', () => {
  it('formats SAR in English with grouping, no decimals for whole amounts', () => {
    expect(formatMoney(12500, 'en')).toMatch(/SAR\s?12,500$/);
    expect(formatMoney(2.5, 'en', { decimals: 2 })).toMatch(/SAR\s?2\.50$/);
  });
  it('formats SAR in Arabic with Arabic-Indic digits and the riyal sign', () => {
    const s = formatMoney(12500, 'ar');
    expect(s).toContain('١٢٬٥٠٠');
    expect(s).toContain('ر.س');
  });
  it('writes the riyal sign without a trailing period, so a sentence ending in a price has one full stop', () => {
    expect(formatMoney(4500, 'ar')).toMatch(/ر\.س(?!\.)/);
    expect(`${formatMoney(4500, 'ar')}.`).not.toContain('..');
    expect(formatMoney('4500.50', 'ar')).toContain('٤٬٥٠٠٫٥٠');
  });
  it('formats plain numbers per language', () => {
    expect(formatNumber(1022.1, 'en')).toBe('1,022');
    expect(formatNumber(1022.1, 'en', 1)).toBe('1,022.1');
    expect(formatNumber(10, 'ar')).toBe('١٠');
  });
});

describe('dates in Asia/Riyadh', () => {
  it('shows the Riyadh wall-clock whatever the machine time zone (UTC+3, no DST)', () => {
    // 21:30 UTC is 00:30 the next day in Riyadh.
    expect(formatDate('2026-11-22T21:30:00Z', 'en')).toBe('23 Nov 2026, 00:30');
    expect(formatDate('2026-11-22T21:30:00Z', 'en', false)).toBe('23 Nov 2026');
  });
  it('uses the Gregorian calendar for the main Arabic date and adds the Umm al-Qura Hijri date', () => {
    const g = formatDate('2026-11-22T09:00:00Z', 'ar', false);
    expect(g).toContain('٢٠٢٦');
    expect(g).toContain('نوفمبر');
    const h = formatHijri('2026-11-22T09:00:00Z');
    expect(h).toContain('١٤٤٨');
    expect(h).toContain('جمادى');
  });
  it('returns an empty string for an invalid date', () => {
    expect(formatDate('nope', 'en')).toBe('');
    expect(formatHijri('nope')).toBe('');
  });
});

describe('date picker ↔ API (Riyadh wall-clock ↔ ISO with offset)', () => {
  it('reads the picker value as Riyadh time', () => {
    expect(pickerToIso('2026-12-01 08:30:00')).toBe('2026-12-01T08:30:00+03:00');
    expect(pickerToIso('2026-12-01 08:30')).toBe('2026-12-01T08:30:00+03:00');
    expect(pickerToIso(null)).toBe('');
    expect(pickerToIso('garbage')).toBe('');
  });
  it('shows a stored instant as Riyadh wall-clock and round-trips', () => {
    expect(isoToPicker('2026-12-01T05:30:00Z')).toBe('2026-12-01 08:30:00');
    expect(isoToPicker('2026-12-01T22:15:00Z')).toBe('2026-12-02 01:15:00');
    const iso = pickerToIso(isoToPicker('2026-12-01T05:30:00.000Z'));
    expect(Date.parse(iso)).toBe(Date.parse('2026-12-01T05:30:00Z'));
    expect(isoToPicker(undefined)).toBeNull();
  });
  it('turns a calendar day into Riyadh day bounds', () => {
    expect(dayToIso('2026-12-01')).toBe('2026-12-01T00:00:00+03:00');
    expect(dayToIso('2026-12-01 00:00:00', true)).toBe('2026-12-01T23:59:59+03:00');
    expect(dayToIso(null)).toBeUndefined();
  });
});

describe('language helpers', () => {
  it('maps i18n languages and picks city names', () => {
    expect(asLang('ar-SA')).toBe('ar');
    expect(asLang('en')).toBe('en');
    expect(asLang(undefined)).toBe('en');
    expect(cityName({ nameEn: 'Riyadh', nameAr: 'الرياض' }, 'ar')).toBe('الرياض');
    expect(cityName(null, 'en')).toBe('');
  });
});

describe('capped counts (issue 10)', () => {
  it('shows an exact count as is and a capped one with a plus on the reading side', () => {
    expect(formatCount(999, false, 'en')).toBe('999');
    expect(formatCount(1000, true, 'en')).toBe('1,000+');
    expect(formatCount(1000, true, 'ar')).toBe('+١٬٠٠٠');
    expect(formatCount(12, undefined, 'ar')).toBe('١٢');
  });
});
