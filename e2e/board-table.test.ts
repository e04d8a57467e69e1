import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { apiResponse, DEMO, eventually, pickOption, signIn, useLanguage, WAIT } from './helpers';

/**
 * Issue 23, the results table of the load board, in English and Arabic: Compact shows 20+ rows
 * on a 1280×800 screen; a column head sorts through the server; 50 a page; a hovered row
 * highlights its pin on the map beside the table (wide screens); 3+ cards on a 390×844 phone;
 * a row's link opens its load by click and by Enter.
 */

/** Arabic-Indic digits and separators → a number ("١٢٬٥٠٠٫٥٠ ر.س" → 12500.5). */
const amount = (s: string) =>
  Number(
    s
      .replace(/[\u0660-\u0669]/g, (c) => String(c.charCodeAt(0) - 0x660))
      .replace(/\u066b/g, '.')
      .replace(/[^0-9.]/g, ''),
  );

/** Rows (or cards) lying wholly on screen, below the sticky app header and the table's sticky head, above a bottom bar. */
const rowsOnScreen = (page: Page) =>
  page.evaluate(() => {
    const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    const thead = document.querySelector('[data-testid=loads-table] thead')?.getBoundingClientRect().bottom ?? 0;
    const nav = [...document.querySelectorAll('nav')].map((n) => n.getBoundingClientRect()).find((r) => r.bottom >= innerHeight - 1 && r.top > innerHeight / 2);
    const top = Math.max(header, thead);
    const bottom = nav ? nav.top : innerHeight;
    return [...document.querySelectorAll('[data-testid^=load-row-]')].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.height > 0 && b.top >= top - 1 && b.bottom <= bottom + 1;
    }).length;
  });

/** Scroll so that the first result sits right under the sticky header. */
const scrollToResults = (page: Page) =>
  page.evaluate(() => {
    const first = document.querySelector('[data-testid^=load-row-]');
    const header = document.querySelector('header')?.getBoundingClientRect().height ?? 0;
    const thead = document.querySelector('[data-testid=loads-table] thead')?.getBoundingClientRect().height ?? 0;
    if (first) scrollBy(0, first.getBoundingClientRect().top - header - thead - 2);
  });

for (const [lang, locale, compact] of [
  ['en', 'en-US', 'Compact'],
  ['ar', 'ar-SA', 'مضغوط'],
] as const)
  describe.skipIf(!hasChromium)(`load board results table (${lang})`, () => {
    let srv: RunningServer;
    let ctx: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      srv = await startServer();
      ctx = await openBrowser({ locale, viewport: { width: 1280, height: 800 } });
      await useLanguage(ctx, srv.url, lang);
      page = ctx.pages()[0] ?? (await ctx.newPage());
      await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
      await page.locator('[data-testid^=load-row-]').first().waitFor({ timeout: WAIT });
    });

    afterEach(async (c) => {
      if (c.task.result?.state === 'fail') await snap(page, `FAILED-board-table-${lang}`).catch(() => undefined);
    });

    afterAll(async () => {
      await ctx?.close();
      await srv?.stop();
    });

    it(`Compact shows at least 20 rows at 1280×800 (${lang})`, async () => {
      expect(await page.locator('html').getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      await page.getByTestId('density-toggle').getByText(compact, { exact: true }).click();
      await page.locator('[data-testid=loads-table][data-density=compact]').waitFor({ timeout: WAIT });
      expect(new URL(page.url()).searchParams.get('density')).toBe('compact');
      await scrollToResults(page);
      const n = await rowsOnScreen(page);
      expect(n, `rows on screen in Compact`).toBeGreaterThanOrEqual(20);
      // the table uses the width: no horizontal scroll at 1280
      const over = await page.evaluate(() => {
        const w = document.scrollingElement!.clientWidth;
        const wider = [...document.querySelectorAll('body *')].filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && (r.right > w + 1 || r.left < -1) && !e.closest('[data-testid=loads-table]');
        });
        return { scroll: document.scrollingElement!.scrollWidth, client: w, wider: wider.slice(0, 5).map((e) => `${e.tagName}.${e.className}`.slice(0, 120)) };
      });
      expect(over.scroll, JSON.stringify(over)).toBeLessThanOrEqual(over.client);
      await snap(page, `board-table-compact-${lang}`);
      await page.evaluate(() => scrollTo(0, 0));
    });

    it(`sorting by the price head reorders the rows, highest first (${lang})`, async () => {
      const prices = () => page.locator('[data-testid^=load-row-] [data-testid=load-card-price]').allTextContents();
      const before = (await prices()).map(amount);
      const searched = apiResponse(page, 'GET', '/loads');
      await page.getByTestId('sort-price').click();
      const res = await searched;
      expect(new URL(res.url()).searchParams.get('sort')).toBe('price');
      await eventually(async () => expect(await page.getByTestId('col-price').getAttribute('aria-sort')).toBe('descending'));
      let after: number[] = [];
      await eventually(async () => {
        after = (await prices()).map(amount);
        expect(after).toEqual([...after].sort((a, b) => b - a));
        expect(after).not.toEqual(before);
      });
      expect(after.length).toBeGreaterThanOrEqual(20);
    });

    it(`shows 50 loads a page (${lang})`, async () => {
      const searched = apiResponse(page, 'GET', '/loads');
      await pickOption(page, page.getByTestId('page-size'), lang === 'ar' ? '٥٠' : '50');
      const res = await searched;
      expect(new URL(res.url()).searchParams.get('limit')).toBe('50');
      await eventually(async () => expect(await page.locator('[data-testid^=load-row-]').count()).toBe(50));
      expect(new URL(page.url()).searchParams.get('size')).toBe('50');
    });

    it(`a row's link opens the load by click and by Enter (${lang})`, async () => {
      const row = page.locator('[data-testid^=load-row-]').first();
      const id = await row.getAttribute('data-load-id');
      await row.getByRole('link').first().click();
      await page.waitForURL(`**/carriers/loads/${id}`, { timeout: WAIT });
      await page.goBack();
      const again = page.locator('[data-testid^=load-row-]').nth(1);
      await again.waitFor({ timeout: WAIT });
      const id2 = await again.getAttribute('data-load-id');
      await again.getByRole('link').first().focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/carriers/loads/${id2}`, { timeout: WAIT });
      await page.goBack();
      await page.locator('[data-testid^=load-row-]').first().waitFor({ timeout: WAIT });
    });

    it(`on a wide screen the map sits beside the table and a hovered row highlights its pin (${lang})`, async () => {
      await page.setViewportSize({ width: 1920, height: 1080 });
      const aside = page.getByTestId('loads-map-aside');
      await aside.waitFor({ timeout: WAIT });
      await aside.locator('.leaflet-marker-icon').first().waitFor({ timeout: WAIT });
      const table = (await page.getByTestId('loads-table').boundingBox())!;
      const map = (await aside.boundingBox())!;
      // side by side: the map after the table in reading order (right in English, left in Arabic)
      if (lang === 'ar') expect(map.x + map.width).toBeLessThanOrEqual(table.x + 1);
      else expect(map.x).toBeGreaterThanOrEqual(table.x + table.width - 1);
      expect(await page.locator('.masar-map-pin-active').count()).toBe(0);
      for (const i of [0, 3]) {
        const row = page.locator('[data-testid^=load-row-]').nth(i);
        const ref = (await row.getAttribute('data-testid'))!.replace('load-row-', '');
        await row.hover();
        const pin = page.locator('.masar-map-pin-active');
        await pin.waitFor({ state: 'visible', timeout: WAIT });
        expect(await pin.getAttribute('data-active-pin')).toBe(ref);
      }
      await snap(page, `board-table-map-${lang}`);
      await page.mouse.move(5, 5);
      await eventually(async () => expect(await page.locator('.masar-map-pin-active').count()).toBe(0));
    });

    it(`a 390×844 phone shows cards, at least 3 on screen (${lang})`, async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByTestId('loads-cards').waitFor({ timeout: WAIT });
      expect(await page.getByTestId('loads-table').count()).toBe(0);
      await scrollToResults(page);
      expect(await rowsOnScreen(page), 'cards on screen').toBeGreaterThanOrEqual(3);
      const fits = await page.evaluate(() => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth);
      expect(fits, 'no page wider than the phone').toBe(true);
      await snap(page, `board-table-390-${lang}`);
      // a card's link opens its load
      const card = page.locator('[data-testid^=load-row-]').first();
      const id = await card.getAttribute('data-load-id');
      await card.getByRole('link').first().click();
      await page.waitForURL(`**/carriers/loads/${id}`, { timeout: WAIT });
    });
  });
