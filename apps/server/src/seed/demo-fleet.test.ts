import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_TYPE,
  driverInput,
  NATIONALITY_VALUES,
  PLATE_LETTER_VALUES,
  trailerInput,
  vendorInput,
  type Driver,
  type Trailer,
  type Vehicle,
  type Vendor,
} from '@masar/shared';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { newId } from '../lib/ids.ts';
import { signAccessToken } from '../lib/tokens.ts';
import { sessions } from '../db/schema/index.ts';
import { seedDemoAccounts } from './demo.ts';
import { seedDemoFleet } from './demo-fleet.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function headersOf(userId: string, accountType: number) {
  const sid = newId();
  await t.database.db.insert(sessions).values({ id: sid, familyId: sid, userId, refreshHash: newId(), expiresAt: new Date(Date.now() + 3_600_000) });
  const { token } = await signAccessToken({ sub: userId, sid, typ: 'user', at: accountType }, t.config.jwtSecret, 600);
  return { authorization: `Bearer ${token}` };
}
async function get<T>(url: string, headers: Record<string, string>) {
  const r = await t.app.inject({ url: `/api/v1${url}`, headers });
  expect(r.statusCode, `${url}: ${r.body}`).toBe(200);
  return r.json<{ data: T }>().data;
}
type Page<T> = { items: T[]; total: number };

describe('demo accounts', () => {
  it("name their plan in the reader's language", async () => {
    const ids = await seedDemoAccounts(t.app.container.services.accounts);
    const h = await headersOf(ids[ACCOUNT_TYPE.shipper], ACCOUNT_TYPE.shipper);
    const sub = (lang: string) => get<{ planCode: string; planName: string; active: boolean }>('/subscription', { ...h, 'accept-language': lang });
    expect(await sub('ar')).toMatchObject({ planCode: 'demo', planName: 'باقة العرض التوضيحي', active: true });
    expect((await sub('en')).planName).toBe('Demo plan');
  });
});

describe('demo fleet seed', () => {
  it('gives the demo carrier, broker and shipper valid fleets and vendors; idempotent', async () => {
    const ids = await seedDemoAccounts(t.app.container.services.accounts);
    const added = await seedDemoFleet(t.database.db, t.config, ids);
    expect(added).toEqual({ vehicles: 12, trailers: 8, drivers: 12, vendors: 10 });

    // ---------- carrier ----------
    const carrier = await headersOf(ids[ACCOUNT_TYPE.carrier], ACCOUNT_TYPE.carrier);
    const fleet = await get<Page<unknown> & { counts: Record<string, number> }>('/fleet?limit=100', carrier);
    expect(fleet.counts).toEqual({ all: 22, vehicles: 8, trailers: 6, drivers: 8 });
    const vehicles = (await get<Page<Vehicle>>('/vehicles?limit=100', carrier)).items;
    expect(new Set(vehicles.map((v) => v.vehicleType))).toEqual(
      new Set(['curtain_trailer', 'reefer_trailer', 'flatbed_trailer', 'box_trailer', 'lorry', 'dyna', 'tipper']),
    );
    expect(vehicles.filter((v) => v.state === 'suspended')).toHaveLength(1);
    expect(vehicles.filter((v) => v.availability === 'busy').length).toBeGreaterThan(0);
    expect(new Set(vehicles.map((v) => v.waslStatus))).toEqual(new Set(['verified', 'not_verified', 'not_submitted']));
    for (const v of vehicles) {
      expect(v.plate.digits).toMatch(/^\d{4}$/);
      for (const l of [v.plate.left, v.plate.middle, v.plate.right]) expect(PLATE_LETTER_VALUES).toContain(l);
      expect(v.imei).toMatch(/^\d{15}$/);
      if (v.weightKg < 3500) expect(v.waslStatus).toBe('not_required');
    }
    const ready = await get<Page<Vehicle>>('/vehicles/for-assignment', carrier);
    expect(ready.total).toBeGreaterThanOrEqual(1);
    expect(ready.items.every((v) => v.driverId && v.trailerId && v.availability === 'free')).toBe(true);

    const drivers = (await get<Page<Driver>>('/drivers?limit=100', carrier)).items;
    const nationalities = new Set(drivers.map((d) => d.nationality));
    for (const n of ['saudi', 'pakistani', 'indian', 'bangladeshi', 'egyptian', 'sudanese', 'yemeni']) expect(nationalities).toContain(n);
    for (const d of drivers) {
      expect(NATIONALITY_VALUES.has(d.nationality)).toBe(true);
      expect(d.driverIdNumber).toMatch(d.nationality === 'saudi' ? /^1\d{9}$/ : /^2\d{9}$/);
      expect(d.moiNumber).toMatch(/^\d{10}$/);
      // the form's own rules accept every seeded driver (age ≥ 18, licence, phones…)
      expect(
        driverInput.safeParse({
          ...d,
          managerName: d.managerName ?? undefined,
          managerPhone: d.managerPhone ?? undefined,
          companyCr: d.companyCr ?? undefined,
          moiNumber: d.moiNumber ?? undefined,
          iqamaIssueCount: d.iqamaIssueCount ?? undefined,
          photoFileId: undefined,
          iqamaFileIds: [],
          licenceFileIds: [],
        }).success,
      ).toBe(true);
    }
    const trailers = (await get<Page<Trailer>>('/trailers?limit=100', carrier)).items;
    for (const tr of trailers) expect(trailerInput.safeParse(tr).success).toBe(true);
    expect(trailers.filter((tr) => tr.vehicleId).length).toBe(5);

    // ---------- broker ----------
    const broker = await headersOf(ids[ACCOUNT_TYPE.broker], ACCOUNT_TYPE.broker);
    expect((await get<{ counts: Record<string, number> }>('/fleet', broker)).counts).toEqual({ all: 8, vehicles: 3, trailers: 2, drivers: 3 });
    const vendors = (await get<Page<Vendor>>('/vendors?limit=100', broker)).items;
    expect(vendors).toHaveLength(6);
    for (const v of vendors) {
      expect(v.userType).toBe('carrier');
      expect(v.crNumber).toMatch(/^\d{10}$/);
      expect(v.vatNumber).toMatch(/^3\d{14}$/);
      expect(v.tlNumber).toMatch(/^[A-Za-z0-9]{8,15}$/);
      expect(v.officeLocations.length).toBeGreaterThan(0);
      const nullsOut = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x ?? undefined]));
      expect(vendorInput.safeParse(nullsOut).success).toBe(true);
    }
    expect((await get<Page<Driver>>('/trusted-drivers', broker)).total).toBe(2);
    expect((await get<Page<Vehicle>>('/vehicles/for-assignment', broker)).total).toBeGreaterThanOrEqual(1);
    const hired = (await get<Page<Vehicle>>('/vehicles', broker)).items.find((v) => v.source === 'vendor');
    expect(vendors.map((v) => v.id)).toContain(hired?.vendorId);

    // ---------- shipper ----------
    const shipper = await headersOf(ids[ACCOUNT_TYPE.shipper], ACCOUNT_TYPE.shipper);
    expect((await get<Page<Vendor>>('/vendors', shipper)).total).toBe(4);
    const own = await get<Page<Vehicle>>('/vehicles', shipper);
    expect(own.total).toBe(1);
    expect(own.items[0]).toMatchObject({ source: 'own', waslStatus: 'not_required' });
    expect(own.items[0].driverId).toBeTruthy();

    // ---------- a second run adds nothing ----------
    const [before] = await t.database.query<{ n: number }>(
      'select (select count(*) from vehicles) + (select count(*) from trailers) + (select count(*) from drivers) + (select count(*) from vendors) as n',
    );
    expect(await seedDemoFleet(t.database.db, t.config, await seedDemoAccounts(t.app.container.services.accounts))).toEqual({
      vehicles: 0,
      trailers: 0,
      drivers: 0,
      vendors: 0,
    });
    const [after] = await t.database.query<{ n: number }>(
      'select (select count(*) from vehicles) + (select count(*) from trailers) + (select count(*) from drivers) + (select count(*) from vendors) as n',
    );
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
