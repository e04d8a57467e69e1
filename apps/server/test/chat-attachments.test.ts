import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type ChatMessage, type Conversation, type MessageListResponse, type Offer, type UploadedFile } from '@masar/shared';
import { vehicleBody } from '../src/modules/fleet/fleet.testkit.ts';
import { loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, multipart, PDF_MINIMAL, PNG_1X1, type TestUser } from './fixtures.ts';

/**
 * Chat attachments (issue 21), on PGlite and PostgreSQL: a file uploaded through POST /files
 * (purpose chat-attachment, typed by its bytes, ≤ 5 MB) goes with one message of its uploader;
 * the two sides download it, nobody else (whatever id they hold); a file is sent once.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let stranger: TestUser;
let conv: Conversation;
let strangerConv: Conversation;

type Res<T> = { status: number; body: { data: T; code?: string; message: string } };
async function call<T>(method: 'GET' | 'POST', url: string, u: TestUser, payload?: unknown, headers: Record<string, string> = {}): Promise<Res<T>> {
  const r = await t.app.inject({ method, url: `/api/v1${url}`, headers: { ...u.headers, ...headers }, payload: payload as object });
  return { status: r.statusCode, body: r.json() };
}
async function upload(u: TestUser, name: string, data: Buffer, type?: string, purpose = 'chat-attachment', lang = 'en') {
  const m = multipart({ purpose }, { name, data, type });
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: { ...u.headers, language: lang, 'content-type': m.contentType },
    payload: m.payload,
  });
  return { status: r.statusCode, body: r.json<{ data: UploadedFile; code?: string; message: string }>() };
}
const send = (u: TestUser, id: string, body: { body?: string; attachmentId?: string }, key?: string) =>
  call<ChatMessage>('POST', `/chat/conversations/${id}/messages`, u, body, key ? { 'idempotency-key': key } : {});
const get = (u: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: u.headers });

/** A minimal WebP (RIFF container, WEBP + VP8 chunk): what file-type reads as image/webp. */
const WEBP = (() => {
  const chunk = Buffer.concat([Buffer.from('VP8 '), Buffer.from([10, 0, 0, 0]), Buffer.alloc(10)]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunk.length);
  return Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WEBP'), chunk]);
})();

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Najd Foods' });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Qassim Haulage' });
  stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Tabuk Trucks' });
  const loadId = (await postLoad(t.app, shipper.headers, loadBody())).id;
  expect((await call<Offer>('POST', '/offers', carrier, { loadId, priceSar: '2800' })).status).toBe(201);
  conv = (await call<Conversation>('POST', '/chat/conversations', carrier, { loadId })).body.data;
  // the stranger has a conversation of its own with the same shipper, about another load
  const load2 = (await postLoad(t.app, shipper.headers, loadBody({ day: 3 }))).id;
  expect((await call<Offer>('POST', '/offers', stranger, { loadId: load2, priceSar: '3000' })).status).toBe(201);
  strangerConv = (await call<Conversation>('POST', '/chat/conversations', stranger, { loadId: load2 })).body.data;
});
afterAll(async () => t?.close());

describe('chat attachments', () => {
  it('a photo without text: sent, listed with its name, type and size, downloaded by the other side; the event describes it', async () => {
    const up = await upload(carrier, 'loading-bay.png', PNG_1X1);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.data).toMatchObject({ purpose: 'chat-attachment', mime: 'image/png', size: PNG_1X1.length, name: 'loading-bay.png' });
    const s = await send(carrier, conv.id, { attachmentId: up.body.data.id });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    const url = `/api/v1/chat/conversations/${conv.id}/attachments/${up.body.data.id}`;
    expect(s.body.data).toMatchObject({
      body: '',
      attachmentId: up.body.data.id,
      attachment: { id: up.body.data.id, name: 'loading-bay.png', mime: 'image/png', size: PNG_1X1.length, url },
    });

    const list = await call<MessageListResponse>('GET', `/chat/conversations/${conv.id}/messages`, shipper);
    expect(list.body.data.items[0].attachment).toEqual(s.body.data.attachment);
    const conversations = await call<{ items: Conversation[] }>('GET', '/chat/conversations', shipper);
    expect(conversations.body.data.items.find((c) => c.id === conv.id)!.lastMessage!.attachment!.name).toBe('loading-bay.png');

    const got = await get(shipper, url);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(PNG_1X1)).toBe(true);
    expect((await get(carrier, url)).statusCode).toBe(200);

    const [event] = await t.database.query<{ data: Record<string, unknown> }>(
      `select data from outbox_events where type = 'chat.message_sent' and data->>'messageId' = $1`,
      [s.body.data.id],
    );
    expect(event.data.attachment).toEqual({ name: 'loading-bay.png', mime: 'image/png', size: PNG_1X1.length });
    // never the bytes nor a link
    expect(JSON.stringify(event.data)).not.toContain('/attachments/');
    expect(JSON.stringify(event.data)).not.toContain('/files/');
  });

  it('nobody else downloads it, even holding the file id (NOT_FOUND)', async () => {
    const up = await upload(shipper, 'rate-sheet.pdf', PDF_MINIMAL);
    const s = await send(shipper, conv.id, { body: 'the rate sheet', attachmentId: up.body.data.id });
    expect(s.status).toBe(201);
    const fileId = up.body.data.id;
    // the other side gets the PDF as a download, never inline on our origin
    const ok = await get(carrier, s.body.data.attachment!.url);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(String(ok.headers['content-disposition'])).toMatch(/^attachment;.*filename\*=UTF-8''rate-sheet\.pdf/);

    expect((await get(stranger, `/api/v1/chat/conversations/${conv.id}/attachments/${fileId}`)).statusCode).toBe(404);
    // through the stranger's own conversation with the same shipper
    expect((await get(stranger, `/api/v1/chat/conversations/${strangerConv.id}/attachments/${fileId}`)).statusCode).toBe(404);
    // nor through the files endpoint (the uploader's only), for the stranger or the other side
    expect((await get(stranger, `/api/v1/files/${fileId}`)).statusCode).toBe(404);
    expect((await get(carrier, `/api/v1/files/${fileId}`)).statusCode).toBe(404);
    // a party asking through a conversation the file was not sent in
    expect((await get(shipper, `/api/v1/chat/conversations/${strangerConv.id}/attachments/${fileId}`)).statusCode).toBe(404);
  });

  it('types by the bytes: a PNG named .pdf is a PNG; WebP is accepted; a text file is refused (localized)', async () => {
    const png = await upload(carrier, 'invoice.pdf', PNG_1X1, 'application/pdf');
    expect(png.status).toBe(201);
    expect(png.body.data.mime).toBe('image/png');
    const s = await send(carrier, conv.id, { attachmentId: png.body.data.id });
    expect(s.body.data.attachment!.mime).toBe('image/png');

    const webp = await upload(carrier, 'truck.webp', WEBP, 'image/webp');
    expect(webp.status, JSON.stringify(webp.body)).toBe(201);
    expect(webp.body.data.mime).toBe('image/webp');

    const text = await upload(carrier, 'notes.pdf', Buffer.from('just some text pretending to be a pdf'), 'application/pdf');
    expect([text.status, text.body.code]).toEqual([415, 'CHAT_ATTACHMENT_TYPE_NOT_ALLOWED']);
    expect(text.body.message).toBe('An attachment must be a photo (JPG, PNG or WebP) or a PDF.');
    const ar = await upload(carrier, 'notes.txt', Buffer.from('hello'), 'text/plain', 'chat-attachment', 'ar');
    expect([ar.status, ar.body.message]).toEqual([415, 'يجب أن يكون المرفق صورة (JPG أو PNG أو WebP) أو ملف PDF.']);
    // documents keep their own rule (no WebP)
    const doc = await upload(carrier, 'truck.webp', WEBP, 'image/webp', 'vehicle-image');
    expect([doc.status, doc.body.code]).toEqual([415, 'FILE_TYPE_NOT_ALLOWED']);
  });

  it('refuses more than 5 MB', async () => {
    const big = await upload(carrier, 'big.png', Buffer.concat([PNG_1X1, Buffer.alloc(5 * 1024 * 1024)]));
    expect([big.status, big.body.code]).toEqual([413, 'FILE_TOO_LARGE']);
  });

  it('a file is sent once, by its uploader, and only a chat-attachment upload', async () => {
    const up = await upload(carrier, 'pod.png', PNG_1X1);
    // someone else's file: the other side of the same conversation
    const theirs = await send(shipper, conv.id, { attachmentId: up.body.data.id });
    expect([theirs.status, theirs.body.code]).toEqual([409, 'CHAT_ATTACHMENT_UNAVAILABLE']);
    // an unknown id
    expect((await send(carrier, conv.id, { attachmentId: '0193a000-0000-7000-8000-000000000abc' })).body.code).toBe('CHAT_ATTACHMENT_UNAVAILABLE');
    // a document uploaded for another purpose
    const doc = await upload(carrier, 'insurance.pdf', PDF_MINIMAL, undefined, 'vehicle-insurance');
    expect((await send(carrier, conv.id, { attachmentId: doc.body.data.id })).body.code).toBe('CHAT_ATTACHMENT_UNAVAILABLE');

    const first = await send(carrier, conv.id, { body: 'proof', attachmentId: up.body.data.id }, 'attach-key-1');
    expect(first.status).toBe(201);
    // a retry with the same key answers the same message
    const retry = await send(carrier, conv.id, { body: 'proof', attachmentId: up.body.data.id }, 'attach-key-1');
    expect(retry.body.data.id).toBe(first.body.data.id);
    // a second message with it (another key, or another conversation) is refused
    const again = await send(carrier, conv.id, { body: 'again', attachmentId: up.body.data.id }, 'attach-key-2');
    expect([again.status, again.body.code]).toEqual([409, 'CHAT_ATTACHMENT_UNAVAILABLE']);
    const rows = await t.database.query<{ n: string }>('select count(*) as n from chat_messages where attachment_id = $1', [up.body.data.id]);
    expect(Number(rows[0].n)).toBe(1);
    // nor does a chat attachment become a vehicle's document
    const v = await call('POST', '/vehicles', carrier, vehicleBody({ insuranceFileIds: [up.body.data.id] }));
    expect([v.status, v.body.code]).toEqual([400, 'INVALID_FILE']);
  });

  it('two racing sends of one file store one message and leave the conversation consistent', async () => {
    const up = await upload(carrier, 'race.png', PNG_1X1);
    const before = (await call<Conversation>('GET', `/chat/conversations/${conv.id}`, carrier)).body.data;
    const res = await Promise.all([0, 1, 2].map((i) => send(carrier, conv.id, { attachmentId: up.body.data.id }, `race-${i}`)));
    expect(res.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const after = (await call<MessageListResponse>('GET', `/chat/conversations/${conv.id}/messages?limit=1`, carrier)).body.data.items[0];
    // the refused sends took no seq
    expect(after.seq).toBe((before.lastMessage?.seq ?? 0) + 1);
  });

  it('text stays required without an attachment', async () => {
    const r = await send(carrier, conv.id, { body: '   ' });
    expect([r.status, r.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await send(carrier, conv.id, {})).status).toBe(400);
  });
});

describe('chat uploads never sent are removed after 24 h (job files.unsent)', () => {
  const row = async (id: string) => (await t.database.query<{ storage_key: string }>('select storage_key from files where id = $1', [id]))[0];
  const bytesThere = async (key: string) =>
    t.app.container.storage
      .get(key)
      .then(async (s) => {
        for await (const _ of s) void _;
        return true;
      })
      .catch(() => false);
  const age = (id: string, hours: number) => t.database.query(`update files set created_at = now() - make_interval(hours => $2) where id = $1`, [id, hours]);

  it('an old unsent upload loses its row and bytes; a sent one and a fresh one stay; sending a removed one is refused', async () => {
    const old = (await upload(carrier, 'old.png', PNG_1X1)).body.data;
    const fresh = (await upload(carrier, 'fresh.png', PNG_1X1)).body.data;
    const sent = (await upload(carrier, 'sent.png', PNG_1X1)).body.data;
    expect((await send(carrier, conv.id, { attachmentId: sent.id })).status).toBe(201);
    // a document of another purpose is not a chat upload, whatever its age
    const doc = (await upload(carrier, 'doc.png', PNG_1X1, undefined, 'vendor-document')).body.data;
    await age(old.id, 25);
    await age(sent.id, 25);
    await age(doc.id, 25);
    await age(fresh.id, 23);
    const oldKey = (await row(old.id)).storage_key;
    expect(await bytesThere(oldKey)).toBe(true);

    expect(await t.app.container.services.files.removeUnsentChatAttachments({ olderThanHours: 24, batch: 1 })).toBeGreaterThanOrEqual(1);
    expect(await row(old.id)).toBeUndefined();
    expect(await bytesThere(oldKey)).toBe(false);
    for (const f of [fresh, sent, doc]) {
      const r = await row(f.id);
      expect(r, f.name ?? '').toBeDefined();
      expect(await bytesThere(r.storage_key)).toBe(true);
    }
    // the sent one is still served to the other side
    expect((await get(shipper, `/api/v1/chat/conversations/${conv.id}/attachments/${sent.id}`)).statusCode).toBe(200);
    // a removed upload cannot be sent any more; the fresh one still can
    const late = await send(carrier, conv.id, { attachmentId: old.id });
    expect([late.status, late.body.code]).toEqual([409, 'CHAT_ATTACHMENT_UNAVAILABLE']);
    expect((await send(carrier, conv.id, { attachmentId: fresh.id })).status).toBe(201);
    // once on a message it stays, however old
    await age(fresh.id, 48);
    await t.app.container.services.files.removeUnsentChatAttachments();
    expect(await row(fresh.id)).toBeDefined();
  });
});
