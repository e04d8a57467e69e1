import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { digitsFormatter } from '../lib/digits';

// Every namespace is a JSON file per language in ./locales/{en,ar}/<ns>.json (same keys in both;
// a test fails otherwise). Each language is one chunk (./bundles), fetched only when it is used:
// an English reader never downloads the Arabic strings, nor the reverse.
const bundles = { en: () => import('./bundles/en'), ar: () => import('./bundles/ar') } as const;

/**
 * Namespaces of screens most visitors never open (plans and checkout, verification, the text
 * pages, API keys and webhooks, the shipment's trip panels, the post form and my shipments,
 * vendors): outside the language bundles, fetched with their page (routes.tsx) so the first
 * download of every other page (home: 200 KB brotli) stays within its size budget.
 */
export const PAGE_NAMESPACES = [
  'billing',
  'verification',
  'public',
  'integrations',
  'assignment',
  'bayan',
  'trips',
  'shipments',
  'vendors',
  'profile',
  'team',
  'relations',
  'fleet',
  'csv',
  'soon',
  'trucks',
  'tenders',
  'searches',
  'notifications',
  'dashboard',
  'forecast',
  'alerts',
  'rates',
  'chat',
  'calls',
] as const;
export type PageNamespace = (typeof PAGE_NAMESPACES)[number];
const pageNamespaces = import.meta.glob<{ default: Record<string, unknown> }>(
  './locales/*/{billing,verification,public,integrations,assignment,bayan,trips,shipments,vendors,profile,team,relations,fleet,csv,soon,trucks,tenders,searches,notifications,dashboard,forecast,alerts,rates,chat,calls}.json',
);
const wantedPageNamespaces = new Set<PageNamespace>();

async function loadPageNamespace(lang: 'en' | 'ar', ns: PageNamespace): Promise<void> {
  if (i18n.hasResourceBundle(lang, ns)) return;
  const load = pageNamespaces[`./locales/${lang}/${ns}.json`];
  if (load) i18n.addResourceBundle(lang, ns, (await load()).default, true, true);
}

/** Fetch page namespaces for the current language (and any language switched to later). */
export async function loadNamespaces(nss: readonly PageNamespace[], lang: 'en' | 'ar' = i18n.language === 'ar' ? 'ar' : 'en'): Promise<void> {
  for (const ns of nss) wantedPageNamespaces.add(ns);
  await Promise.all(nss.map((ns) => loadPageNamespace(lang, ns)));
}

/** Fetch a language's strings once and hand them to i18next (with the page namespaces already in use). */
export async function loadLanguage(lang: 'en' | 'ar'): Promise<void> {
  if (!i18n.hasResourceBundle(lang, 'common')) {
    const bundle = (await bundles[lang]()).default;
    for (const [ns, res] of Object.entries(bundle)) i18n.addResourceBundle(lang, ns, res, true, true);
  }
  await Promise.all([...wantedPageNamespaces].map((ns) => loadPageNamespace(lang, ns)));
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
  i18n
    .use(initReactI18next)
    .use(digitsFormatter)
    .init({
      resources: {},
      partialBundledLanguages: true,
      lng: storedLanguage(),
      fallbackLng: false,
      defaultNS: 'common',
      // the post form's and my shipments' strings (page namespace 'shipments', loaded with those
      // pages) are read through the 'loads' namespace: a key missing there is looked up here
      fallbackNS: 'shipments',
      // numbers in sentences follow the reader's digit system (lib/digits.ts)
      interpolation: { escapeValue: false, alwaysFormat: true },
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
