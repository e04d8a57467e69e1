import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

// Every namespace is a JSON file per language in ./locales/{en,ar}/<ns>.json (same keys in both;
// a test fails otherwise). Each language is one chunk (./bundles), fetched only when it is used:
// an English reader never downloads the Arabic strings, nor the reverse.
const bundles = { en: () => import('./bundles/en'), ar: () => import('./bundles/ar') } as const;

/** Fetch a language's strings once and hand them to i18next. */
export async function loadLanguage(lang: 'en' | 'ar'): Promise<void> {
  if (i18n.hasResourceBundle(lang, 'common')) return;
  const bundle = (await bundles[lang]()).default;
  for (const [ns, res] of Object.entries(bundle)) i18n.addResourceBundle(lang, ns, res, true, true);
}

export const LANGUAGE_KEY = 'language';

/**
 * The persisted language (spec: "language cookie", kept in local storage too); on a first visit,
 * the browser's own language (ar, ar-SA, … → Arabic). public/boot.js applies the same rule before
 * the first paint.
 */
export function storedLanguage(): 'en' | 'ar' {
  const m = /(?:^|; )language=(en|ar)/.exec(document.cookie);
  const v = m?.[1] ?? localStorage.getItem(LANGUAGE_KEY) ?? navigator.languages?.[0] ?? navigator.language;
  return /^ar\b/i.test(v ?? '') ? 'ar' : 'en';
}

// The reader's strings are requested at once, in parallel with i18next's own set-up.
const firstBundle = bundles[storedLanguage()]();

/** Resolves when i18next is set up with the stored language's strings (main.tsx renders after it). */
export const i18nReady: Promise<void> = Promise.all([
  i18n.use(initReactI18next).init({
    resources: {},
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: false,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  }),
  firstBundle,
]).then(() => loadLanguage(storedLanguage()));

/** Apply a language: i18next, <html lang dir>, cookie (1 year) and local storage. */
export function applyLanguage(lang: 'en' | 'ar') {
  // i18next already starts in the stored language: switching to the same one would re-render
  // the whole app right after its first paint
  void loadLanguage(lang).then(() => (i18n.language === lang ? undefined : i18n.changeLanguage(lang)));
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
  document.cookie = `language=${lang}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
  localStorage.setItem(LANGUAGE_KEY, lang);
}

export default i18n;
