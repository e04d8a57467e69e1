/**
 * Screenshots of the capacity side (issue 19) into docs/screens/: the truck board (list and map),
 * the shipper's Tendering page with an accepted answer, and Truck In/Out — in English and Arabic,
 * light and dark, at 1280×800 and on a 390×844 phone (`trucks-map-ar.png`, `tendering-en-390.png` …).
 * The set-up (three trucks out of Tabuk, a tender the carrier accepted) goes through the API.
 *   npm run build && node --import tsx e2e/capacity-screens.ts
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openBrowser, ROOT, startServer } from './harness';
import { apiClient, DEMO, pickCity, signIn, useLanguage, WAIT } from './helpers';

const dir = join(ROOT, 'docs/screens');
mkdirSync(dir, { recursive: true });
const TABUK = 1;
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
  const { call, signInToken } = apiClient(() => srv.url);
  const carrier = await signInToken(DEMO.carrier);
  const shipper = await signInToken(DEMO.shipper);
  const carrierId = (await call<{ id: string }>('GET', '/accountDetails', carrier)).id;
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
  for (const [i, eq] of ['reefer_truck', 'flatbed_trailer', 'curtain_trailer'].entries())
    await call('POST', '/truck', carrier, {
      loadType: 'FTL',
      equipmentType: eq,
      availableFrom: day(2 + i),
      availableTo: day(4 + i),
      originCityId: TABUK,
      anywhere: i !== 1,
      ...(i === 1 ? { destinationCityIds: [3] } : {}),
      minRateSar: String(2800 + 300 * i),
      rateBasis: 'trip',
      capacityKg: 12_000 + 4_000 * i,
    }).catch((e: unknown) => console.warn(String(e)));
  const [load] = (await call<{ items: { id: string }[] }>('GET', '/my-loads?tab=posted&limit=1', shipper)).items;
  const tender = await call<{ id: string }>('POST', '/tenders', shipper, { loadId: load.id, carrierIds: [carrierId], deadline: day(1), targetRateSar: '3200' });
  await call('POST', `/tenders/${tender.id}/answer`, carrier, { action: 'accept' });

  const shoot = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(dir, name) });
  };
  for (const { lang, width, theme } of SHOTS) {
    const suffix = `${lang}${width === 390 ? '-390' : ''}${theme === 'dark' ? '-dark' : ''}`;
    const ctx = await openBrowser({ viewport: { width, height: width === 390 ? 844 : 800 }, locale: lang === 'ar' ? 'ar-SA' : 'en-US' });
    await useLanguage(ctx, srv.url, lang);
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.addInitScript(`localStorage.setItem('theme', '${theme}')`);
    await signIn(page, srv.url, DEMO.shipper, '/shippers/my-loads');
    await page.goto(`${srv.url}/shippers/search-trucks?originCityId=${TABUK}&radius=100`);
    // the results table on 1280, the truck cards on 390
    await page.locator('[data-testid=trucks-table], [data-testid=truck-card]').first().waitFor({ timeout: WAIT });
    await shoot(page, `trucks-${suffix}.png`);
    if (width === 1280) {
      await page
        .getByTestId('truck-view-toggle')
        .getByText(lang === 'ar' ? 'خريطة' : 'Map', { exact: true })
        .click();
      await page.locator('.leaflet-marker-icon').first().waitFor({ timeout: WAIT });
      await shoot(page, `trucks-map-${suffix}.png`);
    }
    await page.goto(`${srv.url}/shippers/tendering-shipment`);
    await page.locator('[data-testid^="tender-LD"]').first().waitFor({ timeout: WAIT });
    await shoot(page, `tendering-${suffix}.png`);
    await page.goto(`${srv.url}/shippers/truck-in-truck-out`);
    await pickCity(page, page.getByTestId('inout-city'), lang === 'ar' ? 'تبوك' : 'Tabuk');
    await page.getByTestId('inout-submit').click();
    await page.getByTestId('inout-tab-out').click();
    await page.getByTestId('inout-results').getByTestId('truck-card').first().waitFor({ timeout: WAIT });
    await shoot(page, `truck-in-out-${suffix}.png`);
    await ctx.close();
  }
} finally {
  await srv.stop();
}
console.log(`screenshots in ${dir}`);
