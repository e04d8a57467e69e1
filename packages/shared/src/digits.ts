import type { Language } from './constants.ts';

/**
 * The digit system a reader chose (issue 9): `arab` = Arabic-Indic (٠١٢٣٤٥٦٧٨٩), `latn` =
 * Western (0-9). Without a choice the language decides: Arabic → arab, English → latn.
 */
export const DIGIT_SYSTEMS = ['arab', 'latn'] as const;
export type DigitSystem = (typeof DIGIT_SYSTEMS)[number];

export const defaultDigitSystem = (lang: Language | string | undefined): DigitSystem => (lang?.startsWith('ar') ? 'arab' : 'latn');

/**
 * The digit system of a BCP 47 tag's Unicode extension (`ar-u-nu-latn`, `en-SA-u-ca-gregory-nu-arab`),
 * or null when the tag names none (plain `ar`, `en`) or another one.
 */
export function digitSystemOfTag(tag: unknown): DigitSystem | null {
  if (typeof tag !== 'string') return null;
  const m = /-u(?:-[a-z0-9]{2,8})*?-nu-(arab|latn)(?![a-z0-9])/i.exec(tag);
  return m ? (m[1].toLowerCase() as DigitSystem) : null;
}

/**
 * The numbers of a catalogue text (the error catalogue, the validation messages) in the reader's
 * digit system. A quantity in those texts is written in braces, as it reads in English:
 * `{5}`, `{3.5}`, `{2,000}` (grouped), `{1500.50}` (two decimals kept); Intl writes it in the
 * language's separators and `digits` ("٢٬٠٠٠", "٣٫٥"). Digits outside braces are codes or
 * identifiers ("407", "starting with 3") and stay as they are.
 */
export function localizeNumbers(text: string, lang: Language | string = 'en', digits: DigitSystem = defaultDigitSystem(lang)): string {
  return text.replace(/\{(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\}/g, (_, int: string, frac: string | undefined) => {
    const decimals = frac?.length ?? 0;
    return new Intl.NumberFormat(lang === 'ar' ? 'ar-SA' : 'en-SA', {
      numberingSystem: digits,
      useGrouping: int.includes(','),
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(Number(`${int.replace(/,/g, '')}${frac ? `.${frac}` : ''}`));
  });
}
