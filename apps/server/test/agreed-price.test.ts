import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, ratePerKmSar, type Load } from '@masar/shared';
import { postLoad } from '../src/modules/loads/loads.testkit.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * The agreed price (issue 22), on PGlite and PostgreSQL: after a counter offer is accepted the
 * load carries the agreed (booked) price, and the loads export shows it as the price — with its
 * own rate per km — and the posted price beside it in a "posted" column, in English and Arabic.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let load: Load;
beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  const posted = await postLoad(t.app, shipper.headers);
  const post = (u: TestUser, url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: u.headers, payload });
  const bid = await post(carrier, '/offers', { loadId: posted.id, priceSar: '3400' });
  expect(bid.statusCode, bid.body).toBe(201);
  const offerId = bid.json().data.id as string;
  expect((await post(shipper, '/offerRespond', { offerId, action: 'counter', priceSar: '3250' })).statusCode).toBe(200);
  const accepted = await post(carrier, '/offerRespond', { offerId, action: 'accept' });
  expect(accepted.statusCode, accepted.body).toBe(200);
  load = (await t.app.inject({ url: `/api/v1/loads/${posted.id}`, headers: shipper.headers })).json<{ data: Load }>().data;
});
afterAll(() => t?.close());

describe('after a counter offer is accepted', () => {
  it('the load has the agreed price as bookedPriceSar and keeps the posted one as priceSar', () => {
    expect(load).toMatchObject({ priceSar: '3000.00', bookedPriceSar: '3250.00', carrierId: carrier.id });
  });

  for (const [lang, priceHead, postedHead, rateHead] of [
    ['en', 'Price (SAR)', 'Posted price (SAR)', 'Rate per km'],
    ['ar', 'السعر (ريال)', 'السعر المعلن (ريال)', 'السعر لكل كم'],
  ] as const) {
    it(`the loads export shows the agreed price, its rate per km, and the posted price labelled "posted" (${lang})`, async () => {
      const r = await t.app.inject({ url: `/api/v1/csv/export/loads?lang=${lang}`, headers: shipper.headers });
      expect(r.statusCode, r.body).toBe(200);
      const [head, ...rows] = Papa.parse<string[]>(r.body.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
      const row = rows.find((x) => x.includes(load.referenceId))!;
      expect(row).toBeTruthy();
      const cell = (h: string) => row[head.indexOf(h)];
      expect(cell(priceHead)).toBe('3250.00');
      expect(cell(postedHead)).toBe('3000.00');
      expect(cell(rateHead)).toBe(ratePerKmSar('3250.00', load.distanceKm));
      expect(cell(rateHead)).not.toBe(load.ratePerKmSar);
    });
  }
});
