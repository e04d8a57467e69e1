import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, PROFILE_STATUS } from '@masar/shared';
import { loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { vehicleBody } from '../src/modules/fleet/fleet.testkit.ts';
import { vendorBody } from '../src/modules/vendors/vendors.testkit.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser } from './fixtures.ts';

/**
 * Which writes a pending account may make (issue 6, lib/access.ts): it prepares (fleet, vendors,
 * profile) but does not trade (loads, offers) — enforced in the services, not only by routes.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const pendingOf = (id: string, accountType: 1 | 2 | 3) => ({
  id,
  accountType,
  status: PROFILE_STATUS.pending,
  isFirstTimeApproved: false,
  companyName: 'Pending Co',
  activeSubscriptionId: 'sub',
});

describe('a pending account', () => {
  it('may prepare: add a vehicle and a vendor, edit its profile', async () => {
    const broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker, approved: false });
    const v = await t.app.inject({ method: 'POST', url: '/api/v1/vehicles', headers: broker.headers, payload: vehicleBody() as object });
    expect(v.statusCode, v.body).toBe(201);
    const vendor = await t.app.inject({ method: 'POST', url: '/api/v1/vendors', headers: broker.headers, payload: vendorBody() as object });
    expect(vendor.statusCode, vendor.body).toBe(201);
    const profile = await t.app.inject({ method: 'PATCH', url: '/api/v1/account', headers: broker.headers, payload: { companyName: 'Ready Soon Co' } });
    expect(profile.statusCode, profile.body).toBe(200);
  });

  it('may not trade, even when a service is called directly (CSV import, jobs, future routes)', async () => {
    const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const load = await postLoad(t.app, shipper.headers);
    const { loads, offers } = t.app.container.services;
    const pendingShipper = pendingOf(shipper.id, 1);
    await expect(loads.create(pendingShipper, loadBody() as never)).rejects.toMatchObject({ code: 'ACCOUNT_NOT_APPROVED' });
    await expect(loads.repost(pendingShipper, load.id, undefined)).rejects.toMatchObject({ code: 'ACCOUNT_NOT_APPROVED' });
    await expect(loads.duplicate(pendingShipper, load.id)).rejects.toMatchObject({ code: 'ACCOUNT_NOT_APPROVED' });
    await expect(loads.update(pendingShipper, load.id, { comments: 'x' })).rejects.toMatchObject({ code: 'ACCOUNT_NOT_APPROVED' });
    const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, approved: false });
    await expect(offers.create(pendingOf(carrier.id, 2), { loadId: load.id, priceSar: '2500.00' })).rejects.toMatchObject({ code: 'ACCOUNT_NOT_APPROVED' });
    const viaApi = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: carrier.headers, payload: { loadId: load.id, priceSar: '2500' } });
    expect(viaApi.statusCode).toBe(403);
    expect(viaApi.json().code).toBe('ACCOUNT_NOT_APPROVED');
    const [{ n }] = await t.database.query<{ n: number }>('select count(*)::int as n from offers where load_id = $1', [load.id]);
    expect(n).toBe(0);
  });
});
