import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

// Every namespace is a JSON file per language in ./locales/{en,ar}/<ns>.json (same keys in both;
// a test fails otherwise). New files are picked up automatically.
const modules = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, mod] of Object.entries(modules)) {
  const [, lang, ns] = /\.\/locales\/(\w+)\/(\w+)\.json$/.exec(path) ?? [];
  if (!lang || !ns) continue;
  (resources[lang] ??= {})[ns] = mod.default;
}

export const LANGUAGE_KEY = 'language';

/** The persisted language (spec: "language cookie", kept in local storage too). */
export function storedLanguage(): 'en' | 'ar' {
  const m = /(?:^|; )language=(en|ar)/.exec(document.cookie);
  const v = m?.[1] ?? localStorage.getItem(LANGUAGE_KEY);
  return v === 'ar' ? 'ar' : 'en';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: Object.keys(resources.en ?? {}),
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Apply a language: i18next, <html lang dir>, cookie (1 year) and local storage. */
export function applyLanguage(lang: 'en' | 'ar') {
  void i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
  document.cookie = `language=${lang}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
  localStorage.setItem(LANGUAGE_KEY, lang);
}

export default i18n;
