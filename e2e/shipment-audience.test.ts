import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { apiResponse, dataOf, DEMO, option, pickCity, pickDateTime, pickOption, signIn, useLanguage, WAIT } from './helpers';

/**
 * Issue 7, in Arabic: the demo shipper posts one shipment to one of its vendors (the demo broker,
 * linked by phone) and one to its own vehicle. The vendor sees the first among its customers'
 * shipments, a carrier that is not a chosen vendor cannot open it; the own-vehicle shipment is
 * booked at once (unassigned, no truck yet) and never reaches the board.
 */
describe.skipIf(!hasChromium)('posting to a vendor and to an own vehicle (Arabic)', () => {
  let srv: RunningServer;
  let shipperCtx: BrowserContext;
  let otherCtx: BrowserContext;
  let shipper: Page;
  let other: Page;
  let vendorLoad: { id: string; referenceId: string };

  beforeAll(async () => {
    srv = await startServer();
    [shipperCtx, otherCtx] = await Promise.all([openBrowser({ locale: 'ar-SA' }), openBrowser({ locale: 'ar-SA' })]);
    await useLanguage(shipperCtx, srv.url, 'ar');
    await useLanguage(otherCtx, srv.url, 'ar');
    shipper = shipperCtx.pages()[0] ?? (await shipperCtx.newPage());
    other = otherCtx.pages()[0] ?? (await otherCtx.newPage());
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await snap(shipper, 'FAILED-audience-shipper').catch(() => undefined);
    await snap(other, 'FAILED-audience-other').catch(() => undefined);
  });

  afterAll(async () => {
    await shipperCtx?.close();
    await otherCtx?.close();
    await srv?.stop();
  });

  /** The post form with a Riyadh → Jeddah load; `audience` is the label of the shipment-type control. */
  async function fillLoad(page: Page, day: number) {
    await page.goto(`${srv.url}/shippers/post-load`);
    await page.getByRole('heading', { name: 'نشر شحنة', level: 2 }).waitFor({ timeout: WAIT });
    await pickOption(page, page.getByTestId('equipment-select'), 'دينا ثلاجة');
    await pickCity(page, page.getByTestId('stop-0-city'), 'الرياض');
    await pickDateTime(page, page.getByTestId('stop-0-date'), 1, day, '08:30');
    await page.getByTestId('stop-0-address').fill('حي السلي، طريق الخرج');
    await pickCity(page, page.getByTestId('stop-1-city'), 'جدة');
    await pickDateTime(page, page.getByTestId('stop-1-date'), 1, day + 2, '16:00');
    await pickOption(page, page.getByTestId('cargo-0-goods'), 'خضار وفواكه');
    await page.getByTestId('cargo-0-length').fill('120');
    await page.getByTestId('cargo-0-width').fill('100');
    await page.getByTestId('cargo-0-height').fill('150');
    await page.getByTestId('cargo-0-quantity').fill('10');
    await page.getByTestId('cargo-0-weight').fill('300');
    await page.getByTestId('price-input').fill('4200');
  }

  async function post(page: Page) {
    const posting = apiResponse(page, 'POST', '/loads');
    await page.getByTestId('post-load-submit').click();
    const res = await posting;
    expect(res.status(), await res.text()).toBeLessThan(300);
    return dataOf<{ id: string; referenceId: string; status: string; shipmentType: number }>(res);
  }

  it('the shipper posts a shipment that only its chosen vendor sees', async () => {
    await signIn(shipper, srv.url, DEMO.shipper, '/shippers/my-loads');
    await fillLoad(shipper, 10);
    await shipper.getByTestId('shipment-type').getByText('مورّديّ').click();
    await shipper.getByTestId('vendor-select').click();
    await option(shipper, /Ghamdi Logistics/).click();
    await shipper.keyboard.press('Escape');
    await snap(shipper, 'audience-1-vendor-form');
    const created = await post(shipper);
    expect(created).toMatchObject({ status: 'posted', shipmentType: 2 });
    vendorLoad = created;
  });

  it('the chosen vendor finds it among its customers’ shipments; a carrier outside the list cannot open it', async () => {
    await signIn(other, srv.url, DEMO.broker, '/brokers/my-loads');
    await other.goto(`${srv.url}/brokers/my-loads?tab=customers`);
    const row = other.getByTestId(`load-row-${vendorLoad.referenceId}`);
    await row.waitFor({ timeout: WAIT });
    await snap(other, 'audience-2-vendor-sees');

    // the demo carrier is not one of the shipper's vendors: the shipment does not exist for it
    await otherCtx.clearCookies();
    await other.evaluate(() => localStorage.clear());
    await signIn(other, srv.url, DEMO.carrier, '/carriers/load-search');
    const opening = apiResponse(other, 'GET', `/loads/${vendorLoad.id}`);
    await other.goto(`${srv.url}/carriers/loads/${vendorLoad.id}`);
    expect((await opening).status()).toBe(404);
  });

  it('the shipper posts a shipment for its own vehicle: booked at once, waiting for a truck', async () => {
    await fillLoad(shipper, 12);
    await shipper.getByTestId('shipment-type').getByText('مركبتي الخاصة').click();
    const created = await post(shipper);
    expect(created).toMatchObject({ status: 'unassigned', shipmentType: 3 });
    await shipper.goto(`${srv.url}/shippers/my-loads?tab=unassigned`);
    await shipper.getByTestId(`load-row-${created.referenceId}`).waitFor({ timeout: WAIT });
    await snap(shipper, 'audience-3-own-vehicle');
  });
});
