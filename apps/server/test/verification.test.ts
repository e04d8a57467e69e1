import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, PROFILE_STATUS, type Verification } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';

/**
 * Business verification (issue 8), on PGlite and PostgreSQL: a pending shipper uploads its
 * documents, sends them for review, is rejected with a reason, replaces the document and is
 * approved; required documents per account type; another account's file is refused.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
async function uploadFile(u: TestUser): Promise<string> {
  const boundary = '----masar' + Math.random().toString(16).slice(2);
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbusiness-document\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cr.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    PDF,
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
const get = async (u: TestUser) => (await t.app.inject({ url: '/api/v1/profile-approval', headers: u.headers })).json<{ data: Verification }>().data;
const put = (u: TestUser, type: string, fileId: string) =>
  t.app.inject({ method: 'PUT', url: `/api/v1/profile-approval/documents/${type}`, headers: u.headers, payload: { fileId } });
const submit = (u: TestUser) => t.app.inject({ method: 'POST', url: '/api/v1/profile-approval/submit', headers: { ...u.headers, language: 'ar' } });

describe('business verification', () => {
  it('walks not uploaded → submitted → pending approval → rejected with a reason → re-upload → approved', async () => {
    const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, approved: false, plan: false });
    const start = await get(shipper);
    expect(start).toMatchObject({ state: 'not_uploaded', canSubmit: false, reason: null });
    expect(start.documents.filter((d) => d.required).map((d) => d.type)).toEqual(['commercial_registration', 'vat_certificate']);
    expect(start.documents).toHaveLength(7);

    const incomplete = await submit(shipper);
    expect(incomplete.statusCode).toBe(409);
    expect(incomplete.json()).toMatchObject({ code: 'DOCUMENTS_INCOMPLETE', message: expect.stringMatching(/المستندات/) });

    expect((await put(shipper, 'commercial_registration', await uploadFile(shipper))).statusCode).toBe(200);
    const half = await get(shipper);
    expect(half).toMatchObject({ state: 'submitted', canSubmit: false });
    expect(half.documents.find((d) => d.type === 'commercial_registration')).toMatchObject({ state: 'submitted', file: { mime: 'application/pdf' } });
    await put(shipper, 'vat_certificate', await uploadFile(shipper));
    expect((await get(shipper)).canSubmit).toBe(true);

    const sent = await submit(shipper);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ state: 'pending_approval', canSubmit: false });

    // the operator rejects with a reason (npm run admin -- reject --reason …)
    const { accounts, verification } = t.app.container.services;
    await accounts.setStatus('reject', shipper.phone);
    await verification.decide(shipper.id, 'rejected', 'The VAT certificate is unreadable');
    const rejected = await get(shipper);
    expect(rejected).toMatchObject({ state: 'rejected', reason: 'The VAT certificate is unreadable', canSubmit: false });
    expect(rejected.documents.find((d) => d.type === 'vat_certificate')).toMatchObject({ state: 'rejected', reason: 'The VAT certificate is unreadable' });

    // replace what was rejected and send again
    for (const type of ['commercial_registration', 'vat_certificate']) await put(shipper, type, await uploadFile(shipper));
    expect((await get(shipper)).canSubmit).toBe(true);
    expect((await submit(shipper)).json().data.state).toBe('pending_approval');
    await accounts.setStatus('approve', shipper.phone);
    await verification.decide(shipper.id, 'approved', null);
    const approved = await get(shipper);
    expect(approved).toMatchObject({ state: 'approved', reason: null, canSubmit: false });
    expect(approved.documents.filter((d) => d.required).every((d) => d.state === 'approved')).toBe(true);
    const profile = await t.app.inject({ url: '/api/v1/accountDetails', headers: shipper.headers });
    expect(profile.json().data.status).toBe(PROFILE_STATUS.approved);
  });

  it('rejects one document with its own reason: only that one is uploaded again (npm run admin -- reject-document)', async () => {
    const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, approved: false, plan: false });
    for (const type of ['commercial_registration', 'transport_licence', 'carrier_liability_insurance']) await put(carrier, type, await uploadFile(carrier));
    expect((await submit(carrier)).json().data.state).toBe('pending_approval');
    const { accounts, verification } = t.app.container.services;
    const reject = (type: 'transport_licence' | 'letterhead', reason: string) =>
      accounts.setStatus('reject', carrier.phone, new Date(), { reason, also: (tx, userId) => verification.rejectDocumentIn(tx, userId, type, reason) });

    // a document the account never sent: nothing changes, not even the status
    await expect(reject('letterhead', 'No letterhead')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await get(carrier)).state).toBe('pending_approval');

    await reject('transport_licence', 'The licence expired in 2025');
    const after = await get(carrier);
    expect(after).toMatchObject({ state: 'rejected', reason: 'The licence expired in 2025', canSubmit: false });
    const byType = Object.fromEntries(after.documents.map((d) => [d.type, [d.state, d.reason]]));
    expect(byType).toMatchObject({
      transport_licence: ['rejected', 'The licence expired in 2025'],
      commercial_registration: ['approved', null],
      carrier_liability_insurance: ['approved', null],
    });
    // replacing that one document is enough to send again
    await put(carrier, 'transport_licence', await uploadFile(carrier));
    expect((await get(carrier)).canSubmit).toBe(true);
    expect((await submit(carrier)).json().data.state).toBe('pending_approval');
  });

  it('counts an account the operator approved without documents as verified', async () => {
    const old = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    expect(await get(old)).toMatchObject({ state: 'approved', canSubmit: false });
  });

  it('asks carriers for their transport licence and insurance, and refuses a file that is not theirs', async () => {
    const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, approved: false });
    const required = (await get(carrier)).documents.filter((d) => d.required).map((d) => d.type);
    expect(required).toEqual(['commercial_registration', 'transport_licence', 'carrier_liability_insurance']);
    const other = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const theirs = await uploadFile(other);
    const r = await put(carrier, 'transport_licence', theirs);
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('INVALID_FILE');
    expect((await put(carrier, 'letterhead', '00000000-0000-0000-0000-000000000000')).json().code).toBe('INVALID_FILE');
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/v1/profile-approval/documents/passport', headers: carrier.headers, payload: { fileId: theirs } }))
        .statusCode,
    ).toBe(400);
  });
});
