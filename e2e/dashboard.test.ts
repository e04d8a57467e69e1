import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { dataOf, DEMO, eventually, signIn, useLanguage, WAIT } from './helpers';

/**
 * Issue 20 "Dashboards", in Arabic: the demo shipper opens its dashboard (the first menu item,
 * figures from the demo data's events), switches This Week → This Year, sees the statistic cards
 * and the spend-by-lane chart as a table.
 */
describe.skipIf(!hasChromium)('dashboard journey (Arabic)', () => {
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
    if (c.task.result?.state === 'fail') await snap(page, 'FAILED-dashboard').catch(() => undefined);
  });

  /** The answer to GET /dashboard?period=… (the shared apiResponse matches the path alone). */
  const dashboardResponse = (period: string) =>
    page.waitForResponse(
      (r) => {
        const u = new URL(r.url());
        return u.pathname === '/api/v1/dashboard' && u.searchParams.get('period') === period;
      },
      { timeout: WAIT },
    );

  afterAll(async () => {
    await ctx?.close();
    await srv?.stop();
  });

  it('the demo shipper sees its figures, switches to This Year and reads spend by lane as a table', async () => {
    await signIn(page, srv.url, DEMO.shipper, '/shippers/my-loads');
    // the dashboard is the first item of the menu; the demo data's events are drained in the
    // background after start, so the page is reloaded until they are counted
    await page.goto(`${srv.url}/shippers/dashboard`);
    await eventually(async () => {
      await page.reload();
      const v = await page.getByTestId('stat-loads_posted-value').innerText({ timeout: WAIT });
      expect(v).not.toBe('٠');
    }, 60_000);
    const week = dashboardResponse('week');
    await page.getByTestId('dashboard-period').getByText('هذا الأسبوع').click();
    expect((await week).status()).toBe(200);
    await page.getByTestId('stat-loads_posted').waitFor({ timeout: WAIT });
    await expect.poll(() => page.getByTestId('dashboard').getAttribute('data-period'), { timeout: WAIT }).toBe('week');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    // six statistic cards, labelled in Arabic
    for (const key of ['loads_posted', 'loads_assigned', 'loads_open', 'loads_expired', 'avg_offers_per_load', 'final_value'])
      await page.getByTestId(`stat-${key}`).waitFor({ timeout: WAIT });
    await expect.poll(() => page.getByTestId('stat-final_value').innerText()).toContain('إجمالي الإنفاق');

    const year = dashboardResponse('year');
    await page.getByTestId('dashboard-period').getByText('هذا العام').click();
    const d = await dataOf<{ range: { period: string }; shipper: { stats: { loads_posted: { value: number } }; spendByLane: unknown[] } }>(await year);
    expect(d.range.period).toBe('year');
    await expect.poll(() => page.getByTestId('dashboard').getAttribute('data-period'), { timeout: WAIT }).toBe('year');
    // the demo shipper's loads, counted from the seed's events; the figure in Arabic digits
    expect(d.shipper.stats.loads_posted.value).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('stat-loads_posted-value').innerText()).toMatch(/^[\u0660-\u0669٬]+$/);
    expect(d.shipper.spendByLane.length).toBeGreaterThan(0);

    await page.getByTestId('spend-by-lane-view').getByText('جدول').click();
    const table = page.getByTestId('spend-by-lane-table');
    await table.waitFor({ timeout: WAIT });
    expect(await table.locator('tbody tr').count()).toBe(d.shipper.spendByLane.length);
    expect(await table.locator('th').first().innerText()).toBe('المسار');
    expect(await table.locator('tbody tr').first().innerText()).toContain('←');
    await snap(page, 'dashboard-shipper-year-ar');
  });
});
