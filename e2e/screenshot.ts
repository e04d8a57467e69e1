/**
 * Regenerates docs/screenshot.png (shown in the README): the carrier's load search in Arabic,
 * light theme, 1280×800, with the radius search around Riyadh and its results.
 *   npm run build && node --import tsx e2e/screenshot.ts [line|list|map] [out.png]
 */
import { join } from 'node:path';
import { openBrowser, ROOT, startServer } from './harness';
import { DEMO, pickCity, signIn, useLanguage, WAIT } from './helpers';

const view = process.argv[2] ?? 'line';
const out = process.argv[3] ?? join(ROOT, 'docs/screenshot.png');
const srv = await startServer();
const ctx = await openBrowser({ viewport: { width: 1280, height: 800 }, locale: 'ar-SA' });
try {
  await useLanguage(ctx, srv.url, 'ar');
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.addInitScript("localStorage.setItem('theme', 'light')");
  await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
  await pickCity(page, page.getByTestId('search-pickup-city'), 'الرياض');
  await page.getByTestId('search-submit').click();
  await page.waitForURL((u) => u.searchParams.has('pickupCityId'), { timeout: WAIT });
  if (view === 'map' || view === 'line') {
    const u = new URL(page.url());
    u.searchParams.set(view === 'map' ? 'view' : 'display', view);
    await page.goto(u.toString());
  }
  await page
    .locator(view === 'map' ? '.leaflet-container' : '[data-testid^="load-row-"]')
    .first()
    .waitFor({ timeout: WAIT });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await ctx.close();
  await srv.stop();
}
