import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { CSV_COLUMNS } from '@masar/shared';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { apiResponse, dataOf, DEMO, htmlDir, pickOption, signIn, useLanguage, WAIT } from './helpers';

/** A vendors CSV with the Arabic template headers (every column, blanks where a row leaves one out). */
function vendorsCsv(rows: Record<string, string>[]): string {
  const cols = CSV_COLUMNS.vendors;
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return [cols.map((c) => quote(c.ar)), ...rows.map((r) => cols.map((c) => quote(r[c.key] ?? '')))].map((l) => l.join(',')).join('\n') + '\n';
}

const vendor = (n: number, over: Record<string, string> = {}) => ({
  userType: 'carrier',
  companyName: `شركة النقل ${n}`,
  vendorName: `سعد ${n}`,
  phone: `+96655123400${n}`,
  email: `vendor${n}@nakl.sa`,
  crNumber: `101012345${n}`,
  vatNumber: `30012345670000${n}`,
  ...over,
});

const VAT_ERROR = 'الرقم الضريبي ١٥ رقماً ويبدأ بـ 3.';
const CR_ERROR = 'رقم السجل التجاري ١٠ أرقام بالضبط ولا يكون أصفاراً فقط.';

/** Issue 3, in Arabic: add a vehicle with the plate picker; import a vendors CSV with bad rows, fix them in CSV logs, see them succeed. */
describe.skipIf(!hasChromium)('fleet and CSV journeys (Arabic)', () => {
  let srv: RunningServer;
  let ctx: BrowserContext;
  let page: Page;
  let tmp: string;

  beforeAll(async () => {
    srv = await startServer();
    ctx = await openBrowser({ locale: 'ar-SA' });
    await useLanguage(ctx, srv.url, 'ar');
    page = ctx.pages()[0] ?? (await ctx.newPage());
    tmp = mkdtempSync(join(tmpdir(), 'masar-e2e-csv-'));
    await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
    expect(await htmlDir(page)).toEqual({ dir: 'rtl', lang: 'ar' });
  });

  afterEach(async (c) => {
    if (c.task.result?.state === 'fail') await snap(page, 'FAILED-fleet-csv').catch(() => undefined);
  });

  afterAll(async () => {
    await ctx?.close();
    await srv?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('a carrier adds a vehicle with the plate picker (4 digits + 3 Arabic letters) and sees it in the fleet list', async () => {
    await page.goto(`${srv.url}/carriers/fleet-management`);
    await page.getByTestId('fleet-add').click();
    await page.getByTestId('fleet-add-vehicle').click();
    await page.getByTestId('vehicle-form').waitFor({ timeout: WAIT });

    await page.getByTestId('plate-digits').fill('4821');
    // The letter buttons fill the slots in order; each names its Arabic letter.
    for (const latin of ['A', 'B', 'D']) await page.getByTestId(`plate-letter-${latin}`).click();
    expect(await page.getByTestId('plate-letters-input').inputValue()).toBe('د ب ا');
    await pickOption(page, page.getByTestId('plate-type'), 'نقل خاص');
    const preview = page.getByTestId('vehicle-form').getByTestId('plate-preview');
    expect(await preview.first().getAttribute('aria-label')).toContain('4821');

    await pickOption(page, page.getByTestId('vehicle-type'), /^دينا$/);
    await page.getByTestId('vehicle-year').fill('2022');
    await page.getByTestId('vehicle-make').fill('إيسوزو');
    await page.getByTestId('vehicle-model').fill('FVR');
    await page.getByTestId('vehicle-colour').fill('أبيض');
    await page.getByTestId('vehicle-weight').fill('12000');
    await page.getByTestId('vehicle-sequence').fill('A7731');
    await snap(page, 'fleet-1-vehicle-form');

    const saved = apiResponse(page, 'POST', '/vehicles');
    await page.getByTestId('vehicle-submit').click();
    const res = await saved;
    expect(res.status(), await res.text()).toBeLessThan(300);
    const vehicle = await dataOf<{ id: string; plate: { digits: string; left: string; middle: string; right: string } }>(res);
    expect(vehicle.plate).toMatchObject({ digits: '4821', left: 'ا', middle: 'ب', right: 'د' });

    // The drawer closes on save and the list shows the new vehicle with its plate.
    await page.getByTestId('vehicle-form').waitFor({ state: 'hidden', timeout: WAIT });
    const row = page.getByTestId(`fleet-row-${vehicle.id}`);
    await row.waitFor({ timeout: WAIT });
    expect(await row.getByTestId('plate-preview').first().getAttribute('aria-label')).toContain('4821');
    await snap(page, 'fleet-2-fleet-list');
  });

  it('a carrier imports a vendors CSV with bad rows, fixes them in CSV logs and sees them succeed', async () => {
    const file = join(tmp, 'vendors.csv');
    // Rows 2 (VAT) and 4 (CR) are bad; 1, 3 and 5 are good.
    writeFileSync(file, vendorsCsv([vendor(1), vendor(2, { vatNumber: '123' }), vendor(3), vendor(4, { crNumber: '0000000000' }), vendor(5)]));

    await page.goto(`${srv.url}/carriers/contact`);
    await page.getByTestId('csv-import-open').click();
    await page.getByTestId('csv-file-input').setInputFiles(file);
    const imported = apiResponse(page, 'POST', '/csv/import');
    await page.getByTestId('csv-import-submit').click();
    const res = await imported;
    expect(res.status(), await res.text()).toBe(202);
    const { id } = await dataOf<{ id: string }>(res);
    await page.getByTestId('csv-import-started').waitFor({ timeout: WAIT });
    await snap(page, 'csv-1-import-started');
    await page.keyboard.press('Escape');

    // The logs list refreshes itself until the import is done: 3 succeeded, 2 failed.
    await page.goto(`${srv.url}/carriers/csv-logs`);
    const log = page.getByTestId(`csv-log-${id}`);
    await log.waitFor({ timeout: WAIT });
    const cells = async () => (await log.locator('td').allTextContents()).map((s) => s.trim());
    await expect.poll(async () => (await cells()).slice(3, 6), { timeout: WAIT }).toEqual(['0', '3', '2']);
    await snap(page, 'csv-2-logs');

    await log.getByTestId('csv-log-open').click();
    await page.waitForURL((u) => u.pathname === '/carriers/csv-logs' && u.searchParams.get('log') === id, { timeout: WAIT });
    const row2 = page.getByTestId('csv-failed-row-2');
    const row4 = page.getByTestId('csv-failed-row-4');
    await row2.waitFor({ timeout: WAIT });
    await row4.waitFor();
    expect(await page.locator('[data-testid^="csv-failed-row-"]').count()).toBe(2);
    expect(await row2.textContent()).toContain(VAT_ERROR);
    expect(await row4.textContent()).toContain(CR_ERROR);
    expect(await page.getByTestId('csv-detail-failed').textContent()).toBe('2');
    await snap(page, 'csv-3-failed-rows');

    await page.getByTestId('fix-row-2-vatNumber').fill('300123456700002');
    await page.getByTestId('fix-row-4-crNumber').fill('1010123454');
    const retried = apiResponse(page, 'POST', `/csv/logs/${id}/retry`);
    await page.getByTestId('csv-resubmit').click();
    expect((await retried).status()).toBeLessThan(300);

    await page.getByTestId('csv-no-failed-rows').waitFor({ timeout: WAIT });
    await expect.poll(() => page.getByTestId('csv-detail-succeeded').textContent(), { timeout: WAIT }).toBe('5');
    expect(await page.getByTestId('csv-detail-failed').textContent()).toBe('0');
    await snap(page, 'csv-4-fixed');

    // Back on the list the counts follow; the fixed vendors are among my vendors.
    await page.getByTestId('csv-log-back').click();
    await expect.poll(async () => (await cells()).slice(3, 6), { timeout: WAIT }).toEqual(['0', '5', '0']);
    await page.goto(`${srv.url}/carriers/contact`);
    await page.getByText('شركة النقل 4').first().waitFor({ timeout: WAIT });
  });
});
