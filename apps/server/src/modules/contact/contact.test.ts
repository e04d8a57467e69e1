import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_TYPE, type LoadTimelineEntry } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser } from '../../../test/fixtures.ts';
import { postLoad } from '../loads/loads.testkit.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ CONTACT_TO: 'team@masar.example', CONTACT_RATE_PER_IP_PER_HOUR: 6 });
});
afterAll(() => t?.close());

const valid = {
  name: 'Faisal Al-Harbi',
  email: 'Faisal@Example.com',
  phone: '0551234567',
  topic: 'carrier',
  message: 'We run 12 flatbeds out of Dammam and want to know how bidding works.',
};
const outbox = () => t.app.gateways.email.outbox!();
/** The stored message of a reference (the e-mails leave from the outbox handler after commit). */
interface StoredRow {
  id: string;
  reference: string;
  email: string;
  phone: string | null;
  lang: string;
  support_sent_at: Date | null;
  ack_sent_at: Date | null;
  last_error: string | null;
}
const stored = async (reference: string) => (await t.database.query<StoredRow>('select * from contact_messages where reference = $1', [reference]))[0];
const sentFor = async (reference: string) => (await stored(reference))?.ack_sent_at != null;
afterEach(() => vi.restoreAllMocks());
const post = (body: unknown, headers: Record<string, string> = {}, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/contact', payload: body as object, headers, remoteAddress: ip });

describe('POST /api/v1/contact', () => {
  it('stores the message, answers its reference, and sends the support e-mail and an Arabic acknowledgement after commit', async () => {
    const before = outbox().length;
    const res = await post(valid, { language: 'ar' });
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toContain('وصلت رسالتك');
    const { id, reference } = res.json().data as { id: string; reference: string };
    expect(reference).toMatch(/^CT-[A-Z2-9]{6}$/);
    const row = await stored(reference);
    expect(row).toMatchObject({ id, email: 'faisal@example.com', phone: '+966551234567', lang: 'ar', last_error: null });
    // the e-mails leave from the outbox handler, after the commit
    await expect.poll(() => sentFor(reference), { timeout: 15_000 }).toBe(true);
    const mails = outbox().slice(0, outbox().length - before);
    expect(mails).toHaveLength(2);
    const [ack, team] = mails; // newest first
    expect(team).toMatchObject({ to: 'team@masar.example', replyTo: 'faisal@example.com' });
    expect(team.subject).toContain('Carrying loads');
    expect(team.subject).toContain(reference);
    expect(team.text).toContain(valid.message);
    expect(team.text).toContain('+966551234567');
    expect(ack.to).toBe('faisal@example.com');
    expect(ack.subject).toContain('استلمنا رسالتك');
    expect(ack.text).toContain('مرحباً Faisal Al-Harbi');
    expect(ack.text).toContain(reference);
    expect((await stored(reference)).support_sent_at).not.toBeNull();
    // DEV_OUTBOX=1 (tests): the sandbox outbox is readable over HTTP
    const dev = await t.app.inject({ url: '/api/v1/dev/emails?to=faisal@example.com' });
    expect(dev.json().data.items[0]).toMatchObject({ id: ack.id, subject: ack.subject });
    // a redelivered event (at least once) sends nothing twice
    await t.database.query(
      `delete from outbox_deliveries where handler = 'contact-emails' and event_id = (select id from outbox_events where aggregate_id = $1)`,
      [id],
    );
    await t.database.query(`update outbox_events set delivered_at = null where aggregate_id = $1`, [id]);
    await t.app.container.services.events.drainAll();
    const redelivered = async () =>
      (
        await t.database.query(
          `select 1 from outbox_deliveries where handler = 'contact-emails' and event_id = (select id from outbox_events where aggregate_id = $1)`,
          [id],
        )
      ).length;
    await expect.poll(redelivered, { timeout: 15_000 }).toBe(1);
    expect(outbox().length - before).toBe(2);
  });

  it('refuses bad input with localized field messages and sends nothing', async () => {
    const before = outbox().length;
    const res = await post({ ...valid, email: 'not-an-email', phone: '0412345678', topic: 'spam', message: 'short' }, { language: 'ar' });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: string; errors: { path: string; message: string }[] }>();
    expect(body.code).toBe('VALIDATION_FAILED');
    const byPath = Object.fromEntries(body.errors.map((e) => [e.path, e.message]));
    expect(byPath.email).toBe('أدخل بريداً إلكترونياً صحيحاً.');
    expect(byPath.phone).toBe('يجب أن يبدأ رقم الجوال بالرقم 5.');
    expect(byPath.topic).toBe('اختر موضوع رسالتك.');
    expect(byPath.message).toBe('اكتب رسالة من ١٠ إلى ٢٬٠٠٠ حرف.');
    const en = await post({ ...valid, name: 'A' });
    expect(en.statusCode).toBe(400);
    expect(en.json().errors).toEqual([{ path: 'name', message: 'Enter your name (2 to 80 characters).' }]);
    expect(outbox().length).toBe(before);
  });

  it('sends once for a replayed Idempotency-Key', async () => {
    const before = outbox().length;
    const headers = { 'idempotency-key': 'contact-replay-1' };
    const body = { ...valid, phone: '', message: 'Please call me about the enterprise plan for 40 trucks.' };
    const first = await post(body, headers, '10.0.0.2');
    const again = await post(body, headers, '10.0.0.2');
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    await expect.poll(() => sentFor(first.json().data.reference), { timeout: 15_000 }).toBe(true);
    await t.app.container.services.events.drainAll();
    expect(outbox().length - before).toBe(2); // one to the team, one acknowledgement
    expect(outbox()[1].text).toContain('Phone: —');
    expect((await t.database.query('select id from contact_messages where message = $1', [body.message])).length).toBe(1);
  });

  it('limits messages per IP per hour', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await post(valid, {}, '10.0.0.3')).statusCode);
    expect(codes.slice(0, 6)).toEqual([202, 202, 202, 202, 202, 202]);
    expect(codes[6]).toBe(429);
  });
});

describe('contact e-mails from the outbox', () => {
  it('a mail outage does not fail the request, is recorded, and holds no later event', async () => {
    const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    // the earlier tests' messages are all out (the drain runs on its own after each commit)
    const unsent = async () => (await t.database.query<{ n: number }>('select count(*)::int as n from contact_messages where ack_sent_at is null'))[0].n;
    await expect.poll(unsent, { timeout: 15_000 }).toBe(0);
    const outage = 'Our mail server is down, does this still arrive?';
    const email = t.app.gateways.email;
    const send = email.send.bind(email);
    const tried: { to: string; subject: string; text: string }[] = [];
    vi.spyOn(email, 'send').mockImplementation(async (m) => {
      tried.push(m);
      if (m.to === 'team@masar.example' && m.text.includes(outage)) throw new Error('smtp 421 try later');
      return send(m);
    });
    const res = await post({ ...valid, message: outage }, {}, '10.0.0.4');
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toContain('Your message reached our team');
    const { reference } = res.json().data as { reference: string };
    await expect.poll(async () => (await stored(reference)).last_error, { timeout: 15_000 }).toContain('smtp 421');
    const row = await stored(reference);
    expect(row.support_sent_at).toBeNull();
    expect(row.ack_sent_at).toBeNull(); // the acknowledgement waits for the team's copy
    expect(tried.filter((m) => m.subject.includes(reference) || m.text.includes(reference)).map((m) => m.to)).toEqual(['team@masar.example']);

    // the handler did not throw: a later event still reaches its handlers (the load timeline)
    const load = await postLoad(t.app, shipper.headers);
    const types = async () =>
      (await t.app.inject({ url: `/api/v1/loads/${load.id}/timeline`, headers: shipper.headers }))
        .json<{ data: { items: LoadTimelineEntry[] } }>()
        .data.items.map((e) => e.type);
    await expect.poll(types, { timeout: 15_000 }).toContain('load.posted');
  });
});
