import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Driver, type FleetItem, type Trailer, type Vehicle } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { apiCaller, createUser, type TestUser } from '../../../test/fixtures.ts';
import { driverBody, trailerBody, vehicleBody } from './fleet.testkit.ts';

let t: TestContext;
let carrier: TestUser;
let other: TestUser;
let shipper: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, approved: false, plan: false });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const { call } = apiCaller(() => t);
const create = async <T>(url: string, headers: Headers, payload: unknown) => {
  const r = await call<T>('POST', url, headers, payload);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data;
};

describe('vehicles', () => {
  it('creates a vehicle, normalising plate aliases and Arabic digits, with WASL status from weight', async () => {
    const v = await create<Vehicle>('/vehicles', carrier.headers, vehicleBody({ plate: { digits: '٤٥٦٧', left: 'أ', middle: 'هـ', right: 'ي' } }));
    expect(v.plate).toEqual({ digits: '4567', left: 'ا', middle: 'ه', right: 'ى' });
    expect(v.plateLatin).toBe('AHV');
    expect(v.waslStatus).toBe('not_submitted');
    expect(v.state).toBe('active');
    expect(v.availability).toBe('free');
    const small = await create<Vehicle>('/vehicles', carrier.headers, vehicleBody({ weightKg: 3000 }));
    expect(small.waslStatus).toBe('not_required');
  });

  it('rejects a duplicate plate (also across owners, and via alias spelling) with the spec message', async () => {
    const body = vehicleBody({ plate: { digits: '7001', left: 'ا', middle: 'ب', right: 'ى' } });
    await create<Vehicle>('/vehicles', carrier.headers, body);
    const again = await call(
      'POST',
      '/vehicles',
      { ...other.headers, language: 'en' },
      vehicleBody({ plate: { digits: '7001', left: 'إ', middle: 'B', right: 'ي' } }),
    );
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('DUPLICATE_PLATE');
    expect(again.body.message).toBe('Duplicate plate number.');
    const ar = await call('POST', '/vehicles', { ...carrier.headers, language: 'ar' }, body);
    expect(ar.body.message).toBe('رقم اللوحة مكرر.');
  });

  it('validates the spec §5 vehicle rules with localized field messages', async () => {
    const bad = await call(
      'POST',
      '/vehicles',
      { ...carrier.headers, language: 'ar' },
      vehicleBody({ imei: '000000000000000', sequenceNumber: '12', weightKg: 46000, plate: { digits: '0000', left: 'ا', middle: 'ب', right: 'ق٢' } }),
    );
    expect(bad.status).toBe(400);
    const paths = bad.body.errors!.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['imei', 'sequenceNumber', 'weightKg', 'plate.digits', 'plate.right']));
    expect(bad.body.errors!.find((e) => e.path === 'imei')!.message).toContain('IMEI');
    const eq = await call('POST', '/vehicles', carrier.headers, vehicleBody({ vehicleType: 'spaceship' }));
    expect(eq.body.code).toBe('INVALID_EQUIPMENT');
  });

  it('frees the plate after a soft delete; deleted vehicles answer 404 and show under state=deleted', async () => {
    const body = vehicleBody();
    const v = await create<Vehicle>('/vehicles', carrier.headers, body);
    expect((await call('DELETE', `/vehicles/${v.id}`, carrier.headers)).status).toBe(200);
    expect((await call('GET', `/vehicles/${v.id}`, carrier.headers)).status).toBe(404);
    const list = await call<{ items: Vehicle[] }>('GET', '/vehicles?state=deleted', carrier.headers);
    expect(list.body.data.items.map((x) => x.id)).toContain(v.id);
    await create<Vehicle>('/vehicles', carrier.headers, body);
  });

  it('suspends and reactivates; edits re-check the plate', async () => {
    const v = await create<Vehicle>('/vehicles', carrier.headers, vehicleBody());
    const s = await call<Vehicle>('POST', `/vehicles/${v.id}/suspend`, carrier.headers);
    expect(s.body.data.state).toBe('suspended');
    const a = await call<Vehicle>('POST', `/vehicles/${v.id}/activate`, carrier.headers);
    expect(a.body.data.state).toBe('active');
    const e = await call<Vehicle>('PATCH', `/vehicles/${v.id}`, carrier.headers, { colour: 'Red', weightKg: 2000 });
    expect(e.body.data.colour).toBe('Red');
    expect(e.body.data.waslStatus).toBe('not_required');
  });
});

describe('drivers, trailers and assignment', () => {
  it('assigns a driver and links a trailer; for-assignment lists only complete vehicles', async () => {
    const fresh = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    const none = await call('GET', '/vehicles/for-assignment', fresh.headers);
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('NO_VEHICLES_FOR_ASSIGNMENT');
    const v = await create<Vehicle>('/vehicles', fresh.headers, vehicleBody());
    const d = await create<Driver>('/drivers', fresh.headers, driverBody());
    const tr = await create<Trailer>('/trailers', fresh.headers, trailerBody());
    const withDriver = await call<Vehicle>('POST', `/vehicles/${v.id}/assign-driver`, fresh.headers, { driverId: d.id });
    expect(withDriver.body.data.driverId).toBe(d.id);
    expect(withDriver.body.data.driverName).toBe(`${d.firstName} ${d.lastName}`);
    expect((await call('GET', '/vehicles/for-assignment', fresh.headers)).status).toBe(404);
    const linked = await call<Vehicle>('POST', `/vehicles/${v.id}/link-trailer`, fresh.headers, { trailerId: tr.id });
    expect(linked.body.data.trailerNumber).toBe(tr.trailerNumber);
    const ok = await call<{ items: Vehicle[] }>('GET', '/vehicles/for-assignment', fresh.headers);
    expect(ok.body.data.items.map((x) => x.id)).toEqual([v.id]);
    // the same driver cannot drive a second vehicle
    const v2 = await create<Vehicle>('/vehicles', fresh.headers, vehicleBody());
    const dup = await call('POST', `/vehicles/${v2.id}/assign-driver`, fresh.headers, { driverId: d.id });
    expect(dup.body.code).toBe('DRIVER_ALREADY_ASSIGNED');
    // deleting the driver frees the vehicle
    await call('DELETE', `/drivers/${d.id}`, fresh.headers);
    const after = await call<Vehicle>('GET', `/vehicles/${v.id}`, fresh.headers);
    expect(after.body.data.driverId).toBeNull();
    const un = await call<Vehicle>('POST', `/vehicles/${v.id}/unlink-trailer`, fresh.headers);
    expect(un.body.data.trailerId).toBeNull();
  });

  it('validates drivers per spec §5 (age, IDs, manager phone) and keeps MOI unique platform-wide', async () => {
    const bad = await call('POST', '/drivers', carrier.headers, {
      ...driverBody(),
      dateOfBirth: `${new Date().getUTCFullYear() - 17}-01-01`,
      licenceNumber: '00000000',
      driverIdNumber: '3123456789',
      iqamaIssueCount: 0,
      companyCr: '123',
      nationality: 'martian',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors!.map((e) => e.path).sort()).toEqual(
      ['companyCr', 'dateOfBirth', 'driverIdNumber', 'iqamaIssueCount', 'licenceNumber', 'nationality'].sort(),
    );
    const b = driverBody();
    const same = await call('POST', '/drivers', carrier.headers, { ...b, managerPhone: b.phone });
    expect(same.body.errors![0].path).toBe('managerPhone');
    await create<Driver>('/drivers', carrier.headers, driverBody({ moiNumber: '7000000001' }));
    const moi = await call('POST', '/drivers', other.headers, driverBody({ moiNumber: '7000000001' }));
    expect(moi.body.code).toBe('MOI_EXISTS');
  });

  it('validates trailers per spec §5', async () => {
    const bad = await call('POST', '/trailers', carrier.headers, trailerBody({ trailerNumber: '000-000', lengthCm: 499, breadthCm: 501, capacityKg: 50001 }));
    expect(bad.body.errors!.map((e) => e.path).sort()).toEqual(['breadthCm', 'capacityKg', 'lengthCm', 'trailerNumber']);
    const tb = trailerBody();
    await create<Trailer>('/trailers', carrier.headers, tb);
    expect((await call('POST', '/trailers', carrier.headers, tb)).body.code).toBe('DUPLICATE_TRAILER_NUMBER');
  });

  it('signs a driver job link', async () => {
    const d = await create<Driver>('/drivers', carrier.headers, driverBody());
    const r = await call<{ url: string; token: string }>('GET', `/drivers/${d.id}/link`, carrier.headers);
    expect(r.body.data.url).toBe(`/driver?token=${r.body.data.token}`);
    const opened = await t.app.container.links.check('driver-job', r.body.data.token);
    expect(opened).toMatchObject({ ok: true, link: { subject: d.id, claims: { owner: carrier.id } } });
    // one purpose per link: a driver's job link is no vendor invite
    expect((await call('GET', `/vendor-invites/${r.body.data.token}`, {})).body.code).toBe('INVALID_INVITE');
  });

  it('trailer types are codes; migration 0116 turns stored names into codes and leaves unknown text as typed (issue 23)', async () => {
    const made = await Promise.all(['a', 'b', 'c', 'd'].map(() => create<Trailer>('/trailers', carrier.headers, trailerBody())));
    expect(made[0].trailerType).toBe('flatbed_trailer');
    const legacy = ['Refrigerated semi-trailer', 'تريلا ستارة', 'Lowbed', 'my own kind'];
    for (const [i, tr] of made.entries()) await t.database.query(`update trailers set trailer_type = $1 where id = $2`, [legacy[i], tr.id]);
    const migration = readFileSync(new URL('../../db/migrations/0116_trailer_type_codes.sql', import.meta.url), 'utf8');
    await t.database.query(migration);
    const after = await Promise.all(made.map((tr) => call<Trailer>('GET', `/trailers/${tr.id}`, carrier.headers)));
    expect(after.map((r) => r.body.data.trailerType)).toEqual(['reefer_trailer', 'curtain_trailer', 'lowbed', 'my own kind']);
    // new writes take codes only
    const bad = await call('POST', '/trailers', carrier.headers, { ...trailerBody(), trailerType: 'my own kind' });
    expect(bad.body.code).toBe('VALIDATION_FAILED');
  });

  it("sends the job link to the driver's phone by SMS, in the request's language", async () => {
    const d = await create<Driver>('/drivers', carrier.headers, driverBody());
    const r = await call<{ sentTo: string; expiresAt: string }>('POST', `/drivers/${d.id}/link/sms`, { ...carrier.headers, 'accept-language': 'ar' });
    expect(r.status).toBe(200);
    expect(r.body.data.sentTo).toBe(d.phone);
    const sms = t.app.container.gateways.sms.outbox!(d.phone);
    expect(sms).toHaveLength(1);
    expect(sms[0].body).toContain('رابط رحلاتك على مسار');
    // the SMS carries a working job link for this driver
    const token = /token=([^\s]+)/.exec(sms[0].body)![1];
    expect(await t.app.container.links.check('driver-job', token)).toMatchObject({ ok: true, link: { subject: d.id } });
    // another account cannot send a link for this driver; a suspended driver gets none
    expect((await call('POST', `/drivers/${d.id}/link/sms`, other.headers)).status).toBe(404);
    await call('POST', `/drivers/${d.id}/suspend`, carrier.headers);
    expect((await call('POST', `/drivers/${d.id}/link/sms`, carrier.headers)).body.code).toBe('FLEET_ITEM_SUSPENDED');
    expect(t.app.container.gateways.sms.outbox!(d.phone)).toHaveLength(1);
  });

  it('trusted drivers: own drivers only, searchable, removable', async () => {
    const d = await create<Driver>('/drivers', carrier.headers, driverBody({ firstName: 'Trusty' }));
    const r = await call<Driver>('POST', '/trusted-drivers', carrier.headers, { driverId: d.id });
    expect(r.body.data.trusted).toBe(true);
    const list = await call<{ items: Driver[] }>('GET', '/trusted-drivers?search=trust', carrier.headers);
    expect(list.body.data.items.map((x) => x.id)).toEqual([d.id]);
    expect((await call('POST', '/trusted-drivers', other.headers, { driverId: d.id })).status).toBe(404);
    await call('DELETE', `/trusted-drivers/${d.id}`, carrier.headers);
    expect((await call<{ items: Driver[] }>('GET', '/trusted-drivers', carrier.headers)).body.data.items).toHaveLength(0);
  });
});

describe('the fleet table', () => {
  it('lists tabs 0–3 with counts, search and filters', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    await create<Vehicle>('/vehicles', u.headers, vehicleBody({ make: 'Mercedes' }));
    await create<Vehicle>('/vehicles', u.headers, vehicleBody({ weightKg: 2500 }));
    await create<Driver>('/drivers', u.headers, driverBody());
    await create<Trailer>('/trailers', u.headers, trailerBody());
    const all = await call<{ items: FleetItem[]; total: number; counts: Record<string, number> }>('GET', '/fleet?tab=0', u.headers);
    expect(all.body.data.counts).toEqual({ all: 4, drivers: 1, trailers: 1, vehicles: 2 });
    expect(all.body.data.total).toBe(4);
    expect((await call<{ items: FleetItem[] }>('GET', '/fleet?tab=1', u.headers)).body.data.items.map((i) => i.kind)).toEqual(['driver']);
    expect((await call<{ items: FleetItem[] }>('GET', '/fleet?tab=3&limit=1', u.headers)).body.data.items).toHaveLength(1);
    const merc = await call<{ items: FleetItem[] }>('GET', '/fleet?tab=0&search=merc', u.headers);
    expect(merc.body.data.items).toHaveLength(1);
    const pv = await create<Vehicle>('/vehicles', u.headers, vehicleBody({ plate: { digits: '8642', left: 'ا', middle: 'ه', right: 'ى' } }));
    for (const q of ['8642 أ هـ ي', 'AHV8642', '٨٦٤٢', 'ا ه ى']) {
      const r = await call<{ items: FleetItem[] }>('GET', `/fleet?tab=3&search=${encodeURIComponent(q)}`, u.headers);
      expect(
        r.body.data.items.map((i) => i.id),
        q,
      ).toEqual([pv.id]);
    }
    const wasl = await call<{ items: FleetItem[]; total: number }>('GET', '/fleet?tab=0&wasl=not_required', u.headers);
    expect(wasl.body.data.total).toBe(1);
    expect(wasl.body.data.items[0].kind).toBe('vehicle');
  });
});

describe('roles and ownership', () => {
  it('another owner gets 404 on read, edit, delete and actions', async () => {
    const v = await create<Vehicle>('/vehicles', carrier.headers, vehicleBody());
    const d = await create<Driver>('/drivers', carrier.headers, driverBody());
    const tr = await create<Trailer>('/trailers', carrier.headers, trailerBody());
    for (const [m, url, body] of [
      ['GET', `/vehicles/${v.id}`],
      ['PATCH', `/vehicles/${v.id}`, { colour: 'Blue' }],
      ['DELETE', `/vehicles/${v.id}`],
      ['POST', `/vehicles/${v.id}/suspend`],
      ['GET', `/drivers/${d.id}`],
      ['PATCH', `/drivers/${d.id}`, { firstName: 'X' }],
      ['DELETE', `/trailers/${tr.id}`],
      ['GET', `/drivers/${d.id}/link`],
    ] as const) {
      const r = await call(m, url, other.headers, body);
      expect(r.status, `${m} ${url}`).toBe(404);
    }
    // nor attach my driver to their vehicle
    const theirs = await create<Vehicle>('/vehicles', other.headers, vehicleBody());
    expect((await call('POST', `/vehicles/${theirs.id}/assign-driver`, other.headers, { driverId: d.id })).status).toBe(404);
    expect((await call<{ total: number }>('GET', '/fleet', other.headers)).body.data.total).toBe(1);
    expect((await call<Vehicle>('GET', `/vehicles/${v.id}`, carrier.headers)).body.data.colour).toBe('White');
  });

  it('shippers keep own vehicles (even unapproved) but not vendor-sourced ones; guests are refused', async () => {
    await create<Vehicle>('/vehicles', shipper.headers, vehicleBody());
    const vendor = await call('POST', '/vehicles', shipper.headers, vehicleBody({ source: 'vendor', vendorId: '0190a0a0-0000-7000-8000-000000000000' }));
    expect(vendor.body.code).toBe('WRONG_ROLE');
    const guest = await call('GET', '/vehicles', {});
    expect(guest.status).toBe(401);
  });
});
