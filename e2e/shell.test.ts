import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { appTookOver, DEMO, htmlDir, signIn, WAIT } from './helpers';

/** The app shell: route guard (spec §2, apps/web/src/app/guard.ts), language and theme switches, mobile bottom bar. */
describe.skipIf(!hasChromium)('app shell', () => {
  let srv: RunningServer;
  const contexts: BrowserContext[] = [];

  async function freshPage(opts: Parameters<typeof openBrowser>[0] = {}): Promise<Page> {
    const ctx = await openBrowser(opts);
    contexts.push(ctx);
    return ctx.pages()[0] ?? ctx.newPage();
  }
  const path = (page: Page) => new URL(page.url()).pathname;
  /**
   * The guest home is the app's (not the prerendered page's) and its latest loads are shown: they
   * arrive a second or two in and push the footer down, so a click aimed at the footer before that
   * can land where the footer was.
   */
  const homeSettled = async (page: Page) => {
    await appTookOver(page);
    await page.locator('[data-testid^=load-row-]').first().waitFor({ timeout: WAIT });
  };
  const landsOn = (page: Page, p: string) => page.waitForURL((u) => u.pathname === p, { timeout: WAIT });

  beforeAll(async () => {
    srv = await startServer();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await srv?.stop();
  });

  it('sends a guest opening a signed-in page home, and says why when the link came from an e-mail', async () => {
    const page = await freshPage();
    await page.goto(`${srv.url}/shippers/my-loads`);
    await landsOn(page, '/');
    // No alert for an ordinary link.
    await page.locator('footer').waitFor({ timeout: WAIT });
    expect(await page.getByRole('dialog', { name: 'You are not signed in' }).count()).toBe(0);

    await page.goto(`${srv.url}/carriers/load-search?trigger=email`);
    await landsOn(page, '/');
    const alert = page.getByRole('dialog', { name: 'You are not signed in' });
    await alert.waitFor({ timeout: WAIT });
    expect(await alert.textContent()).toContain('This link needs you to be signed in.');
    await snap(page, 'shell-1-email-link-alert');
    // "Sign in" in the alert goes to the login page.
    await alert.getByRole('button', { name: 'Sign in' }).click();
    await landsOn(page, '/login');
  });

  it('flips <html dir lang> with the footer language switch, and the theme switch toggles the colour scheme', async () => {
    const page = await freshPage();
    await page.goto(`${srv.url}/`);
    const footer = page.locator('footer');
    await footer.waitFor({ timeout: WAIT });
    expect(await htmlDir(page)).toEqual({ dir: 'ltr', lang: 'en' });

    await homeSettled(page);
    await footer.getByText('العربية', { exact: true }).click();
    await expect.poll(() => htmlDir(page), { timeout: WAIT }).toEqual({ dir: 'rtl', lang: 'ar' });
    // The page is in Arabic now, and stays so after a reload (cookie + local storage).
    await footer
      .getByText('الوضع الداكن')
      .or(footer.getByRole('button', { name: 'الوضع الداكن' }))
      .first()
      .waitFor({ timeout: WAIT });
    await page.reload();
    await expect.poll(() => htmlDir(page), { timeout: WAIT }).toEqual({ dir: 'rtl', lang: 'ar' });
    await snap(page, 'shell-2-home-ar');

    await homeSettled(page);
    await page.locator('footer').getByText('English', { exact: true }).click();
    await expect.poll(() => htmlDir(page), { timeout: WAIT }).toEqual({ dir: 'ltr', lang: 'en' });

    const scheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');
    expect(await scheme()).toBe('light');
    await page.locator('footer').getByRole('button', { name: 'Dark theme' }).click();
    await expect.poll(scheme, { timeout: WAIT }).toBe('dark');
    await snap(page, 'shell-3-home-dark');
    await page.locator('footer').getByRole('button', { name: 'Light theme' }).click();
    await expect.poll(scheme, { timeout: WAIT }).toBe('light');
  });

  it('opens in Arabic on a first visit from an Arabic browser (ar-SA), and a later choice of English sticks', async () => {
    const page = await freshPage({ locale: 'ar-SA' });
    await page.goto(`${srv.url}/`);
    const footer = page.locator('footer');
    await footer.getByText('English', { exact: true }).waitFor({ timeout: WAIT });
    expect(await htmlDir(page)).toEqual({ dir: 'rtl', lang: 'ar' });
    expect(await page.getByRole('button', { name: 'الوضع الداكن' }).count()).toBeGreaterThan(0);

    // the switch is a button of the app, not of the prerendered page it replaces
    await homeSettled(page);
    await footer.getByText('English', { exact: true }).click();
    await expect.poll(() => htmlDir(page), { timeout: WAIT }).toEqual({ dir: 'ltr', lang: 'en' });
    await page.reload();
    await footer.getByRole('button', { name: 'Dark theme' }).waitFor({ timeout: WAIT });
    expect(await htmlDir(page)).toEqual({ dir: 'ltr', lang: 'en' });
  });

  it('paints the guest home page from the server before any script runs, in English and Arabic, and the app then takes it over', async () => {
    for (const [locale, title] of [
      ['en-US', 'Move freight across the Kingdom'],
      ['ar-SA', 'انقل بضائعك في أنحاء المملكة'],
    ] as const) {
      // no script at all: what a guest sees is the server's prerendered page (issue 9, home LCP)
      const bare = await freshPage({ locale });
      await bare.route('**/*.js', (r) => r.abort());
      await bare.goto(`${srv.url}/`);
      expect(await bare.getByRole('heading', { level: 1 }).textContent()).toBe(title);
      expect(await bare.locator('footer').count()).toBe(1);
    }
    // with scripts the app replaces it with the same page, once, and it works (client-side navigation)
    const page = await freshPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    await page.goto(`${srv.url}/`);
    await page.getByRole('combobox', { name: 'Pickup city' }).waitFor({ timeout: WAIT });
    await expect.poll(() => page.locator('[data-testid^=load-row-]').count(), { timeout: WAIT }).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    await page.getByRole('link', { name: 'Create a free account' }).click();
    await landsOn(page, '/signup');
    expect(errors).toEqual([]);
  });

  it("paints a signed-in carrier's load search from the server before any script runs, at 390 px with the filters folded", async () => {
    const page = await freshPage({ viewport: { width: 390, height: 800 } });
    await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
    const bare = await page.context().newPage();
    await bare.route('**/*.js', (r) => r.abort());
    await bare.goto(`${srv.url}/carriers/load-search`);
    expect(await bare.getByRole('heading', { level: 2 }).first().textContent()).toBe('Search shipments');
    // the phone's layout by CSS alone: the filter toggle and the burger, no desktop menu, no sideways scroll
    expect(await bare.getByTestId('filters-toggle').isVisible()).toBe(true);
    expect(await bare.getByTestId('search-pickup-city').isVisible()).toBe(false);
    expect(await bare.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(true);
    expect(await bare.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(false);
    expect(await bare.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // a tablet (769–1199 px) gets the one-dropdown menu by CSS too, not the wide row of links
    await bare.setViewportSize({ width: 1000, height: 800 });
    const nav = bare.getByRole('navigation', { name: 'Main menu' });
    expect(await nav.isVisible()).toBe(true);
    expect(await nav.getByRole('button', { name: 'Menu' }).isVisible()).toBe(true);
    expect(await nav.getByRole('button', { name: 'More' }).count()).toBe(0);
    expect(await nav.getByRole('link').count()).toBe(0);
    expect(await bare.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1000);
    await bare.close();
    // with scripts: the same page, then its loads
    await page.reload();
    await expect.poll(() => page.locator('[data-testid^=load-row-]').count(), { timeout: WAIT }).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { level: 2, name: 'Search shipments' }).count()).toBe(1);
    expect(await page.getByTestId('search-pickup-city').isVisible()).toBe(false);
  });

  it("keeps a signed-in carrier inside the signed-in paths: public pages lead to the carrier's load search", async () => {
    const page = await freshPage();
    await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
    for (const p of ['/about-us', '/', '/login', '/pricing']) {
      await page.goto(`${srv.url}${p}`);
      await landsOn(page, '/carriers/load-search');
    }
    // Account follows the user's type; the carrier's own sections open as they are.
    await page.goto(`${srv.url}/shippers/account`);
    await landsOn(page, '/carriers/account');
    await page.goto(`${srv.url}/carriers/my-shipments`);
    await page.getByTestId('tab-active').waitFor({ timeout: WAIT });
    expect(path(page)).toBe('/carriers/my-shipments');
  });

  it("sends a signed-in shipper to the shipper's pages", async () => {
    const page = await freshPage();
    await signIn(page, srv.url, DEMO.shipper, '/shippers/my-loads');
    await page.goto(`${srv.url}/about-us`);
    await landsOn(page, '/shippers/my-loads');
    // Dashboard and account are per type: the carrier's lead to the shipper's.
    await page.goto(`${srv.url}/carriers/account`);
    await landsOn(page, '/shippers/account');
    await page.goto(`${srv.url}/carriers/dashboard`);
    await landsOn(page, '/shippers/dashboard');
    // Other role-prefixed paths are allowed by the guard (spec §2: only the prefix is checked).
    await page.goto(`${srv.url}/carriers/load-search`);
    await page.getByTestId('search-submit').waitFor({ timeout: WAIT });
    expect(path(page)).toBe('/carriers/load-search');
  });

  it('shows the mobile bottom bar to a shipper on a 390 px wide screen, and not on a desktop', async () => {
    const page = await freshPage({ viewport: { width: 390, height: 844 } });
    await signIn(page, srv.url, DEMO.shipper, '/shippers/my-loads');
    const bar = page.getByRole('navigation', { name: 'Shortcuts' });
    await bar.waitFor({ timeout: WAIT });
    const links = bar.getByRole('link');
    expect(await links.count()).toBe(5);
    expect(await links.allTextContents()).toEqual(['My loads', 'Post load', 'Drivers', 'Rates', 'Dashboard']);
    // every label fits its fifth of the bar: none is cut with an ellipsis
    for (const label of await bar.locator('p').all()) expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const box = await bar.boundingBox();
    expect(box).not.toBeNull();
    expect(Math.round(box!.width)).toBe(390);
    expect(box!.y + box!.height).toBeCloseTo(844, 0);
    // The header's burger replaces the desktop menu.
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(true);
    await snap(page, 'shell-4-mobile-bottom-bar');

    await bar.getByRole('link', { name: 'Post load' }).click();
    await landsOn(page, '/shippers/post-load');
    await expect.poll(() => bar.getByRole('link', { name: 'Post load' }).getAttribute('aria-current'), { timeout: WAIT }).toBe('page');

    await page.setViewportSize({ width: 1280, height: 900 });
    await bar.waitFor({ state: 'detached', timeout: WAIT });
  });
});
