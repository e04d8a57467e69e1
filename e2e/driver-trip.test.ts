import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { DEMO, PNG_1X1, WAIT, apiClient, eventually, htmlDir, signIn, useLanguage } from './helpers';

const PNG = PNG_1X1;
/** integrations:event.load_booked in Arabic: the timeline's entry for the booking. */
const BOOKED_AR = 'حجز شحنة';

/**
 * Issue 7, the driver's trip, on a phone (390×844) in Arabic: a booked shipment with an assigned
 * vehicle (set up through the API as the demo shipper and carrier); the driver opens the job link,
 * proves phone + licence number and walks every step with the browser's (fake) geolocation,
 * uploading a proof photo at pickup and at drop; the shipper then sees both proofs on the tracking API.
 */
describe.skipIf(!hasChromium)('driver trip journey (Arabic, mobile)', () => {
  let srv: RunningServer;
  let ctx: BrowserContext;
  let page: Page;
  let shipperToken: string;
  let loadId: string;
  let jobUrl: string;
  const driver = {
    phone: `+9665${String(Math.floor(10_000_000 + Math.random() * 89_999_999))}`,
    licenceNumber: String(Math.floor(10_000_000 + Math.random() * 89_999_999)),
  };
  const RIYADH = { latitude: 24.7002, longitude: 46.7334 };
  const JEDDAH = { latitude: 21.4883, longitude: 39.181 };

  const { call, signInToken: apiSignIn } = apiClient(() => srv.url);

  beforeAll(async () => {
    srv = await startServer();
    shipperToken = await apiSignIn(DEMO.shipper);
    const carrierToken = await apiSignIn(DEMO.carrier);
    const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
    const load = await call<{ id: string }>('POST', '/loads', shipperToken, {
      loadType: 'FTL',
      equipmentType: 'flatbed_trailer',
      stops: [
        { stopType: 1, cityId: 3, date: day(1), address: 'المدينة الصناعية الثانية' },
        { stopType: 2, cityId: 18, date: day(3), address: 'طريق الميناء' },
      ],
      cargo: [{ goodsType: 'building_materials', lengthCm: 600, widthCm: 240, heightCm: 100, quantity: 2, weightPerItemKg: 1000 }],
      priceSar: '3200',
    });
    loadId = load.id;
    const offer = await call<{ id: string }>('POST', '/offers', carrierToken, { loadId, priceSar: '3100' });
    await call('POST', '/offerRespond', shipperToken, { offerId: offer.id, action: 'accept' });
    // a light truck (under 3.5 t: no WASL needed) with its driver and trailer
    const n = Math.floor(1000 + Math.random() * 8999);
    const vehicle = await call<{ id: string }>('POST', '/vehicles', carrierToken, {
      vehicleType: 'flatbed_trailer',
      year: 2022,
      make: 'Isuzu',
      model: 'NPR',
      colour: 'White',
      plateType: 3,
      plate: { digits: String(n), left: 'ب', middle: 'ح', right: 'د' },
      sequenceNumber: String(100000 + n),
      imei: `35${String(1e12 + n).padStart(13, '0')}`,
      weightKg: 3000,
    });
    const d = await call<{ id: string }>('POST', '/drivers', carrierToken, {
      salutation: 'mr',
      firstName: 'Saad',
      lastName: 'Driver',
      nationality: 'saudi',
      dateOfBirth: '1988-04-12',
      phone: driver.phone,
      licenceNumber: driver.licenceNumber,
      driverIdNumber: `1${String(Math.floor(100_000_000 + Math.random() * 899_999_999))}`,
    });
    const trailer = await call<{ id: string }>('POST', '/trailers', carrierToken, {
      trailerType: 'flatbed_trailer',
      trailerNumber: `TR-${n}`,
      lengthCm: 1360,
      breadthCm: 250,
      capacityKg: 30000,
      supportedVehicleTypes: ['flatbed_trailer'],
    });
    await call('POST', `/vehicles/${vehicle.id}/assign-driver`, carrierToken, { driverId: d.id });
    await call('POST', `/vehicles/${vehicle.id}/link-trailer`, carrierToken, { trailerId: trailer.id });
    await call('POST', '/delivery-tracking/assign-driver', carrierToken, { loadId, vehicleId: vehicle.id });
    jobUrl = (await call<{ url: string }>('GET', `/drivers/${d.id}/link`, carrierToken)).url;

    ctx = await openBrowser({ viewport: { width: 390, height: 844 }, locale: 'ar-SA' });
    await ctx.grantPermissions(['geolocation'], { origin: srv.url });
    await ctx.setGeolocation({ ...RIYADH, accuracy: 15 });
    await useLanguage(ctx, srv.url, 'ar');
    page = ctx.pages()[0] ?? (await ctx.newPage());
  });

  afterEach(async (c) => {
    if (c.task.result?.state === 'fail') await snap(page, 'FAILED-driver-trip').catch(() => undefined);
  });
  afterAll(async () => {
    await ctx?.close();
    await srv?.stop();
  });

  const next = () => page.getByTestId('trip-next');
  async function press(step: string) {
    await expect.poll(() => next().getAttribute('data-step'), { timeout: WAIT }).toBe(step);
    const saved = page.waitForResponse((r) => r.url().includes('/driver/trip/') && r.request().method() === 'POST', { timeout: WAIT });
    await next().click();
    expect((await saved).status()).toBe(201);
  }
  // one tap (issue 23): choosing the photo sends it, no button to press after
  async function uploadProof(step: string) {
    await expect.poll(() => next().getAttribute('data-step'), { timeout: WAIT }).toBe(step);
    const saved = page.waitForResponse((r) => r.url().includes('/driver/trip/proofs'), { timeout: WAIT });
    await page.locator('input[type=file]').setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: PNG });
    expect((await saved).status()).toBe(201);
  }

  it('a wrong licence number is refused; the right pair opens the job in Arabic', async () => {
    await page.goto(`${srv.url}${jobUrl}`);
    await page.getByTestId('driver-trip-page').waitFor({ timeout: WAIT });
    expect(await htmlDir(page)).toEqual({ dir: 'rtl', lang: 'ar' });
    await page.getByRole('heading', { name: 'مهمتي' }).waitFor({ timeout: WAIT });
    await page.getByTestId('trip-phone').fill(driver.phone.replace('+966', '0'));
    await page.getByTestId('trip-licence').fill('12345678');
    await page.getByTestId('trip-open').click();
    await expect.poll(() => page.getByTestId('trip-identify-error').textContent(), { timeout: WAIT }).toContain('لا يطابقان');
    await page.getByTestId('trip-licence').fill(driver.licenceNumber);
    await page.getByTestId('trip-open').click();
    await page.getByTestId('trip-job').waitFor({ timeout: WAIT });
    expect(await page.getByTestId('trip-next').textContent()).toBe('ابدأ المهمة');
    // mobile first: nothing wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, 'driver-trip-1-job');
  });

  it('walks every step with geolocation and uploads the proofs', async () => {
    await press('started');
    await press('to_pickup');
    await press('at_pickup');
    await uploadProof('pickup_proof');
    await snap(page, 'driver-trip-2-after-pickup-proof');
    await ctx.setGeolocation({ ...JEDDAH, accuracy: 15 });
    await press('to_drop');
    await press('at_drop');
    await uploadProof('drop_proof');
    await press('completed');
    await page.getByTestId('trip-done').waitFor({ timeout: WAIT });
    expect(await page.getByTestId('trip-done').textContent()).toContain('اكتملت المهمة');
    expect(await page.getByTestId('trip-job').getAttribute('data-next')).toBe('done');
    await snap(page, 'driver-trip-3-done');

    // the session survives a reload (sessionStorage); the language switch shows English
    await page.reload();
    await page.getByTestId('trip-done').waitFor({ timeout: WAIT });
    await page.getByTestId('trip-language').getByText('English').click();
    await expect.poll(() => page.getByTestId('trip-done').textContent(), { timeout: WAIT }).toContain('Job completed');
    expect(await htmlDir(page)).toEqual({ dir: 'ltr', lang: 'en' });
  });

  it('the shipper sees the steps, both proofs at their stops and the delivery', async () => {
    await eventually(async () => {
      const t = await call<{
        steps: { step: string; lat: number | null }[];
        proofs: { stop: string; flagged: boolean; distanceKm: number }[];
        deliveredAt: string | null;
      }>('GET', `/loads/${loadId}/tracking`, shipperToken);
      expect(t.steps).toHaveLength(8);
      expect(t.steps.every((s) => s.lat !== null)).toBe(true);
      expect(t.proofs.map((p) => [p.stop, p.flagged])).toEqual([
        ['pickup', false],
        ['drop', false],
      ]);
      expect(t.deliveredAt).toBeTruthy();
    });
  });

  it('the shipper opens the tracking view from the load page and godsview', async () => {
    const shipperCtx = await openBrowser({ locale: 'ar-SA' });
    try {
      await useLanguage(shipperCtx, srv.url, 'ar');
      const sp = shipperCtx.pages()[0] ?? (await shipperCtx.newPage());
      await signIn(sp, srv.url, DEMO.shipper, '/shippers/my-loads');
      await sp.goto(`${srv.url}/shippers/loads/${loadId}`);
      // the timeline names its events in Arabic (its labels live in the integrations namespace)
      await sp.getByTestId('load-timeline').waitFor({ timeout: WAIT });
      const timeline = (await sp.getByTestId('load-timeline').textContent()) ?? '';
      expect(timeline).not.toMatch(/event\.[a-z_]+/);
      expect(timeline).toContain(BOOKED_AR);
      await sp.getByTestId('load-track-link').click();
      await sp.waitForURL(`**/shippers/loads/${loadId}/track`, { timeout: WAIT });
      await sp.getByTestId('track-map').waitFor({ timeout: WAIT });
      await expect.poll(() => sp.getByTestId('tracking-proof').count(), { timeout: WAIT }).toBe(2);
      expect(await sp.locator('[data-testid=tracking-proof][data-flagged=true]').count()).toBe(0);
      expect(await sp.getByTestId('tracking-eta').textContent()).toContain('تم التسليم');
      await snap(sp, 'driver-trip-4-shipper-tracking');
      await sp.goto(`${srv.url}/shippers/godsview`);
      await sp.getByTestId('track-map').waitFor({ timeout: WAIT });
      await sp.getByTestId('godsview-shipment').first().waitFor({ timeout: WAIT });
      await snap(sp, 'driver-trip-5-godsview');
    } finally {
      await shipperCtx.close();
    }
  });
});
