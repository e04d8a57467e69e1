import nodemailer, { type SendMailOptions } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { createEmailGateway } from './index.ts';
import { createSandboxEmail, SANDBOX_OUTBOX_SIZE } from './sandbox.ts';
import { createSmtpEmail, smtpTransport } from './smtp.ts';

describe('sandbox e-mail', () => {
  it('keeps the latest 100, newest first, and logs only recipient and subject', async () => {
    const logged: string[] = [];
    const mail = createSandboxEmail('Masar <no-reply@masar.example>', (m) => logged.push(m));
    for (let i = 0; i < SANDBOX_OUTBOX_SIZE + 5; i++) await mail.send({ to: `u${i % 2}@example.com`, subject: `s${i}`, text: `secret body ${i}` });
    const all = mail.outbox!();
    expect(all).toHaveLength(SANDBOX_OUTBOX_SIZE);
    expect(all[0]).toMatchObject({ subject: `s${SANDBOX_OUTBOX_SIZE + 4}`, from: 'Masar <no-reply@masar.example>' });
    expect(mail.outbox!('U1@example.com').every((m) => m.to === 'u1@example.com')).toBe(true);
    expect(logged[0]).toBe('[email sandbox] to u0@example.com: s0');
    expect(logged.join('\n')).not.toContain('secret body');
  });
});

describe('SMTP e-mail (nodemailer)', () => {
  it('maps the message onto nodemailer fields and answers the Message-ID', async () => {
    const transport = nodemailer.createTransport({ jsonTransport: true });
    const sent: string[] = [];
    const orig = transport.sendMail.bind(transport);
    transport.sendMail = (async (m: SendMailOptions) => {
      const info = (await orig(m)) as { message: string; messageId: string };
      sent.push(info.message);
      return info;
    }) as typeof transport.sendMail;
    const mail = createSmtpEmail({ from: 'Masar <no-reply@masar.example>', transport });
    const r = await mail.send({ to: 'support@masar.example', replyTo: 'visitor@example.com', subject: 'مرحبا', text: 'نص الرسالة' });
    expect(r.id).toMatch(/^<.+@.+>$/);
    const json = JSON.parse(sent[0]) as Record<string, unknown>;
    expect(json).toMatchObject({
      from: { address: 'no-reply@masar.example', name: 'Masar' },
      to: [{ address: 'support@masar.example', name: '' }],
      replyTo: [{ address: 'visitor@example.com', name: '' }],
      subject: 'مرحبا',
      text: 'نص الرسالة',
    });
    expect('outbox' in mail).toBe(false);
  });

  it('builds a pooled SMTP transport from SMTP_URL, and needs one', () => {
    const mail = createEmailGateway({
      EMAIL_GATEWAY: 'smtp',
      SMTP_URL: 'smtp://user:pa%40ss@mail.example.com:587',
      EMAIL_FROM: 'x@masar.example',
      LOG_LEVEL: 'silent',
    });
    expect(mail.name).toBe('smtp');
    expect(() => createSmtpEmail({ from: 'x@masar.example' })).toThrow('SMTP_URL');
    expect(createEmailGateway({ EMAIL_GATEWAY: 'sandbox', SMTP_URL: undefined, EMAIL_FROM: 'x@masar.example', LOG_LEVEL: 'silent' }).name).toBe('sandbox');
  });

  it('reads host, port and credentials from the URL', () => {
    const t = smtpTransport('smtps://user:pa%40ss@mail.example.com:465');
    const opts = (t as unknown as { transporter: { options: Record<string, unknown> } }).transporter.options;
    expect(opts).toMatchObject({
      host: 'mail.example.com',
      port: 465,
      secure: true,
      auth: { user: 'user', pass: 'pa@ss' },
      pool: true,
      connectionTimeout: 10_000,
    });
    t.close();
  });
});
