/**
 * Regenerates docs/screens/trip-*.png: one demo shipment from booked to completed as the people
 * walk it (issue 7) — the carrier assigns a truck and files the Bayan trip on the shipment page,
 * the driver runs the job link on a phone in Arabic, the shipper follows it on the tracking view,
 * the carrier closes the Bayan and the shipment completes. Light theme; desktop 1280×800, the
 * driver at 390×844. State changes the screenshots do not show go through the API.
 *   npm run build && node --import tsx e2e/trip-screens.ts
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openBrowser, ROOT, startServer } from './harness';
import { apiClient, DEMO, PNG_1X1, signIn, useLanguage, WAIT } from './helpers';

const dir = join(ROOT, 'docs/screens');
mkdirSync(dir, { recursive: true });
const PNG = PNG_1X1;
const srv = await startServer();
const { call, signInToken: token } = apiClient(() => srv.url);
const shot = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(dir, `${name}.png`) });
  console.log(`wrote docs/screens/${name}.png`);
};

try {
  const carrierToken = await token(DEMO.carrier);
  const booked = await call<{ items: { id: string; stops: { lat: number; lng: number }[] }[] }>('GET', '/my-loads?tab=unassigned&limit=1', carrierToken);
  const load = booked.items[0];
  const ctx = await openBrowser({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  await useLanguage(ctx, srv.url, 'en');
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.addInitScript("localStorage.setItem('theme', 'light')");
  await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');

  // 1–3: the carrier assigns a ready truck from the shipment page
  await page.goto(`${srv.url}/carriers/loads/${load.id}`);
  await page.getByTestId('assignment-panel').waitFor({ timeout: WAIT });
  await shot(page, 'trip-1-booked');
  await page.getByTestId('assign-open').click();
  await page.locator('[data-testid^="vehicle-option-"][data-ready="true"]').first().click();
  await shot(page, 'trip-2-assign');
  await page.getByTestId('assign-confirm').click();
  await page.getByTestId('assignment-details').waitFor({ timeout: WAIT });

  // 4: the Bayan trip and its waybill number on the shipment
  await call('POST', '/bayan/trips', carrierToken, { loadId: load.id });
  await page.reload();
  await page.getByTestId('assignment-details').waitFor({ timeout: WAIT });
  await shot(page, 'trip-3-bayan');

  // 5: the driver's job link on a phone, in Arabic
  const a = await call<{ driver: { id: string } }>('GET', `/delivery-tracking/${load.id}`, carrierToken);
  const driver = await call<{ phone: string; licenceNumber: string }>('GET', `/drivers/${a.driver.id}`, carrierToken);
  const link = await call<{ url: string; token: string }>('GET', `/drivers/${a.driver.id}/link`, carrierToken);
  const phone = await openBrowser({ viewport: { width: 390, height: 844 }, locale: 'ar-SA' });
  await phone.grantPermissions(['geolocation'], { origin: srv.url });
  await phone.setGeolocation({ latitude: load.stops[0].lat, longitude: load.stops[0].lng, accuracy: 15 });
  await useLanguage(phone, srv.url, 'ar');
  const d = phone.pages()[0] ?? (await phone.newPage());
  await d.addInitScript("localStorage.setItem('theme', 'light')");
  await d.goto(`${srv.url}${link.url}`);
  await d.getByTestId('trip-phone').fill(driver.phone.replace('+966', '0'));
  await d.getByTestId('trip-licence').fill(driver.licenceNumber);
  await d.getByTestId('trip-open').click();
  await d.getByTestId('trip-job').waitFor({ timeout: WAIT });
  // the steps to the pickup proof, then the phone shows what comes next
  const session = await call<{ sessionToken: string }>('POST', '/driver/trip/session', null, {
    token: link.token,
    phone: driver.phone,
    licenceNumber: driver.licenceNumber,
  });
  const trip = { 'x-trip-token': session.sessionToken };
  const [pickup, drop] = [load.stops[0], load.stops[load.stops.length - 1]];
  for (const step of ['started', 'to_pickup', 'at_pickup']) await call('POST', '/driver/trip/steps', null, { loadId: load.id, step, ...pickup }, trip);
  await d.reload();
  await d
    .getByTestId('trip-open')
    .click()
    .catch(() => undefined);
  await d.getByTestId('trip-job').waitFor({ timeout: WAIT });
  await shot(d, 'trip-4-driver-phone');

  async function proof(stop: 'pickup' | 'drop', at: { lat: number; lng: number }) {
    const form = new FormData();
    form.set('loadId', load.id);
    form.set('stop', stop);
    form.set('lat', String(at.lat));
    form.set('lng', String(at.lng));
    form.set('file', new Blob([PNG], { type: 'image/png' }), 'proof.png');
    const r = await fetch(`${srv.url}/api/v1/driver/trip/proofs`, { method: 'POST', headers: trip, body: form });
    if (!r.ok) throw new Error(`proof ${stop}: ${r.status} ${await r.text()}`);
  }
  await proof('pickup', pickup);
  for (const step of ['to_drop', 'at_drop']) await call('POST', '/driver/trip/steps', null, { loadId: load.id, step, ...drop }, trip);
  await proof('drop', drop);
  await call('POST', '/driver/trip/steps', null, { loadId: load.id, step: 'completed', ...drop }, trip);

  // 6: the tracking view (trail, ETA, proofs)
  await page.goto(`${srv.url}/carriers/loads/${load.id}/track`);
  await page.locator('.leaflet-container').first().waitFor({ timeout: WAIT });
  await shot(page, 'trip-5-tracking');

  // 7: the Bayan closed from More Options: the shipment is completed
  const bayan = await call<{ bayan: { id: string } }>('GET', `/bayan/trips?loadId=${load.id}`, carrierToken);
  await call('POST', `/bayan/trips/${bayan.bayan.id}/close`, carrierToken, { deliveredAt: new Date().toISOString() });
  await page.goto(`${srv.url}/carriers/loads/${load.id}`);
  await page.getByTestId('status-completed').first().waitFor({ timeout: WAIT });
  await shot(page, 'trip-6-completed');
  await page.goto(`${srv.url}/carriers/bayan`);
  await page.waitForLoadState('networkidle');
  await shot(page, 'trip-7-bayan-list');
  await phone.close();
  await ctx.close();
} finally {
  await srv.stop();
}
