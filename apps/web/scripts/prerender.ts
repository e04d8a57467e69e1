/**
 * After `vite build`: prerender the guest home page, each role's load search and the public city
 * and lane pages (/city/riyadh, /city/riyadh-to-jeddah) in English and Arabic into
 * dist/prerender/<page>.{en,ar}.html (see src/prerender.tsx for why). The app's modules expect a
 * browser, so they run under a jsdom window at 1280 px (no stored session, theme or language);
 * the server serves each page only to the visitor it was made for.
 *
 *   node --import tsx scripts/prerender.ts      (run by `npm run build` in apps/web)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { JSDOM } from 'jsdom';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { CITY_PAGES } from '@masar/shared';
import { webAliases } from '../aliases.ts';

const webRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const ssrOut = join(webRoot, 'node_modules/.prerender');
const outDir = join(webRoot, 'dist/prerender');

await build({
  configFile: false,
  root: webRoot,
  logLevel: 'warn',
  plugins: [react()],
  resolve: { alias: webAliases },
  build: { ssr: 'src/prerender.tsx', outDir: ssrOut, emptyOutDir: true, minify: false },
});

// A browser-like global scope for modules that read the window at import time.
const WIDTH = 1280;
const dom = new JSDOM('<!doctype html><html lang="en" dir="ltr"><body><div id="root"></div></body></html>', {
  url: 'http://localhost/',
  pretendToBeVisual: true,
});
const w = dom.window;
const px = (q: string, key: string) => Number(new RegExp(`${key}:\\s*(\\d+)`).exec(q)?.[1] ?? NaN);
w.matchMedia = (query: string) =>
  ({
    matches:
      (Number.isNaN(px(query, 'min-width')) || WIDTH >= px(query, 'min-width')) && (Number.isNaN(px(query, 'max-width')) || WIDTH <= px(query, 'max-width')),
    media: query,
    onchange: null,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  }) as MediaQueryList;
const g = globalThis as Record<string, unknown>;
for (const key of ['window', 'document', 'localStorage', 'sessionStorage', 'location', 'HTMLElement', 'Element', 'Node', 'getComputedStyle', 'matchMedia']) {
  g[key] = (w as unknown as Record<string, unknown>)[key];
}
if (!('navigator' in globalThis) || !globalThis.navigator) g.navigator = w.navigator;
g.self = g.window;

/**
 * What is prerendered: file name → the path and the visitor (account type; null = guest). Written
 * to dist/prerender/pages.json too: the server (apps/server/src/plugins/web.ts) serves each page
 * from that list, to the same visitor, so the two cannot disagree.
 */
interface Page {
  file: string;
  path: string;
  accountType: number | null;
  /** The page's own title and description per language (usePageMeta), put into the shell's head by the server. */
  head?: Partial<Record<'en' | 'ar', { title: string; description?: string }>>;
}
const PAGES: Page[] = [
  { file: 'home', path: '/', accountType: null },
  { file: 'load-search-1', path: '/shippers/search-shipments', accountType: 1 },
  { file: 'load-search-2', path: '/carriers/load-search', accountType: 2 },
  { file: 'load-search-3', path: '/brokers/load-search', accountType: 3 },
  // issue 23: the city landing pages and the lanes between them, for guests (the sitemap's /city/… pages);
  // their open loads are live and load in the browser, the rest of the page (title, intro, the
  // straight-line distance, the links) is in the HTML
  ...CITY_PAGES.map((c) => ({ file: `city-${c.slug}`, path: `/city/${c.slug}`, accountType: null })),
  ...CITY_PAGES.flatMap((a) =>
    CITY_PAGES.filter((b) => b !== a).map((b) => ({ file: `lane-${a.slug}-to-${b.slug}`, path: `/city/${a.slug}-to-${b.slug}`, accountType: null })),
  ),
];

const { renderPage } = (await import(pathToFileURL(join(ssrOut, 'prerender.js')).href)) as typeof import('../src/prerender');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
let bytes = 0;
const started = Date.now();
for (const page of PAGES) {
  for (const lang of ['en', 'ar'] as const) {
    w.document.cookie = `language=${lang}; path=/`;
    // the session cookies the app reads (lib/storage.ts); the profile itself is never loaded here
    w.document.cookie = page.accountType ? `userType=${page.accountType}; path=/` : 'userType=; path=/; max-age=0';
    w.document.cookie = page.accountType ? 'uid=prerender; path=/' : 'uid=; path=/; max-age=0';
    const { html, head } = await renderPage(page.path, lang);
    writeFileSync(join(outDir, `${page.file}.${lang}.html`), html);
    if (head) page.head = { ...page.head, [lang]: head };
    bytes += html.length;
    if (!page.path.startsWith('/city/'))
      console.log(`prerendered ${page.path} (${lang}${page.accountType ? `, account type ${page.accountType}` : ''}): ${(html.length / 1024).toFixed(1)} KB`);
  }
}
const cityPages = PAGES.filter((p) => p.path.startsWith('/city/')).length;
console.log(
  `prerendered ${cityPages} city and lane pages × 2 languages; all pages ${(bytes / 1024 / 1024).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
writeFileSync(join(outDir, 'pages.json'), JSON.stringify(PAGES, null, 2));
rmSync(ssrOut, { recursive: true, force: true });
dom.window.close();
