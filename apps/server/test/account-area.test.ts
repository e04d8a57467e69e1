import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ACCOUNT_TYPE, ADDRESS_BOOK_MAX, type BusinessProfile, type ContactInfo, type SavedAddress, type SavedAddressList } from '@masar/shared';
import { savedAddresses } from '../src/db/schema/index.ts';
import { newId } from '../src/lib/ids.ts';
import { queryRows } from '../src/lib/sql.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';

/**
 * The account area (issue 8), on PGlite and PostgreSQL: business profile (spec §5 rules with
 * localized messages, logo PNG/JPG only), contact info to share, the address book (ownership,
 * Idempotency-Key, the 200 limit, lat/lng from the city).
 */
let t: TestContext;
let me: TestUser;
let other: TestUser;
let cityId: number;
let cityLat: number;
let districtId: number;
let foreignDistrictId: number;
beforeAll(async () => {
  t = await createTestApp();
  me = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, approved: false, plan: false, companyName: 'Najd Foods' });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  const db = t.database.db;
  const [d] = await queryRows<{ id: number; city_id: number; lat: number }>(
    db,
    sql`select d.id::float8 as id, d.city_id, c.lat::float8 as lat from districts d join cities c on c.id = d.city_id order by d.id limit 1`,
  );
  ({ id: districtId, city_id: cityId, lat: cityLat } = d);
  const [f] = await queryRows<{ id: number }>(db, sql`select id::float8 as id from districts where city_id <> ${cityId} order by id limit 1`);
  foreignDistrictId = f.id;
});
afterAll(async () => t?.close());

type Res<T> = {
  status: number;
  body: { data: T; code?: string; message: string; errors?: { path: string; message: string }[] };
  headers: Record<string, unknown>;
};
const call = async <T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  u: TestUser,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Res<T>> => {
  const r = await t.app.inject({ method, url: `/api/v1${url}`, headers: { ...u.headers, ...headers }, payload: payload as object });
  return { status: r.statusCode, body: r.json(), headers: r.headers };
};
const byPath = (r: Res<unknown>) => Object.fromEntries((r.body.errors ?? []).map((e) => [e.path, e.message]));

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
async function upload(u: TestUser, data: Buffer, name: string): Promise<string> {
  const boundary = '----masar' + Math.random().toString(16).slice(2);
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbusiness-logo\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: { ...u.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ data: { id: string } }>().data.id;
}
const details = { buildingNumber: '2345', streetName: 'King Fahd Rd', district: 'Al Olaya', region: 'Riyadh', zipCode: '12211' };

describe('business profile', () => {
  it('starts from the sign-up company name, saves the spec §5 fields with a PNG logo and the structured address', async () => {
    const first = await call<BusinessProfile>('GET', '/account/business-profile', me);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ companyName: 'Najd Foods', crNumber: null, logo: null, updatedAt: null });
    const logo = await upload(me, PNG, 'logo.png');
    const put = await call<BusinessProfile>(
      'PUT',
      '/account/business-profile',
      me,
      {
        companyName: 'Najd Foods Co.',
        crNumber: '١٠١٠٢٣٤٥٦٧',
        vatNumber: '300123456700003',
        fax: '4567890',
        website: 'https://najdfoods.sa',
        logoFileId: logo,
        cityId,
        districtId,
        addressDetails: details,
      },
      { language: 'ar' },
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.message).toBe('تم حفظ الملف التجاري.');
    expect(put.body.data).toMatchObject({ crNumber: '1010234567', fax: '4567890', cityId, districtId, addressDetails: details });
    expect(put.body.data.logo).toMatchObject({ id: logo, mime: 'image/png' });
    expect((await call<BusinessProfile>('GET', '/account/business-profile', me)).body.data.vatNumber).toBe('300123456700003');
  });

  it('refuses bad CR, VAT, fax, website and address with localized messages (en and ar)', async () => {
    const bad = {
      companyName: 'X',
      crNumber: '12345',
      vatNumber: '123456789012345',
      fax: '12345678',
      website: 'najd',
      addressDetails: { ...details, buildingNumber: '12' },
    };
    const ar = await call('PUT', '/account/business-profile', me, bad, { language: 'ar' });
    expect(ar.status).toBe(400);
    expect(ar.body.code).toBe('VALIDATION_FAILED');
    expect(byPath(ar)).toEqual({
      crNumber: 'رقم السجل التجاري ١٠ أرقام بالضبط ولا يكون أصفاراً فقط.',
      vatNumber: 'الرقم الضريبي ١٥ رقماً ويبدأ بـ 3.',
      fax: 'الفاكس ٧ أرقام.',
      website: 'أدخل عنوان ويب كاملاً (https://…).',
      'addressDetails.buildingNumber': 'رقم المبنى ٤ أرقام.',
    });
    const en = await call('PUT', '/account/business-profile', me, { companyName: 'X', fax: '12a4567' });
    expect(byPath(en)).toEqual({ fax: 'Fax is 7 digits.' });
  });

  it('takes only my PNG/JPG file as the logo, and a district of the chosen city', async () => {
    const pdf = await upload(me, PDF, 'logo.pdf');
    const r1 = await call('PUT', '/account/business-profile', me, { companyName: 'X', logoFileId: pdf }, { language: 'ar' });
    expect(r1.status).toBe(400);
    expect(byPath(r1)).toEqual({ logoFileId: 'الشعار: PNG أو JPG بحد أقصى ٥ ميجابايت.' });
    const theirs = await upload(other, PNG, 'x.png');
    const r2 = await call('PUT', '/account/business-profile', me, { companyName: 'X', logoFileId: theirs });
    expect(byPath(r2)).toEqual({ logoFileId: 'Logo: PNG or JPG, at most 5 MB.' });
    const r3 = await call('PUT', '/account/business-profile', me, { companyName: 'X', cityId, districtId: foreignDistrictId });
    expect(byPath(r3)).toEqual({ districtId: 'Choose a district of this city.' });
    // nothing of the refused writes was saved
    expect((await call<BusinessProfile>('GET', '/account/business-profile', me)).body.data.companyName).toBe('Najd Foods Co.');
  });
});

describe('contact info to share', () => {
  it('saves values and share flags, and a shared channel needs a value', async () => {
    expect((await call<ContactInfo>('GET', '/account/contact-info', me)).body.data.phone).toEqual({ value: null, share: false });
    const ok = await call<ContactInfo>('PUT', '/account/contact-info', me, {
      phone: { value: '0551234567', share: true },
      email: { value: 'Ops@NajdFoods.sa', share: false },
      whatsapp: { value: '', share: false },
      officePhone: { value: '0114567890', share: true },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toEqual({
      phone: { value: '+966551234567', share: true },
      email: { value: 'ops@najdfoods.sa', share: false },
      whatsapp: { value: null, share: false },
      officePhone: { value: '0114567890', share: true },
    });
    const bad = await call(
      'PUT',
      '/account/contact-info',
      me,
      { phone: { value: '0412345678' }, email: {}, whatsapp: { share: true }, officePhone: {} },
      { language: 'ar' },
    );
    expect(bad.status).toBe(400);
    expect(byPath(bad)).toEqual({ 'phone.value': 'يجب أن يبدأ رقم الجوال بالرقم 5.' });
    const unshared = await call('PUT', '/account/contact-info', me, { phone: {}, email: {}, whatsapp: { share: true }, officePhone: {} }, { language: 'ar' });
    expect(byPath(unshared)).toEqual({ 'whatsapp.value': 'هذا الحقل مطلوب.' });
  });
});

describe('address book', () => {
  const body = () => ({ label: 'Riyadh warehouse', cityId, districtId, address: 'Gate 3', addressDetails: details });

  it('creates once per Idempotency-Key with lat/lng of the city, lists, updates and deletes', async () => {
    const key = { 'idempotency-key': `addr-${newId()}` };
    const a = await call<SavedAddress>('POST', '/account/addresses', me, body(), key);
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body.data).toMatchObject({ label: 'Riyadh warehouse', cityId, districtId, address: 'Gate 3', addressDetails: details });
    expect(a.body.data.lat).toBeCloseTo(cityLat, 6);
    const again = await call<SavedAddress>('POST', '/account/addresses', me, body(), key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(a.body.data.id);
    const list = await call<SavedAddressList>('GET', '/account/addresses', me);
    expect(list.body.data.items.map((i) => i.id)).toEqual([a.body.data.id]);
    expect(list.body.data.max).toBe(ADDRESS_BOOK_MAX);

    const upd = await call<SavedAddress>('PUT', `/account/addresses/${a.body.data.id}`, me, { ...body(), label: 'Main DC', districtId: null });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({ label: 'Main DC', districtId: null });
    expect((await call('DELETE', `/account/addresses/${a.body.data.id}`, me)).status).toBe(200);
    expect((await call('GET', `/account/addresses/${a.body.data.id}`, me)).status).toBe(404);
  });

  it('saves a light address (label + city + free text) and refuses one that says nothing but the city (issue 23)', async () => {
    const light = await call<SavedAddress>('POST', '/account/addresses', me, { label: 'Sulay yard', cityId, address: 'Behind the Sulay cement plant' });
    expect(light.status, JSON.stringify(light.body)).toBe(201);
    expect(light.body.data).toMatchObject({ label: 'Sulay yard', address: 'Behind the Sulay cement plant', addressDetails: null, districtId: null });
    expect((await call<SavedAddress>('GET', `/account/addresses/${light.body.data.id}`, me)).body.data.addressDetails).toBeNull();
    const bare = await call('POST', '/account/addresses', me, { label: 'Nowhere', cityId, addressDetails: null }, { language: 'ar' });
    expect(bare.status).toBe(400);
    expect(byPath(bare)).toEqual({ address: 'اكتب العنوان، أو أدخل العنوان الوطني.' });
    await call('DELETE', `/account/addresses/${light.body.data.id}`, me);
  });

  it("answers 404 for another user's address and never changes it", async () => {
    const theirs = await call<SavedAddress>('POST', '/account/addresses', other, body());
    expect(theirs.status).toBe(201);
    const id = theirs.body.data.id;
    for (const r of [
      await call('GET', `/account/addresses/${id}`, me),
      await call('PUT', `/account/addresses/${id}`, me, { ...body(), label: 'Mine now' }),
      await call('DELETE', `/account/addresses/${id}`, me, undefined, { language: 'ar' }),
    ])
      expect([r.status, r.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await call<SavedAddressList>('GET', '/account/addresses', me)).body.data.items.some((i) => i.id === id)).toBe(false);
    expect((await call<SavedAddress>('GET', `/account/addresses/${id}`, other)).body.data.label).toBe('Riyadh warehouse');
  });

  it('validates with localized messages (label, city, district of the city, structured address)', async () => {
    const ar = await call('POST', '/account/addresses', me, { label: ' ', cityId: 0, addressDetails: { ...details, zipCode: '1' } }, { language: 'ar' });
    expect(ar.status).toBe(400);
    expect(byPath(ar)).toEqual({
      label: 'أدخل اسماً (حتى ٦٠ حرفاً).',
      cityId: expect.any(String),
      'addressDetails.zipCode': 'الرمز البريدي ٥ أرقام.',
    });
    const en = await call('POST', '/account/addresses', me, { ...body(), districtId: foreignDistrictId });
    expect(byPath(en)).toEqual({ districtId: 'Choose a district of this city.' });
  });

  it(`refuses the address after ${ADDRESS_BOOK_MAX} with LIMIT_REACHED`, async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const rows = Array.from({ length: ADDRESS_BOOK_MAX - 1 }, (_, i) => ({
      id: newId(),
      userId: u.id,
      label: `Site ${i}`,
      cityId,
      addressDetails: details,
      lat: 0,
      lng: 0,
    }));
    await t.database.db.insert(savedAddresses).values(rows);
    expect((await call('POST', '/account/addresses', u, body())).status).toBe(201);
    const over = await call('POST', '/account/addresses', u, body(), { language: 'ar' });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('LIMIT_REACHED');
    expect(over.body.message).toContain('وصلت إلى الحد الأقصى');
    expect((await call<SavedAddressList>('GET', '/account/addresses', u)).body.data.total).toBe(ADDRESS_BOOK_MAX);
  });
});
