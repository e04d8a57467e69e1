import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, startServer, type RunningServer } from './harness';
import { DEMO, signIn, WAIT } from './helpers';
import ar from '../apps/web/src/i18n/locales/ar/menu.json';
import en from '../apps/web/src/i18n/locales/en/menu.json';

const MENU = { en, ar };

/**
 * Issue 9, mobile (≤ 768 px) rough edges on a 390 px phone, in English and Arabic (that no page
 * scrolls sideways is checked by the page sweep, e2e/a11y.ts, on the pages it loads anyway):
 * - the bottom bar's five labels fit (none cut off);
 * - a success toast opens below the header, so the burger and the user menu stay usable;
 * - a "coming soon" page says what is coming and links to screens that exist.
 */
type Role = 'guest' | 'shipper' | 'carrier';

describe.skipIf(!hasChromium)('mobile layout at 390 px', () => {
  let srv: RunningServer;
  const contexts = new Map<Role, BrowserContext>();
  const pages = new Map<Role, Page>();

  beforeAll(async () => {
    srv = await startServer();
    for (const role of ['guest', 'shipper', 'carrier'] as const) {
      const ctx = await openBrowser({ viewport: { width: 390, height: 844 } });
      contexts.set(role, ctx);
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      pages.set(role, page);
      if (role === 'shipper') await signIn(page, srv.url, DEMO.shipper, '/shippers/my-loads');
      if (role === 'carrier') await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
    }
  });

  afterAll(async () => {
    for (const c of contexts.values()) await c.close();
    await srv?.stop();
  });

  async function open(role: Role, lang: 'en' | 'ar', path: string) {
    await contexts.get(role)!.addCookies([{ name: 'language', value: lang, url: srv.url }]);
    const page = pages.get(role)!;
    await page.goto(`${srv.url}${path}`, { waitUntil: 'networkidle' });
    await page.locator('main h1, main h2').first().waitFor({ timeout: WAIT });
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
    return page;
  }

  for (const lang of ['en', 'ar'] as const) {
    it(`bottom bar labels fit and the first shortcut is a working screen (${lang})`, async () => {
      for (const role of ['shipper', 'carrier'] as const) {
        const page = await open(role, lang, role === 'shipper' ? '/shippers/my-loads' : '/carriers/load-search');
        const bar = page.getByRole('navigation', { name: MENU[lang].bottomNav });
        const labels = bar.locator('a p');
        await expect.poll(() => labels.count()).toBe(5);
        const cut = await labels.evaluateAll((ps) => ps.filter((p) => p.scrollWidth > p.clientWidth + 1).map((p) => p.textContent));
        expect(cut, `${role}: labels cut off`).toEqual([]);
        await labels.first().click();
        await page.waitForLoadState('networkidle');
        expect(await page.getByTestId('coming-soon').count(), `${role}: first shortcut`).toBe(0);
      }
    });

    it(`a toast opens below the header (${lang})`, async () => {
      const page = await open('shipper', lang, '/shippers/contact');
      await page.getByTestId('vendor-share-link').click();
      const toast = page.locator('.mantine-Notification-root').first();
      await toast.waitFor({ timeout: WAIT });
      const header = (await page.locator('header').boundingBox())!;
      await expect.poll(async () => (await toast.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(header.y + header.height);
    });

    it(`a coming-soon page says what comes and links to screens that exist (${lang})`, async () => {
      // every signed-in screen exists now (issue 20 built the last: dashboards, rate forecast);
      // what is still coming is the public page for each side of the market
      const page = await open('guest', lang, '/carriers');
      const soon = page.getByTestId('coming-soon');
      await soon.waitFor({ timeout: WAIT });
      expect((await soon.innerText()).length).toBeGreaterThan(80);
      const links = page.getByTestId('coming-soon-links').locator('a');
      expect(await links.count()).toBeGreaterThanOrEqual(2);
      // a visitor is sent to sign up first
      expect(await links.first().getAttribute('href')).toBe('/signup');
      await links.first().click();
      await page.locator('form').first().waitFor({ timeout: WAIT });
    });
  }
});
