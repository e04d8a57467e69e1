import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { apiResponse, dataOf, DEMO, pickCity, pickOption, signIn, useLanguage, WAIT } from './helpers';

/**
 * Issue 19, in Arabic: a carrier posts a truck from its fleet; a shipper finds it on the truck
 * board's map and tenders one of its loads to it ("Offer this truck a load"); the carrier accepts
 * in its Tendering tab; the shipper awards it and the load is booked.
 */
describe.skipIf(!hasChromium)('tendering journey (Arabic)', () => {
  let srv: RunningServer;
  let carrierCtx: BrowserContext;
  let shipperCtx: BrowserContext;
  let carrier: Page;
  let shipper: Page;
  let truck: { id: string; referenceId: string };
  let tender: { id: string; loadReferenceId: string };

  beforeAll(async () => {
    srv = await startServer();
    [carrierCtx, shipperCtx] = await Promise.all([openBrowser({ locale: 'ar-SA' }), openBrowser({ locale: 'ar-SA' })]);
    await useLanguage(carrierCtx, srv.url, 'ar');
    await useLanguage(shipperCtx, srv.url, 'ar');
    carrier = carrierCtx.pages()[0] ?? (await carrierCtx.newPage());
    shipper = shipperCtx.pages()[0] ?? (await shipperCtx.newPage());
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await snap(carrier, 'FAILED-tendering-carrier').catch(() => undefined);
    await snap(shipper, 'FAILED-tendering-shipper').catch(() => undefined);
  });

  afterAll(async () => {
    await carrierCtx?.close();
    await shipperCtx?.close();
    await srv?.stop();
  });

  it('a carrier posts a truck from its fleet, available from Tabuk to anywhere', async () => {
    await signIn(carrier, srv.url, DEMO.carrier, '/carriers/load-search');
    await carrier.goto(`${srv.url}/carriers/post-trucks`);
    await carrier.getByTestId('truck-new').click();
    const form = carrier.getByTestId('truck-form');
    await form.waitFor({ timeout: WAIT });
    await pickOption(carrier, carrier.getByTestId('truck-equipment'), 'دينا ثلاجة');
    // availability: the 10th to the 12th of next month
    await carrier.getByTestId('truck-dates').click();
    const dd = carrier.locator('[data-dates-dropdown]:visible');
    await dd.waitFor({ state: 'visible', timeout: WAIT });
    await dd.locator('button[data-direction="next"]').click();
    const day = (n: number) =>
      dd
        .locator('table button:not([data-outside]):not([data-disabled])')
        .filter({ hasText: new RegExp(`^(${n}|${String(n).replace(/\d/g, (d) => String.fromCharCode(0x660 + Number(d)))})$`) })
        .first();
    await day(10).click();
    await day(12).click();
    await pickCity(carrier, carrier.getByTestId('truck-origin'), 'تبوك');
    await carrier.getByTestId('truck-rate').fill('3000');
    await carrier.getByTestId('truck-capacity').fill('12000');
    // a vehicle of the demo fleet: its plate and WASL status go with the post
    await carrier.getByTestId('truck-vehicle').click();
    const vehicle = carrier.getByRole('option').nth(1);
    await vehicle.waitFor({ state: 'visible', timeout: WAIT });
    await vehicle.click();
    const posting = apiResponse(carrier, 'POST', '/truck');
    await carrier.getByTestId('truck-submit').click();
    const res = await posting;
    expect(res.status(), await res.text()).toBe(201);
    const created = await dataOf<{ id: string; referenceId: string; status: string; vehicle: { id: string } | null; origin: { nameAr: string } }>(res);
    expect(created).toMatchObject({ status: 'posted', origin: { nameAr: 'تبوك' } });
    expect(created.vehicle).not.toBeNull();
    truck = created;
    await carrier.getByTestId('my-trucks').getByTestId('truck-card').first().waitFor({ timeout: WAIT });
    await snap(carrier, 'tendering-1-truck-posted');
  });

  it('a shipper finds the truck on the map and tenders a load to its carrier', async () => {
    await signIn(shipper, srv.url, DEMO.shipper, '/shippers/my-loads');
    await shipper.goto(`${srv.url}/shippers/search-trucks`);
    await pickCity(shipper, shipper.getByTestId('truck-search-origin'), 'تبوك');
    await shipper.getByTestId('truck-search-submit').click();
    await shipper.getByTestId('truck-view-toggle').getByText('خريطة', { exact: true }).click();
    const marker = shipper.locator(`.leaflet-marker-icon[title="${truck.referenceId}"]`);
    await marker.waitFor({ state: 'visible', timeout: WAIT });
    await marker.click();
    await shipper
      .locator('.leaflet-popup')
      .getByRole('button', { name: new RegExp(truck.referenceId) })
      .click();
    const offer = shipper.getByTestId('offer-truck-load');
    await offer.waitFor({ state: 'visible', timeout: WAIT });
    await offer.click();
    const dialog = shipper.getByRole('dialog', { name: 'اطرح شحنة' });
    await dialog.waitFor({ state: 'visible', timeout: WAIT });
    await dialog.getByTestId('tender-load').click();
    const load = shipper.getByRole('option').first();
    await load.waitFor({ state: 'visible', timeout: WAIT });
    await load.click();
    await shipper.getByTestId('tender-target').fill('3200');
    const sending = apiResponse(shipper, 'POST', '/tenders');
    await shipper.getByTestId('tender-submit').click();
    const res = await sending;
    expect(res.status(), await res.text()).toBe(201);
    tender = await dataOf<{ id: string; loadReferenceId: string }>(res);
    expect(tender.loadReferenceId).toBeTruthy();
    await snap(shipper, 'tendering-2-tender-sent');
  });

  it('the carrier accepts in its Tendering tab and the shipper awards it: the load is booked', async () => {
    await carrier.goto(`${srv.url}/carriers/tendering-shipment`);
    const card = carrier.getByTestId(`tender-${tender.loadReferenceId}`);
    await card.waitFor({ timeout: WAIT });
    const answering = apiResponse(carrier, 'POST', /\/tenders\/[^/]+\/answer/);
    await card.getByTestId('answer-accept').click();
    const answered = await answering;
    expect(answered.status(), await answered.text()).toBe(200);
    await snap(carrier, 'tendering-3-accepted');

    await shipper.goto(`${srv.url}/shippers/tendering-shipment`);
    const sent = shipper.getByTestId(`tender-${tender.loadReferenceId}`);
    await sent.waitFor({ timeout: WAIT });
    await sent.getByTestId('award').first().click();
    const awarding = apiResponse(shipper, 'POST', /\/tenders\/[^/]+\/award/);
    await shipper.getByTestId('award-confirm').click();
    const awarded = await awarding;
    expect(awarded.status(), await awarded.text()).toBe(200);
    const after = await dataOf<{ status: string }>(awarded);
    expect(after.status).toBe('awarded');
    await snap(shipper, 'tendering-4-awarded');
  });
});
