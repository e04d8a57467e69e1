import { afterEach, describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { digits, digitSystem, DIGITS_KEY, normalizeDigits, setDigitSystem, type DigitSystem } from '../lib/digits';
import { formatCount, formatDate, formatDateCompact, formatHijri, formatMoney, formatNumber, type Lang } from './format';
import { datesLocaleName } from './useDatesLocale';

const WESTERN = /[0-9]/;
const ARABIC_INDIC = /[\u0660-\u0669]/;
/** Every digit of `s` is in `d`, and there is at least one. */
const onlyIn = (s: string, d: DigitSystem) => {
  expect(s).toMatch(d === 'arab' ? ARABIC_INDIC : WESTERN);
  expect(s).not.toMatch(d === 'arab' ? WESTERN : ARABIC_INDIC);
};
const CASES: [Lang, DigitSystem][] = [
  ['en', 'latn'],
  ['en', 'arab'],
  ['ar', 'arab'],
  ['ar', 'latn'],
];

afterEach(async () => {
  setDigitSystem(null);
  await i18n.changeLanguage('en');
});

describe('the digit-system setting (lib/digits)', () => {
  it('defaults by language: Arabic-Indic in Arabic, Western in English', () => {
    expect(digitSystem('ar')).toBe('arab');
    expect(digitSystem('en')).toBe('latn');
  });
  it('a choice overrides the language, is persisted, and can be cleared', () => {
    setDigitSystem('latn');
    expect(digitSystem('ar')).toBe('latn');
    expect(localStorage.getItem(DIGITS_KEY)).toBe('latn');
    setDigitSystem('arab');
    expect(digitSystem('en')).toBe('arab');
    setDigitSystem(null);
    expect(localStorage.getItem(DIGITS_KEY)).toBeNull();
    expect(digitSystem('en')).toBe('latn');
  });
  it('writes page numbers, days and years ungrouped in the system in force', async () => {
    expect(digits(2026)).toBe('2026');
    await i18n.changeLanguage('ar');
    expect(digits(2026)).toBe('٢٠٢٦');
    expect(digits('07')).toBe('٧');
  });
  it('numbers interpolated into translated sentences follow the setting; strings (ids) do not', async () => {
    await i18n.changeLanguage('ar');
    expect(i18n.t('shipments:form.cargoLine', { n: 3 })).toContain('٣');
    expect(i18n.t('shipments:form.cargoLine', { n: 3 })).not.toMatch(WESTERN);
    setDigitSystem('latn');
    expect(i18n.t('shipments:form.cargoLine', { n: 3 })).toContain('3');
    expect(i18n.t('shipments:form.cargoLine', { n: 'LD-001' })).toContain('LD-001');
  });
});

describe('input normaliser', () => {
  it('reads Arabic-Indic and Persian digits and the Arabic decimal separator as a Western number', () => {
    expect(normalizeDigits('١٢٥٠٠')).toBe('12500');
    expect(normalizeDigits('۱۲۴۵۶')).toBe('12456');
    expect(Number(normalizeDigits('٤٥٠٠٫٥'))).toBe(4500.5);
    expect(normalizeDigits('05x٣')).toBe('05x3');
  });
});

describe.each(CASES)('formatters in %s with %s digits', (lang, d) => {
  it('money: SAR, grouping, halalas, and VAT (15%) amounts', () => {
    const price = formatMoney('12500.50', lang, { digits: d });
    onlyIn(price, d);
    expect(price).toContain(d === 'arab' ? '١٢' : '12');
    expect(price).toMatch(lang === 'ar' ? /ر\.س(?!\.)/ : /SAR/);
    const vat = formatMoney('1875.08', lang, { digits: d });
    onlyIn(vat, d);
    expect(vat).toContain(d === 'arab' ? '٠٨' : '08');
    expect(formatMoney(2500, lang, { digits: d })).not.toMatch(/[.٫]00|٫٠٠/);
  });
  it('counts with the cap: the plus on the reading side', () => {
    const capped = formatCount(1000, true, lang, d);
    onlyIn(capped, d);
    expect(capped).toBe(lang === 'ar' ? `+${formatNumber(1000, lang, 0, d)}` : `${formatNumber(1000, lang, 0, d)}+`);
    expect(formatCount(12, false, lang, d)).toBe(d === 'arab' ? '١٢' : '12');
  });
  it('distances and weights: grouped, one decimal when asked', () => {
    onlyIn(formatNumber(24500, lang, 0, d), d);
    expect(formatNumber(1234.56, lang, 1, d)).toBe(d === 'arab' ? '١٬٢٣٤٫٦' : lang === 'ar' ? '1,234.6' : '1,234.6');
  });
  it('dates: Gregorian in Riyadh time and the Hijri twin', () => {
    onlyIn(formatDate('2026-11-22T09:00:00Z', lang, true, d), d);
    const h = formatHijri('2026-11-22T09:00:00Z', lang, d);
    onlyIn(h, d);
    expect(h).toContain(d === 'arab' ? '١٤٤٨' : '1448');
  });
  it('the compact date (cards) keeps each date on one line: no lone letter wraps', () => {
    const c = formatDateCompact('2026-11-22T05:30:00Z', lang, d);
    onlyIn(c, d);
    if (lang === 'ar') {
      // "٢٢ نوفمبر، ٨:٣٠ ص (٢ جمادى الآخرة)": the only breakable space sits between the two dates
      expect(c).toContain('نوفمبر');
      expect(c).toContain('جمادى');
      expect(c.match(/[ \t]/g)).toHaveLength(1);
      expect(c).toMatch(/ \([^ ]+\)$/);
      expect(c).toMatch(/\u00a0ص/);
    } else {
      expect(c).toBe(d === 'arab' ? '٢٢\u00a0Nov,\u00a0٠٨:٣٠' : '22\u00a0Nov,\u00a008:30');
    }
  });
  it('the full Hijri date never leaves "هـ" alone on a line', () => {
    const h = formatHijri('2026-11-22T09:00:00Z', 'ar', d);
    expect(h).toMatch(/\u00a0هـ$/);
    expect(h).not.toMatch(/ /);
  });
  it('date pickers (dayjs locale) follow the same digit system', () => {
    setDigitSystem(d);
    expect(datesLocaleName(lang, true)).toBe(lang === 'ar' ? (d === 'arab' ? 'ar' : 'ar-latn') : d === 'arab' ? 'en-arab' : 'en');
  });
});

describe('date-picker labels and values (dayjs locales per digit system)', () => {
  it('writes Western or Arabic-Indic digits, and reads typed Arabic-Indic digits', async () => {
    const { default: dayjs } = await import('dayjs');
    expect(dayjs('2026-11-22').locale('en').format('D MMMM YYYY')).toBe('22 November 2026');
    expect(dayjs('2026-11-22').locale('en-arab').format('D MMMM YYYY')).toBe('٢٢ November ٢٠٢٦');
    expect(dayjs('٢٠٢٦-١١-٢٢').format('YYYY-MM-DD')).toBe('2026-11-22');
  });
});
