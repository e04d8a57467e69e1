/**
 * Regenerates docs/screens/: the home page (guest) and the carrier's load search, in English and
 * Arabic, light theme, at 1280×800 (`home-en.png`, `load-search-ar.png` …) and on a 390×844
 * phone (`home-en-390.png` …, the home page whole), plus the dark theme at 1280 (`home-ar-dark.png`,
 * `load-search-en-dark.png`) — for reviewing the bilingual look.
 *   npm run build && node --import tsx e2e/screens.ts
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, ROOT, startServer } from './harness';
import { DEMO, signIn, useLanguage, WAIT } from './helpers';

const dir = join(ROOT, 'docs/screens');
mkdirSync(dir, { recursive: true });
const SHOTS: { lang: 'en' | 'ar'; width: 1280 | 390; theme: 'light' | 'dark' }[] = [
  { lang: 'en', width: 1280, theme: 'light' },
  { lang: 'ar', width: 1280, theme: 'light' },
  { lang: 'en', width: 390, theme: 'light' },
  { lang: 'ar', width: 390, theme: 'light' },
  { lang: 'ar', width: 1280, theme: 'dark' },
  { lang: 'en', width: 1280, theme: 'dark' },
];
const srv = await startServer();
try {
  for (const { lang, width, theme } of SHOTS) {
    const suffix = `${lang}${width === 390 ? '-390' : ''}${theme === 'dark' ? '-dark' : ''}`;
    const ctx = await openBrowser({ viewport: width === 390 ? { width, height: 844 } : { width, height: 800 }, locale: lang === 'ar' ? 'ar-SA' : 'en-US' });
    await useLanguage(ctx, srv.url, lang);
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.addInitScript(`localStorage.setItem('theme', '${theme}')`);
    await page.goto(`${srv.url}/`, { waitUntil: 'networkidle' });
    await page.locator('[data-testid^="load-row-"]').first().waitFor({ timeout: WAIT });
    // on the phone the whole page, so the latest loads' cards (full city names) show under the hero
    await page.screenshot({ path: join(dir, `home-${suffix}.png`), fullPage: width === 390 });
    await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
    await page.locator('[data-testid^="load-row-"]').first().waitFor({ timeout: WAIT });
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(dir, `load-search-${suffix}.png`) });
    await ctx.close();
  }
} finally {
  await srv.stop();
}
console.log(`screenshots in ${dir}`);
