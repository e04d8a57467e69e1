import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { apiResponse, dataOf, DEMO, pickCity, signIn, useLanguage, WAIT } from './helpers';

/**
 * Issue 20, in Arabic: a guest opens the public rate forecast for Riyadh → Jeddah, reads the three
 * loading texts of spec §2 in sequence, then the chart with its band, the table view and the
 * measured error; a shipper creates a rate-change alert on the lane and finds it in the list.
 * The lane's daily aggregates are written by e2e/seed-lane-rates.ts (until the demo has a history).
 */
describe.skipIf(!hasChromium)('rate forecast and alerts journey (Arabic)', () => {
  let srv: RunningServer;
  let ctx: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    srv = await startServer();
    await srv.script('e2e/seed-lane-rates.ts', '3', '18', '180');
    ctx = await openBrowser({ locale: 'ar-SA' });
    await useLanguage(ctx, srv.url, 'ar');
    page = ctx.pages()[0] ?? (await ctx.newPage());
  });

  afterEach(async (c) => {
    if (c.task.result?.state === 'fail') await snap(page, 'FAILED-forecast').catch(() => undefined);
  });

  afterAll(async () => {
    await ctx?.close();
    await srv?.stop();
  });

  it('a guest sees the loading texts in sequence, then the forecast of Riyadh → Jeddah as a chart and a table', async () => {
    await page.goto(`${srv.url}/rate-forecast`);
    await pickCity(page, page.getByTestId('forecast-origin'), 'الرياض');
    await pickCity(page, page.getByTestId('forecast-destination'), 'جدة');
    const answer = apiResponse(page, 'GET', /\/rates\/forecast/);
    await page.getByTestId('forecast-submit').click();
    const text = page.getByTestId('forecast-loading-text');
    await expect.poll(() => text.textContent(), { timeout: WAIT }).toBe('جارٍ جمع البيانات…');
    await expect.poll(() => text.textContent(), { timeout: WAIT }).toBe('جارٍ تحليل البيانات…');
    await expect.poll(() => text.textContent(), { timeout: WAIT }).toBe('سعرك في الطريق…');
    const res = await answer;
    expect(res.status()).toBe(200);
    const f = await dataOf<{ model: string; daily: unknown[]; weekly: unknown[] }>(res);
    expect(f.model).toBe('mstl_ets');
    const result = page.getByTestId('forecast-result');
    await result.waitFor({ timeout: WAIT });
    expect(await page.getByTestId('forecast-lane').textContent()).toBe('الرياض ← جدة');
    // the chart draws (recharts SVG) and the measured error is stated in Arabic-Indic digits
    await page.locator('[data-testid="forecast-chart"] svg.recharts-surface').first().waitFor({ timeout: WAIT });
    const measured = await page.getByTestId('forecast-measured').textContent();
    expect(measured).toMatch(/^ابتعدت توقعاتنا على هذا المسار/);
    expect(measured).toMatch(/[٠-٩]/);
    expect(await page.getByTestId('forecast-weekly').locator('tbody tr').count()).toBe(12);
    await snap(page, 'forecast-1-chart');
    await page.getByTestId('forecast-view').getByText('جدول').click();
    const table = page.getByTestId('forecast-table');
    await table.waitFor({ timeout: WAIT });
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(8);
    await snap(page, 'forecast-2-table');
  });

  it('a shipper creates a rate-change alert on the lane and sees it listed', async () => {
    await signIn(page, srv.url, DEMO.shipper, '/shippers/my-loads');
    await page.goto(`${srv.url}/shippers/rate-change-alerts`);
    await page.getByTestId('alerts-empty').waitFor({ timeout: WAIT });
    await pickCity(page, page.getByTestId('alert-origin'), 'الرياض');
    await pickCity(page, page.getByTestId('alert-destination'), 'جدة');
    await page.getByTestId('alert-threshold').fill('15');
    const created = apiResponse(page, 'POST', '/rateAlerts');
    await page.getByTestId('alert-submit').click();
    const res = await created;
    expect(res.status(), await res.text()).toBe(201);
    const card = page.getByTestId('alert-card').first();
    await card.waitFor({ timeout: WAIT });
    expect(await card.getByTestId('alert-lane').textContent()).toBe('الرياض ← جدة');
    expect(await card.textContent()).toContain('١٥٪');
    await snap(page, 'forecast-3-alert');
  });
});
