import i18n from 'i18next';
import { numberFormat } from './intl';

/**
 * The digit system every number on a page is written in (issue 9): `arab` = Arabic-Indic
 * (٠١٢٣٤٥٦٧٨٩), `latn` = Western (0-9). The reader's choice is kept in local storage under
 * `digits` (like `theme` and `language`); without one, the language decides (ar → arab,
 * en → latn). Formatters read it at call time (components/format.ts, the theme's pagination and
 * calendar days, the date pickers' dayjs locale), so one switch changes every number at once.
 */
export type DigitSystem = 'arab' | 'latn';
export const DIGITS_KEY = 'digits';

const read = (): DigitSystem | null => {
  const v = globalThis.localStorage?.getItem(DIGITS_KEY);
  return v === 'arab' || v === 'latn' ? v : null;
};
let chosen = read();

/** The digit system in force for `lang` (default: i18next's current language). */
export const digitSystem = (lang: string = i18n.language): DigitSystem => chosen ?? (lang?.startsWith('ar') ? 'arab' : 'latn');

/**
 * Choose a digit system (null: follow the language again), persist it and re-render every
 * translated component: react-i18next re-renders on `languageChanged`, and every number shown
 * sits in a component that reads its language through useTranslation.
 */
export function setDigitSystem(d: DigitSystem | null) {
  chosen = d;
  if (d) localStorage.setItem(DIGITS_KEY, d);
  else localStorage.removeItem(DIGITS_KEY);
  i18n.emit('languageChanged', i18n.language);
}

/** An integer with no grouping (page numbers, calendar days, years) in the digit system in force. */
export const digits = (n: number | string) => numberFormat('en', { numberingSystem: digitSystem(), useGrouping: false }).format(Number(n));

/**
 * Every Western digit of `s` written in the digit system in force for `lang` (the time pickers'
 * "08" → "٠٨", components/DateTimePicker.tsx). Only for texts that hold no codes or identifiers.
 */
export const inDigitSystem = (s: string, lang?: string) =>
  digitSystem(lang) === 'arab' ? s.replace(/[0-9]/g, (c) => String.fromCharCode(0x660 + Number(c))) : s;

/**
 * Arabic-Indic (U+0660–0669) and Persian (U+06F0–06F9) digits → Western, and the Arabic decimal
 * separator (U+066B) → ".": what a reader types with an Arabic keyboard, read as a number.
 */
export const normalizeDigits = (s: string) => s.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (c) => String(c.charCodeAt(0) & 0xf)).replace(/\u066b/g, '.');

/**
 * i18next formatter module (with `interpolation.alwaysFormat`): a number interpolated into a
 * sentence ({{count}}, {{n}}) is written in the digit system in force, ungrouped as before;
 * strings (reference ids, plates, phone numbers, values formatted already) pass unchanged.
 */
export const digitsFormatter = {
  type: 'formatter' as const,
  init() {},
  add() {},
  addCached() {},
  format: (v: unknown, _f: string | undefined, lng: string | undefined) =>
    typeof v === 'number' ? numberFormat(lng, { numberingSystem: digitSystem(lng), useGrouping: false }).format(v) : v,
};
