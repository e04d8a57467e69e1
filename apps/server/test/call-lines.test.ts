import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Call, type ChatMessage, type ChatUnread, type Conversation } from '@masar/shared';
import { apiCaller, createUser, loadConversation, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * Issue 48: every call leaves one line in its conversation, written by the calls module through
 * the chat module's port in the transaction of the call's ending (docs/calls.md "The line in the
 * conversation"), on PGlite and PostgreSQL: a declined call, a missed call (unread for the called
 * side only) and an ended call with its length each leave exactly one line both sides read, and
 * 20 racing hang-ups of one call still leave one.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let conv: Conversation;
const { call, ok } = apiCaller(() => t);

const ring = (u: TestUser, type: 'AudioCall' | 'VideoCall' = 'AudioCall') =>
  call<Call>('POST', '/meetings/v1/meeting', u.headers, { conversationId: conv.id, type });
const accept = (u: TestUser, meetingId: string) => call<Call>('POST', '/meetings/v1/accept', u.headers, { meetingId, deviceId: 'tab-1' });
const leave = (u: TestUser, meetingId: string) => call<Call>('DELETE', `/meetings/v1/leave?meetingId=${meetingId}`, u.headers);
const messages = async (u: TestUser) => ok<{ items: ChatMessage[] }>(await call('GET', `/chat/conversations/${conv.id}/messages`, u.headers)).items;
/** The lines of call `id` as `u` reads them. */
const linesOf = async (u: TestUser, id: string) => (await messages(u)).filter((m) => m.call?.callId === id);
const unread = async (u: TestUser) => ok<ChatUnread>(await call('GET', '/chat/unread', u.headers)).unread;

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Najd Foods' });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Qassim Haulage' });
  ({ conv } = await loadConversation(t, shipper, carrier));
});
afterAll(async () => {
  await t?.close();
});

describe('a call’s line in the conversation (issue 48)', () => {
  it('a declined call leaves one “declined” line, the caller’s, that both sides read and nobody has unread', async () => {
    const before = { s: await unread(shipper), c: await unread(carrier) };
    const c = ok(await ring(shipper), 201);
    expect(await linesOf(shipper, c.meetingId)).toEqual([]);
    ok(await leave(carrier, c.meetingId));
    // a retry of the decline writes nothing more
    ok(await leave(carrier, c.meetingId));
    const [mine] = await linesOf(shipper, c.meetingId);
    expect(await linesOf(shipper, c.meetingId)).toHaveLength(1);
    expect(mine).toMatchObject({
      mine: true,
      body: '',
      senderId: shipper.id,
      call: { callId: c.meetingId, type: 'AudioCall', outcome: 'declined', durationSeconds: null },
    });
    expect(await linesOf(carrier, c.meetingId)).toEqual([expect.objectContaining({ id: mine.id, mine: false, read: null })]);
    expect({ s: await unread(shipper), c: await unread(carrier) }).toEqual(before);
    // it is the conversation's last message, as the list shows it
    const list = ok<{ items: Conversation[] }>(await call('GET', '/chat/conversations', carrier.headers)).items;
    expect(list.find((x) => x.id === conv.id)?.lastMessage?.call).toMatchObject({ outcome: 'declined' });
  });

  it('a call the caller gives up on is one “missed” line, unread for the called side only', async () => {
    const before = { s: await unread(shipper), c: await unread(carrier) };
    const c = ok(await ring(carrier, 'VideoCall'), 201);
    ok(await leave(carrier, c.meetingId));
    expect(await linesOf(shipper, c.meetingId)).toEqual([
      expect.objectContaining({ mine: false, call: { callId: c.meetingId, type: 'VideoCall', outcome: 'missed', durationSeconds: null } }),
    ]);
    expect({ s: await unread(shipper), c: await unread(carrier) }).toEqual({ s: before.s + 1, c: before.c });
    // reading the thread reads it
    const [line] = await linesOf(shipper, c.meetingId);
    ok(await call('POST', `/chat/conversations/${conv.id}/read`, shipper.headers, { messageId: line.id }));
    expect(await unread(shipper)).toBe(before.s);
  });

  it('an ended call leaves one “ended” line with its length (answer to hang-up, seconds)', async () => {
    const c = ok(await ring(shipper), 201);
    ok(await accept(carrier, c.meetingId));
    // a test fixture: the call was answered 2 min 15 s ago
    await t.database.query(`update calls set answered_at = answered_at - interval '135 seconds' where id = $1`, [c.meetingId]);
    ok(await leave(carrier, c.meetingId));
    const lines = await linesOf(carrier, c.meetingId);
    expect(lines).toHaveLength(1);
    expect(lines[0].call).toMatchObject({ outcome: 'ended', type: 'AudioCall' });
    expect(lines[0].call!.durationSeconds).toBeGreaterThanOrEqual(135);
    expect(lines[0].call!.durationSeconds).toBeLessThanOrEqual(137);
  });

  it('20 racing hang-ups of one call (both sides) end it once and leave exactly one line', async () => {
    const c = ok(await ring(carrier), 201);
    ok(await accept(shipper, c.meetingId));
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => leave(i % 2 ? shipper : carrier, c.meetingId)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await linesOf(shipper, c.meetingId)).toEqual([expect.objectContaining({ call: expect.objectContaining({ outcome: 'ended' }) })]);
    const [{ n }] = await t.database.query<{ n: string | number }>(`select count(*) as n from chat_messages where call_id = $1`, [c.meetingId]);
    expect(Number(n)).toBe(1);
  });
});
