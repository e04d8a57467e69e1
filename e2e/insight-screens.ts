/**
 * Screenshots of market intelligence and notifications (issues 20 and 21) into docs/screens/:
 * market rates for Riyadh → Jeddah, the rate forecast, the shipper dashboard and the
 * notifications page — in English and Arabic, light and dark, at 1280×800 and on a 390×844 phone
 * (`market-rates-ar.png`, `dashboard-en-390.png` …). Demo data only (the seed's year of rate
 * history and its events).
 *   npm run build && node --import tsx e2e/insight-screens.ts
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openBrowser, ROOT, startServer } from './harness';
import { DEMO, signIn, useLanguage, WAIT } from './helpers';

const dir = join(ROOT, 'docs/screens');
mkdirSync(dir, { recursive: true });
// reference city ids: Riyadh and Jeddah, the demo history's busiest lane
const LANE = 'origin=3&destination=18';
const SHOTS = [
  { lang: 'en', width: 1280, theme: 'light' },
  { lang: 'ar', width: 1280, theme: 'light' },
  { lang: 'ar', width: 1280, theme: 'dark' },
  { lang: 'en', width: 1280, theme: 'dark' },
  { lang: 'ar', width: 390, theme: 'light' },
  { lang: 'en', width: 390, theme: 'light' },
] as const;

const srv = await startServer();
try {
  const shoot = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    // charts animate in: let them settle
    await page.waitForTimeout(800);
    await page.screenshot({ path: join(dir, name) });
  };
  for (const { lang, width, theme } of SHOTS) {
    const suffix = `${lang}${width === 390 ? '-390' : ''}${theme === 'dark' ? '-dark' : ''}`;
    const ctx = await openBrowser({ viewport: { width, height: width === 390 ? 844 : 800 }, locale: lang === 'ar' ? 'ar-SA' : 'en-US' });
    await useLanguage(ctx, srv.url, lang);
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.addInitScript(`localStorage.setItem('theme', '${theme}')`);
    await signIn(page, srv.url, DEMO.shipper, '/shippers/my-loads');
    await page.goto(`${srv.url}/shippers/market-rates?${LANE}`);
    await page.getByTestId('rates-figure').waitFor({ timeout: WAIT });
    await shoot(page, `market-rates-${suffix}.png`);
    await page.goto(`${srv.url}/shippers/rate-forecast?${LANE}`);
    await page.locator('[data-testid=forecast-result] svg.recharts-surface').first().waitFor({ timeout: WAIT });
    await shoot(page, `rate-forecast-${suffix}.png`);
    await page.goto(`${srv.url}/shippers/dashboard`);
    await page.getByTestId('stat-loads_posted').waitFor({ timeout: WAIT });
    await shoot(page, `dashboard-${suffix}.png`);
    await page.goto(`${srv.url}/shippers/notifications`);
    await page.getByTestId('notification-entry').first().waitFor({ timeout: WAIT });
    await shoot(page, `notifications-${suffix}.png`);
    await ctx.close();
  }
  console.log(`screenshots in ${dir}`);
} finally {
  await srv.stop();
}
