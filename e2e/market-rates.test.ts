import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { DEMO, pickCity, signIn, useLanguage, WAIT } from './helpers';

/**
 * Issue 20, in Arabic: a demo shipper opens market rates for Riyadh → Jeddah and sees the lane's
 * figure (from the demo's year of rate history) and the 13-month history as a table.
 */
describe.skipIf(!hasChromium)('market rates journey (Arabic)', () => {
  let srv: RunningServer;
  let ctx: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    srv = await startServer();
    ctx = await openBrowser({ locale: 'ar-SA' });
    await useLanguage(ctx, srv.url, 'ar');
    page = ctx.pages()[0] ?? (await ctx.newPage());
  });

  afterEach(async (c) => {
    if (c.task.result?.state === 'fail') await snap(page, 'FAILED-market-rates').catch(() => undefined);
  });

  afterAll(async () => {
    await ctx?.close();
    await srv?.stop();
  });

  it('Riyadh → Jeddah: a figure on the city lane and the history table', async () => {
    await signIn(page, srv.url, DEMO.shipper, '/shippers/my-loads');
    await page.goto(`${srv.url}/shippers/market-rates`);
    await pickCity(page, page.getByTestId('rates-origin'), 'الرياض');
    await pickCity(page, page.getByTestId('rates-destination'), 'جدة');
    const figure = page.getByTestId('rates-figure');
    await figure.waitFor({ timeout: WAIT });
    const average = (await page.getByTestId('rates-average').textContent()) ?? '';
    // SAR in Arabic-Indic digits, no Western digit
    expect(average).toMatch(/[٠-٩]/);
    expect(average).not.toMatch(/[0-9]/);
    expect(await page.getByTestId('rates-sample').textContent()).toContain('الرياض');
    await snap(page, 'market-rates-1-figure');

    await page.getByTestId('rates-history').getByText('جدول', { exact: true }).click();
    const table = page.getByTestId('rates-history-table');
    await table.waitFor({ timeout: WAIT });
    expect(await table.locator('tbody tr').count()).toBe(13);
    await snap(page, 'market-rates-2-history-table');
  });
});
