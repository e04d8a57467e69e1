import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import preParsePostFormat from 'dayjs/plugin/preParsePostFormat';
import relativeTime from 'dayjs/plugin/relativeTime';
import { digitSystem, normalizeDigits } from '../lib/digits';
import type { Lang } from './format';

let arabicLoaded = false;

// Mantine's pickers write every label and input value with dayjs(...).locale(L).format(...):
// the locale's `postformat` (applied by this plugin) writes the digits, its `preparse` reads
// typed Arabic-Indic or Persian digits. Four locales: language × digit system (lib/digits.ts).
// relativeTime first: preParsePostFormat then writes the digits of "5 minutes ago" too (the chat's
// "last seen"), which it only does for a relativeTime already there.
dayjs.extend(relativeTime);
dayjs.extend(preParsePostFormat);
/** A dayjs locale with the preParsePostFormat hooks (missing from dayjs's ILocale type). */
type Locale = ILocale & { postformat?: (s: string) => string; preparse?: (s: string) => string };
const register = (l: Locale) => dayjs.locale(l, undefined, true);
const toArab = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x660 + Number(d)));
const en = dayjs.Ls.en;
if (en) {
  register({ ...en, name: 'en-arab', postformat: toArab, preparse: normalizeDigits });
  register({ ...en, preparse: normalizeDigits });
}

function registerArabicLatn() {
  const ar = dayjs.Ls.ar;
  // Western digits, Arabic comma: the `ar` locale's postformat without its digit mapping
  if (ar) register({ ...ar, name: 'ar-latn', postformat: (s: string) => s.replace(/,/g, '،'), preparse: normalizeDigits });
}

/** The dayjs locale name for a language in the digit system in force: en, en-arab, ar, ar-latn. */
export function datesLocaleName(lang: Lang, arabicReady = arabicLoaded): string {
  const d = digitSystem(lang);
  if (lang === 'ar' && arabicReady) return d === 'arab' ? 'ar' : 'ar-latn';
  return d === 'arab' ? 'en-arab' : 'en';
}

/**
 * The dayjs locale for Mantine's date pickers (DatesProvider `locale`): Arabic month and day
 * names are fetched the first time an Arabic reader meets a date picker, never by English
 * readers nor by pages without one. English until the chunk has arrived. The name carries the
 * reader's digit system (datesLocaleName); the calling component re-renders when it changes
 * (it reads the language through useTranslation).
 */
export function useDatesLocale(lang: Lang): string {
  const [ready, setReady] = useState(arabicLoaded);
  useEffect(() => {
    if (lang !== 'ar' || arabicLoaded) return;
    let live = true;
    void import('dayjs/locale/ar').then(() => {
      registerArabicLatn();
      arabicLoaded = true;
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [lang]);
  return datesLocaleName(lang, ready || arabicLoaded);
}
