import { NATIONALITIES } from '@masar/shared';

/** Nationalities by their stored lowercase value (spec §3 Driver). */
export const NATIONALITIES_BY_VALUE = new Map<string, { value: string; en: string; ar: string }>(NATIONALITIES.map((n) => [n.value, n]));

/** Select options with the label in the user's language, sorted for that language. */
export function nationalityOptions(lang: 'en' | 'ar') {
  return NATIONALITIES.map((n) => ({ value: n.value, label: lang === 'ar' ? n.ar : n.en })).sort((a, b) => a.label.localeCompare(b.label, lang));
}
