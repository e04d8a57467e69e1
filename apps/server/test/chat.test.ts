import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT_TYPE,
  type ChatCredentials,
  type ChatMessage,
  type ChatUnread,
  type Conversation,
  type ConversationListResponse,
  type MessageListResponse,
  type Offer,
  type ReadState,
} from '@masar/shared';
import { loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';

/**
 * Chat about a load (issue 21 "Chat"), on PGlite and PostgreSQL: only the load's parties open a
 * conversation; blocks and the `chat` contact setting are enforced on open and on send; paging,
 * unread counts, read receipts, idempotent sends, and racing sends and opens.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let stranger: TestUser;
let loadId: string;
beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Najd Foods' });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Qassim Haulage' });
  stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Tabuk Trucks' });
  loadId = (await postLoad(t.app, shipper.headers, loadBody())).id;
  expect((await call<Offer>('POST', '/offers', carrier, { loadId, priceSar: '2800' })).status).toBe(201);
});
afterAll(async () => t?.close());

type Res<T> = { status: number; body: { data: T; code?: string; message: string } };
async function call<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  u: TestUser,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Res<T>> {
  const r = await t.app.inject({ method, url: `/api/v1${url}`, headers: { ...u.headers, ...headers }, payload: payload as object });
  return { status: r.statusCode, body: r.json() };
}
const open = (u: TestUser, body: { loadId: string; counterpartId?: string }) => call<Conversation>('POST', '/chat/conversations', u, body);
const send = (u: TestUser, id: string, text: string, key?: string) =>
  call<ChatMessage>('POST', `/chat/conversations/${id}/messages`, u, { body: text }, key ? { 'idempotency-key': key } : {});
const unread = async (u: TestUser) => (await call<ChatUnread>('GET', '/chat/unread', u)).body.data;
const count = async (sql: string, params: unknown[]) => Number((await t.database.query<{ n: string }>(sql, params))[0].n);

describe('parties', () => {
  it('the bidding carrier and the shipper reach the same conversation; anyone else NOT_FOUND', async () => {
    const a = await open(carrier, { loadId });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.body.data).toMatchObject({ loadId, shipperId: shipper.id, carrierId: carrier.id, side: 'carrier', unread: 0, lastMessage: null });
    expect(a.body.data.counterpart).toEqual({ userId: shipper.id, companyName: 'Najd Foods' });
    const b = await open(shipper, { loadId, counterpartId: carrier.id });
    expect(b.body.data).toMatchObject({ id: a.body.data.id, side: 'shipper' });

    // a carrier with no offer, invite or booking on the load, and a shipper naming such a carrier
    expect((await open(stranger, { loadId })).status).toBe(404);
    expect((await open(shipper, { loadId, counterpartId: stranger.id })).status).toBe(404);
    expect((await open(shipper, { loadId })).status).toBe(404);
    // nor can a stranger read or write an existing conversation
    expect((await call('GET', `/chat/conversations/${a.body.data.id}/messages`, stranger)).status).toBe(404);
    expect((await send(stranger, a.body.data.id, 'hello')).status).toBe(404);
  });

  it('answers the chat credentials of spec §3 for myself only', async () => {
    const r = await call<ChatCredentials>('GET', '/account/isometricUserId', carrier);
    expect(r.body.data).toMatchObject({
      chatUserId: carrier.id,
      accountId: carrier.id,
      mqttTopic: `masar/u/${carrier.id}`,
      mqttPath: '/mqtt',
      appSecret: null,
    });
    expect((await call('GET', `/account/isometricUserId?userId=${carrier.id}`, carrier)).status).toBe(200);
    expect((await call('GET', `/account/isometricUserId?userId=${shipper.id}`, carrier)).status).toBe(404);
  });
});

describe('rules', () => {
  it('a block either way refuses opening and sending (USER_BLOCKED)', async () => {
    const c = (await open(carrier, { loadId })).body.data;
    expect((await call('POST', '/account/blocked', shipper, { userId: carrier.id })).status).toBe(201);
    // the block closed the carrier's pending offer, but the conversation exists: refused anyway
    const o = await open(carrier, { loadId });
    expect([o.status, o.body.code]).toEqual([403, 'USER_BLOCKED']);
    const s = await send(carrier, c.id, 'still there?');
    expect([s.status, s.body.code]).toEqual([403, 'USER_BLOCKED']);
    expect((await send(shipper, c.id, 'blocked both ways')).body.code).toBe('USER_BLOCKED');
    expect((await call('DELETE', `/account/blocked/${carrier.id}`, shipper)).status).toBe(200);
    expect((await send(carrier, c.id, 'back again')).status).toBe(201);
  });

  it('the other side’s chat setting `nobody` refuses (CHAT_NOT_ALLOWED); `counterparts` lets the load’s parties in', async () => {
    const c = (await open(carrier, { loadId })).body.data;
    expect((await call('PATCH', '/account/settings', shipper, { chat: 'nobody' })).status).toBe(200);
    const o = await open(carrier, { loadId });
    expect([o.status, o.body.code]).toEqual([403, 'CHAT_NOT_ALLOWED']);
    expect((await send(carrier, c.id, 'hello?')).body.code).toBe('CHAT_NOT_ALLOWED');
    // the shipper may still write to the carrier (the carrier's own setting is the default)
    expect((await send(shipper, c.id, 'I will write to you')).status).toBe(201);
    expect((await call('PATCH', '/account/settings', shipper, { chat: 'counterparts' })).status).toBe(200);
    expect((await send(carrier, c.id, 'thanks')).status).toBe(201);
  });
});

describe('messages', () => {
  let load2: string;
  let conv: Conversation;
  let carrier2: TestUser;
  beforeAll(async () => {
    carrier2 = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Hail Lines' });
    load2 = (await postLoad(t.app, shipper.headers, loadBody({ day: 3 }))).id;
    expect((await call('POST', '/offers', carrier2, { loadId: load2, priceSar: '3100' })).status).toBe(201);
    conv = (await open(carrier2, { loadId: load2 })).body.data;
  });

  it('pages newest first; unread counts; read receipts; the conversation list', async () => {
    const before = await unread(shipper);
    for (let i = 1; i <= 5; i++) expect((await send(carrier2, conv.id, `message ${i}`)).status).toBe(201);
    const p1 = await call<MessageListResponse>('GET', `/chat/conversations/${conv.id}/messages?limit=2`, shipper);
    expect(p1.body.data.items.map((m) => m.body)).toEqual(['message 5', 'message 4']);
    expect(p1.body.data.items.every((m) => !m.mine && m.read === null)).toBe(true);
    const p2 = await call<MessageListResponse>('GET', `/chat/conversations/${conv.id}/messages?limit=2&cursor=${p1.body.data.nextCursor}`, shipper);
    expect(p2.body.data.items.map((m) => m.body)).toEqual(['message 3', 'message 2']);
    const p3 = await call<MessageListResponse>('GET', `/chat/conversations/${conv.id}/messages?limit=2&cursor=${p2.body.data.nextCursor}`, shipper);
    expect(p3.body.data.items.map((m) => m.body)).toEqual(['message 1']);
    expect(p3.body.data.nextCursor).toBeNull();

    expect(await unread(shipper)).toEqual({ unread: before.unread + 5, conversations: before.conversations + 1 });
    expect(await unread(carrier2)).toEqual({ unread: 0, conversations: 0 });
    // the carrier's messages are not read yet
    const mine = await call<MessageListResponse>('GET', `/chat/conversations/${conv.id}/messages`, carrier2);
    expect(mine.body.data.items.map((m) => m.read)).toEqual([false, false, false, false, false]);

    // the shipper reads up to message 3: two left; the carrier sees 1–3 read
    const third = p2.body.data.items[0];
    const r = await call<ReadState>('POST', `/chat/conversations/${conv.id}/read`, shipper, { messageId: third.id });
    expect(r.body.data).toEqual({ conversationId: conv.id, readSeq: 3, unread: 2 });
    expect((await unread(shipper)).unread).toBe(before.unread + 2);
    const ticks = await call<MessageListResponse>('GET', `/chat/conversations/${conv.id}/messages`, carrier2);
    expect(ticks.body.data.items.map((m) => m.read)).toEqual([false, false, true, true, true]);
    expect(ticks.body.data.counterpartReadSeq).toBe(3);
    // never moves back
    const back = await call<ReadState>('POST', `/chat/conversations/${conv.id}/read`, shipper, { messageId: p3.body.data.items[0].id });
    expect(back.body.data.readSeq).toBe(3);

    // replying reads everything before one's reply
    expect((await send(shipper, conv.id, 'ok, see you at 7')).status).toBe(201);
    expect((await unread(shipper)).unread).toBe(before.unread);
    expect(await unread(carrier2)).toEqual({ unread: 1, conversations: 1 });

    // the list: latest message first, with the last message and my unread count
    const list = await call<ConversationListResponse>('GET', '/chat/conversations', carrier2);
    expect(list.body.data.items).toHaveLength(1);
    expect(list.body.data.items[0]).toMatchObject({ id: conv.id, unread: 1, counterpart: { companyName: 'Najd Foods' } });
    expect(list.body.data.items[0].lastMessage).toMatchObject({ body: 'ok, see you at 7', mine: false });
    const sl = await call<ConversationListResponse>('GET', '/chat/conversations?limit=1', shipper);
    expect(sl.body.data.items[0].id).toBe(conv.id);
    const sl2 = await call<ConversationListResponse>('GET', `/chat/conversations?limit=1&cursor=${sl.body.data.nextCursor}`, shipper);
    expect(sl2.body.data.items).toHaveLength(1);
    expect(sl2.body.data.items[0].id).not.toBe(conv.id);
    expect(await call('GET', '/chat/conversations?cursor=bm9wZQ', shipper)).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    // a well-formed cursor of another list (the favourites') is refused too
    const foreign = Buffer.from(JSON.stringify(['relations', ['2026-11-27 04:00:00.123456+00'], conv.id])).toString('base64url');
    expect((await call('GET', `/chat/conversations?cursor=${foreign}`, shipper)).status).toBe(400);
  });

  it('publishes chat.message_sent with both parties, and a notification for the other side', async () => {
    const m = (await send(carrier2, conv.id, 'event check')).body.data;
    const rows = await t.database.query<{ data: Record<string, unknown>; aggregate_type: string }>(
      `select data, aggregate_type from outbox_events where type = 'chat.message_sent' and data->>'messageId' = $1`,
      [m.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].aggregate_type).toBe('conversation');
    expect(rows[0].data).toMatchObject({ conversationId: conv.id, loadId: load2, shipperId: shipper.id, carrierId: carrier2.id, by: 'carrier' });
    // the job worker may be draining too (drainAll answers 0 while it holds the lock): wait for it
    const ofMessage = `event_id = (select id from outbox_events where data->>'messageId' = $1)`;
    await vi.waitFor(
      async () => {
        await t.app.container.services.events.drainAll();
        expect(await count(`select count(*) as n from notifications where ${ofMessage}`, [m.id])).toBe(1);
      },
      { timeout: 10_000, interval: 100 },
    );
    // one notification, for the shipper (the side that did not send it)
    expect(await count(`select count(*) as n from notifications where type = 'chat.message_sent' and ${ofMessage}`, [m.id])).toBe(1);
    expect(await count(`select count(*) as n from notifications where user_id = $2 and type = 'chat.message_sent' and ${ofMessage}`, [m.id, shipper.id])).toBe(
      1,
    );
    // private: not on the load's timeline
    expect(await count(`select count(*) as n from load_timeline where ${ofMessage}`, [m.id])).toBe(0);
  });

  it('a retried send with the same Idempotency-Key stores one message', async () => {
    const a = await send(carrier2, conv.id, 'only once', 'chat-key-1');
    const b = await send(carrier2, conv.id, 'only once', 'chat-key-1');
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.data.id).toBe(a.body.data.id);
    expect(await count(`select count(*) as n from chat_messages where conversation_id = $1 and body = 'only once'`, [conv.id])).toBe(1);
  });

  it('30 parallel sends are stored once each, in distinct seqs, and the unread count is exact', async () => {
    await call('POST', `/chat/conversations/${conv.id}/read`, shipper, {
      messageId: (await call<MessageListResponse>('GET', `/chat/conversations/${conv.id}/messages?limit=1`, shipper)).body.data.items[0].id,
    });
    const before = await unread(shipper);
    const res = await Promise.all(Array.from({ length: 30 }, (_, i) => send(carrier2, conv.id, `parallel ${i}`, `par-${i}`)));
    expect(res.map((r) => r.status)).toEqual(Array(30).fill(201));
    expect(await count(`select count(*) as n from chat_messages where conversation_id = $1 and body like 'parallel %'`, [conv.id])).toBe(30);
    expect(new Set(res.map((r) => r.body.data.seq)).size).toBe(30);
    expect((await unread(shipper)).unread).toBe(before.unread + 30);
    const c = (await call<Conversation>('GET', `/chat/conversations/${conv.id}`, shipper)).body.data;
    expect(c.unread).toBe(30);
  });
});

describe('racing opens', () => {
  it('30 parallel opens of the same conversation make one row', async () => {
    const carrier3 = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Jazan Freight' });
    const load3 = (await postLoad(t.app, shipper.headers, loadBody({ day: 4 }))).id;
    expect((await call('POST', '/offers', carrier3, { loadId: load3, priceSar: '2500' })).status).toBe(201);
    const res = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? open(carrier3, { loadId: load3 }) : open(shipper, { loadId: load3, counterpartId: carrier3.id }))),
    );
    expect(res.map((r) => r.status)).toEqual(Array(30).fill(201));
    expect(new Set(res.map((r) => r.body.data.id)).size).toBe(1);
    expect(await count(`select count(*) as n from chat_conversations where load_id = $1`, [load3])).toBe(1);
  });
});
