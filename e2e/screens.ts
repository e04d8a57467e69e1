/**
 * Regenerates docs/screens/: the home page (guest) and the carrier's load search, in English and
 * Arabic, light theme, 1280×800 — for reviewing the bilingual look.
 *   npm run build && node --import tsx e2e/screens.ts
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, ROOT, startServer } from './harness';
import { DEMO, signIn, useLanguage, WAIT } from './helpers';

const dir = join(ROOT, 'docs/screens');
mkdirSync(dir, { recursive: true });
const srv = await startServer();
try {
  for (const lang of ['en', 'ar'] as const) {
    const ctx = await openBrowser({ viewport: { width: 1280, height: 800 }, locale: lang === 'ar' ? 'ar-SA' : 'en-US' });
    await useLanguage(ctx, srv.url, lang);
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.addInitScript("localStorage.setItem('theme', 'light')");
    await page.goto(`${srv.url}/`, { waitUntil: 'networkidle' });
    await page.locator('footer').waitFor({ timeout: WAIT });
    await page.screenshot({ path: join(dir, `home-${lang}.png`) });
    await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
    await page.locator('[data-testid^="load-row-"]').first().waitFor({ timeout: WAIT });
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(dir, `load-search-${lang}.png`) });
    await ctx.close();
  }
} finally {
  await srv.stop();
}
console.log(`screenshots in ${dir}`);
