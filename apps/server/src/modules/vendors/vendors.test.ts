import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Vendor, type Vehicle } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { apiCaller, createUser, type TestUser } from '../../../test/fixtures.ts';
import { vehicleBody } from '../fleet/fleet.testkit.ts';
import { vendorBody } from './vendors.testkit.ts';

let t: TestContext;
let broker: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const { call } = apiCaller(() => t);

describe('vendors', () => {
  it('creates, reads, edits and deletes a vendor with every spec field', async () => {
    const body = vendorBody();
    const c = await call<Vendor>('POST', '/vendors', broker.headers, body);
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const v = c.body.data;
    expect(v).toMatchObject({
      status: 'verified',
      userType: 'carrier',
      vatNumber: '300123456700003',
      regions: [1, 2],
      customsClearance: true,
      officeLocations: [{ cityId: 1, address: 'King Fahd Rd' }],
    });
    const e = await call<Vendor>('PATCH', `/vendors/${v.id}`, broker.headers, { notes: 'Updated', preferredContactMethod: 'email' });
    expect(e.body.data.notes).toBe('Updated');
    const list = await call<{ items: Vendor[]; total: number }>('GET', `/vendors?search=${encodeURIComponent(body.companyName)}`, broker.headers);
    expect(list.body.data.items.map((x) => x.id)).toEqual([v.id]);
    const d = await call('DELETE', `/vendors/${v.id}`, { ...broker.headers, language: 'ar' });
    expect(d.status).toBe(200);
    expect(d.body.message).toBe('تم حذف المورد.');
    expect((await call('GET', `/vendors/${v.id}`, broker.headers)).status).toBe(404);
  });

  it('validates CR, VAT, TL, notes and e-mail per spec §5 with localized messages', async () => {
    const r = await call(
      'POST',
      '/vendors',
      { ...broker.headers, language: 'ar' },
      vendorBody({ crNumber: '12345', vatNumber: '200123456700003', tlNumber: 'TL 1234-5', notes: 'x'.repeat(251), email: 'no-at' }),
    );
    expect(r.status).toBe(400);
    expect(r.body.errors!.map((e) => e.path).sort()).toEqual(['crNumber', 'email', 'notes', 'tlNumber', 'vatNumber']);
    expect(r.body.errors!.find((e) => e.path === 'vatNumber')!.message).toBe('الرقم الضريبي ١٥ رقماً ويبدأ بـ 3.');
  });

  it('keeps e-mail and phone unique per owner, not across owners', async () => {
    const body = vendorBody();
    expect((await call('POST', '/vendors', broker.headers, body)).status).toBe(201);
    const email = await call('POST', '/vendors', broker.headers, { ...vendorBody(), email: body.email.toUpperCase() });
    expect(email.body.code).toBe('VENDOR_EMAIL_EXISTS');
    const phone = await call('POST', '/vendors', broker.headers, { ...vendorBody(), phone: body.phone });
    expect(phone.body.code).toBe('VENDOR_PHONE_EXISTS');
    expect((await call('POST', '/vendors', other.headers, body)).status).toBe(201);
  });

  it('another owner cannot read, edit or delete my vendor (404)', async () => {
    const v = (await call<Vendor>('POST', '/vendors', broker.headers, vendorBody())).body.data;
    expect((await call('GET', `/vendors/${v.id}`, other.headers)).status).toBe(404);
    expect((await call('PATCH', `/vendors/${v.id}`, other.headers, { notes: 'x' })).status).toBe(404);
    expect((await call('DELETE', `/vendors/${v.id}`, other.headers)).status).toBe(404);
    expect((await call<Vendor>('GET', `/vendors/${v.id}`, broker.headers)).body.data.notes).toBe(v.notes);
  });

  it('refuses to delete a vendor that supplies a live vehicle (spec message)', async () => {
    const v = (await call<Vendor>('POST', '/vendors', broker.headers, vendorBody())).body.data;
    const veh = await call<Vehicle>('POST', '/vehicles', broker.headers, vehicleBody({ source: 'vendor', vendorId: v.id }));
    expect(veh.status, JSON.stringify(veh.body)).toBe(201);
    // an edit of one field keeps the rest (no defaults sneak into PATCH)
    const edited = await call<Vehicle>('PATCH', `/vehicles/${veh.body.data.id}`, broker.headers, { colour: 'Silver' });
    expect(edited.body.data).toMatchObject({ colour: 'Silver', source: 'vendor', vendorId: v.id });
    const d = await call('DELETE', `/vendors/${v.id}`, broker.headers);
    expect(d.status).toBe(409);
    expect(d.body).toMatchObject({ code: 'VENDOR_DELETE_FAILED', message: 'Failed to delete vendor.' });
    // another owner's vendor cannot be a vehicle source
    const theirs = (await call<Vendor>('POST', '/vendors', other.headers, vendorBody())).body.data;
    expect((await call('POST', '/vehicles', broker.headers, vehicleBody({ source: 'vendor', vendorId: theirs.id }))).body.code).toBe('INVALID_VENDOR');
  });

  it('share link → public request → review → approve / reject', async () => {
    const link = await call<{ url: string; token: string }>('POST', '/vendors/share-link', broker.headers);
    expect(link.body.data.url).toBe(`/vendor?invite=${link.body.data.token}`);
    const info = await call<{ companyName: string }>('GET', `/vendor-invites/${link.body.data.token}`, {});
    expect(info.status).toBe(200);
    expect(info.body.data.companyName).toMatch(/^Test Co/);
    const body = vendorBody();
    const sub = await call<{ id: string; status: string }>('POST', `/vendor-invites/${link.body.data.token}`, {}, body);
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    expect(sub.body.data.status).toBe('request_submitted');
    const reqs = await call<{ items: Vendor[] }>('GET', '/vendor-requests', broker.headers);
    expect(reqs.body.data.items.map((x) => x.id)).toContain(sub.body.data.id);
    expect((await call<Vendor>('POST', `/vendor-requests/${sub.body.data.id}/review`, broker.headers)).body.data.status).toBe('pending_approval');
    expect((await call<Vendor>('POST', `/vendor-requests/${sub.body.data.id}/approve`, broker.headers)).body.data.status).toBe('verified');
    expect((await call('POST', `/vendor-requests/${sub.body.data.id}/reject`, broker.headers)).body.code).toBe('VENDOR_REQUEST_CLOSED');
    const second = await call<{ id: string }>('POST', `/vendor-invites/${link.body.data.token}`, {}, vendorBody());
    expect((await call<Vendor>('POST', `/vendor-requests/${second.body.data.id}/reject`, broker.headers)).body.data.status).toBe('not_verified');
    expect((await call('POST', `/vendor-requests/${second.body.data.id}/approve`, other.headers)).status).toBe(404);
    expect((await call('GET', '/vendor-invites/not-a-real-token-at-all', {})).body.code).toBe('INVALID_INVITE');
  });
});

describe('files', () => {
  const upload = (name: string, type: string, data: Buffer, headers: Headers, purpose = 'vehicle-insurance') => {
    const boundary = '----masar' + Math.random().toString(16).slice(2);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
  };
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  const PNG = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1b1e30000000049454e44ae426082',
    'hex',
  );

  it('accepts a real PDF and PNG, serves them to the owner only', async () => {
    const r = await upload('policy.pdf', 'application/pdf', PDF, broker.headers);
    expect(r.statusCode, r.body).toBe(201);
    const f = r.json<{ data: { id: string; url: string; mime: string; size: number } }>().data;
    expect(f).toMatchObject({ mime: 'application/pdf', size: PDF.length, url: `/api/v1/files/${f.id}` });
    const got = await t.app.inject({ url: f.url, headers: broker.headers });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.rawPayload.equals(PDF)).toBe(true);
    expect((await t.app.inject({ url: f.url, headers: other.headers })).statusCode).toBe(404);
    // a PNG named .pdf is still stored as what it is
    const png = await upload('photo.pdf', 'application/pdf', PNG, broker.headers, 'vehicle-image');
    expect(png.json<{ data: { mime: string } }>().data.mime).toBe('image/png');
    // attach to a vehicle; another owner cannot use my file
    const v = await call<Vehicle>('POST', '/vehicles', broker.headers, vehicleBody({ insuranceFileIds: [f.id] }));
    expect(v.body.data.insuranceFiles).toEqual([{ id: f.id, url: f.url, mime: 'application/pdf', size: PDF.length }]);
    expect((await call('POST', '/vehicles', other.headers, vehicleBody({ insuranceFileIds: [f.id] }))).body.code).toBe('INVALID_FILE');
    const kept = await call<Vehicle>('PATCH', `/vehicles/${v.body.data.id}`, broker.headers, { make: 'Scania' });
    expect(kept.body.data.insuranceFiles).toHaveLength(1);
    const e = await call<Vendor>('POST', '/vendors', broker.headers, vendorBody());
    const ve = await call<Vendor>('PATCH', `/vendors/${e.body.data.id}`, broker.headers, { jobTitle: 'CEO' });
    expect(ve.body.data).toMatchObject({ jobTitle: 'CEO', regions: [1, 2], customsClearance: true });
  });

  it('rejects a .pdf that is really text, and files over 5 MB', async () => {
    const fake = await upload('policy.pdf', 'application/pdf', Buffer.from('just some text pretending to be a pdf'), broker.headers);
    expect(fake.statusCode).toBe(415);
    expect(fake.json<{ code: string }>().code).toBe('FILE_TYPE_NOT_ALLOWED');
    const big = await upload('big.pdf', 'application/pdf', Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]), broker.headers);
    expect(big.statusCode).toBe(413);
    expect(big.json<{ code: string }>().code).toBe('FILE_TOO_LARGE');
  });
});
