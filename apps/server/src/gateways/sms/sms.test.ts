import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSmsGateway } from './index.ts';
import { createSandboxSms, maskPhone } from './sandbox.ts';
import { createUnifonicSms } from './unifonic.ts';

type Call = { url: string; body: string };
function fakeFetch(status: number, answer: unknown, calls: Call[] = []): typeof fetch {
  return async (url, init) => {
    calls.push({ url: url instanceof Request ? url.url : url.toString(), body: typeof init?.body === 'string' ? init.body : '' });
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  };
}

describe('sandbox SMS', () => {
  it('keeps an outbox, newest first, per phone', async () => {
    const logged: string[] = [];
    const sms = createSandboxSms((m) => logged.push(m));
    await sms.send('+966500000001', 'a');
    await sms.send('+966500000002', 'b');
    await sms.send('+966500000001', 'c');
    expect(sms.outbox!('+966500000001').map((m) => m.body)).toEqual(['c', 'a']);
    expect(sms.outbox!()).toHaveLength(3);
    expect(logged[0]).toBe(`SMS to ${maskPhone('+966500000001')} kept in the sandbox outbox (GET /api/v1/dev/outbox with DEV_OUTBOX=1)`);
  });

  it('writes each message to DATA_DIR/sms-sandbox.log and logs only a masked phone and the file, never the body (issue 22)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'masar-sms-'));
    try {
      const logged: string[] = [];
      const sms = createSmsGateway(
        { SMS_GATEWAY: 'sandbox', SMS_API_KEY: undefined, SMS_SENDER_ID: undefined, LOG_LEVEL: 'trace', DATA_DIR: dir, dataDir: join(dir, 'data') },
        (m) => logged.push(m),
      );
      await sms.send('+966512345678', 'Your Masar code is 482913');
      await sms.send('+966512345678', 'Your Masar code is 771204');
      const file = join(dir, 'data', 'sms-sandbox.log');
      expect(logged).toEqual([`SMS to +9665…5678 written to ${file}`, `SMS to +9665…5678 written to ${file}`]);
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { to: string; body: string });
      expect(lines.map((l) => [l.to, l.body])).toEqual([
        ['+966512345678', 'Your Masar code is 482913'],
        ['+966512345678', 'Your Masar code is 771204'],
      ]);
      expect(statSync(file).mode & 0o077).toBe(0); // the codes are readable by the server's user only
      expect(sms.outbox!('+966512345678')).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Unifonic SMS', () => {
  it('posts the form Unifonic expects and returns the message id', async () => {
    const calls: Call[] = [];
    const sms = createUnifonicSms({
      appSid: 'APP',
      senderId: 'Masar',
      fetch: fakeFetch(200, { success: true, errorCode: 'ER-00', data: { MessageID: 42 } }, calls),
    });
    expect(await sms.send('+966512345678', 'رمز التحقق 1234')).toEqual({ id: '42' });
    expect(calls[0].url).toBe('https://el.cloud.unifonic.com/rest/SMS/messages');
    const form = new URLSearchParams(calls[0].body);
    expect(Object.fromEntries(form)).toMatchObject({ AppSid: 'APP', SenderID: 'Masar', Recipient: '966512345678', Body: 'رمز التحقق 1234', MessageType: '3' });
    expect('outbox' in sms).toBe(false);
  });

  it('throws when Unifonic refuses or fails', async () => {
    await expect(
      createUnifonicSms({ appSid: 'APP', fetch: fakeFetch(200, { success: false, errorCode: 'ER-04', message: 'Dest num is too short' }) }).send(
        '+966512345678',
        'x',
      ),
    ).rejects.toThrow('ER-04');
    await expect(createUnifonicSms({ appSid: 'APP', fetch: fakeFetch(503, {}) }).send('+966512345678', 'x')).rejects.toThrow('HTTP 503');
  });

  it('is chosen by SMS_GATEWAY and needs SMS_API_KEY', () => {
    expect(createSmsGateway({ SMS_GATEWAY: 'unifonic', SMS_API_KEY: 'APP', SMS_SENDER_ID: undefined, LOG_LEVEL: 'silent' }).name).toBe('unifonic');
    expect(() => createSmsGateway({ SMS_GATEWAY: 'unifonic', SMS_API_KEY: undefined, SMS_SENDER_ID: undefined, LOG_LEVEL: 'silent' })).toThrow('SMS_API_KEY');
    expect(createSmsGateway({ SMS_GATEWAY: 'sandbox', SMS_API_KEY: undefined, SMS_SENDER_ID: undefined, LOG_LEVEL: 'silent' }).name).toBe('sandbox');
  });
});
