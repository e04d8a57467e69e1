import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import type { EmailGateway } from '../../gateways/email/email.ts';
import { createContactService } from './contact.service.ts';

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
const post = (body: unknown, headers: Record<string, string> = {}, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/contact', payload: body as object, headers, remoteAddress: ip });

describe('POST /api/v1/contact', () => {
  it('sends the message to the support mailbox with reply-to the sender, and an Arabic acknowledgement', async () => {
    const before = outbox().length;
    const res = await post(valid, { language: 'ar' });
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toContain('وصلت رسالتك');
    const mails = outbox().slice(0, outbox().length - before);
    expect(mails).toHaveLength(2);
    const [ack, team] = mails; // newest first
    expect(team).toMatchObject({ to: 'team@masar.example', replyTo: 'faisal@example.com' });
    expect(team.subject).toContain('Carrying loads');
    expect(team.text).toContain(valid.message);
    expect(team.text).toContain('+966551234567');
    expect(team.id).toBe(res.json().data.id);
    expect(ack.to).toBe('faisal@example.com');
    expect(ack.subject).toContain('استلمنا رسالتك');
    expect(ack.text).toContain('مرحباً Faisal Al-Harbi');
    // DEV_OUTBOX=1 (tests): the sandbox outbox is readable over HTTP
    const dev = await t.app.inject({ url: '/api/v1/dev/emails?to=faisal@example.com' });
    expect(dev.json().data.items[0]).toMatchObject({ id: ack.id, subject: ack.subject });
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
    expect(outbox().length - before).toBe(2); // one to the team, one acknowledgement
    expect(outbox()[1].text).toContain('Phone: —');
  });

  it('limits messages per IP per hour', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await post(valid, {}, '10.0.0.3')).statusCode);
    expect(codes.slice(0, 6)).toEqual([202, 202, 202, 202, 202, 202]);
    expect(codes[6]).toBe(429);
  });
});

describe('contact service', () => {
  const body = { name: 'Reem Al-Mutairi', email: 'reem@example.com', topic: 'billing' as const, message: 'My invoice shows the wrong VAT number.' };
  it('answers EMAIL_SEND_FAILED when the support e-mail cannot be sent, and sends no acknowledgement', async () => {
    const tried: string[] = [];
    const down: EmailGateway = {
      name: 'down',
      send: async (m) => {
        tried.push(m.to);
        throw new Error('smtp 421');
      },
    };
    const errors: string[] = [];
    const svc = createContactService({ email: down, contactTo: 'team@masar.example', log: { error: (_o, m) => errors.push(m) } });
    await expect(svc.send(body, 'en')).rejects.toMatchObject({ code: 'EMAIL_SEND_FAILED' });
    expect(tried).toEqual(['team@masar.example']);
    expect(errors).toHaveLength(1);
  });

  it('still succeeds when only the acknowledgement fails (the team has the message)', async () => {
    const sent: string[] = [];
    const flaky: EmailGateway = {
      name: 'flaky',
      send: async (m) => {
        if (m.to !== 'team@masar.example') throw new Error('mailbox full');
        sent.push(m.subject);
        return { id: '<m1@mail>' };
      },
    };
    const errors: string[] = [];
    const svc = createContactService({ email: flaky, contactTo: 'team@masar.example', log: { error: (_o, m) => errors.push(m) } });
    expect(await svc.send(body, 'ar')).toEqual({ id: '<m1@mail>' });
    expect(sent).toEqual(['[Contact] Plans, payments and invoices — Reem Al-Mutairi']);
    expect(errors).toEqual(['contact: acknowledgement e-mail failed']);
  });
});
