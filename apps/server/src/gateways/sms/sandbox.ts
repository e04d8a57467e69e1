import { randomUUID } from 'node:crypto';
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SmsGateway, SmsMessage } from './sms.ts';

/** Where the sandbox keeps what it "sent", for a developer to read: DATA_DIR/sms-sandbox.log. */
export const SMS_SANDBOX_FILE = 'sms-sandbox.log';

/** A phone for the log: the country and operator prefix and the last four digits (+9665…1234). */
export function maskPhone(phone: string): string {
  return phone.length > 8 ? `${phone.slice(0, 5)}…${phone.slice(-4)}` : '…';
}

/**
 * Sandbox SMS gateway: keeps the latest 1,000 messages in memory, newest first (GET
 * /api/v1/dev/outbox with DEV_OUTBOX=1), and appends each, body included, to `file` (one line of
 * JSON per message; DATA_DIR/sms-sandbox.log, mode 0600) when given. The server log gets only
 * "SMS to +9665…1234 written to <file>": an SMS body carries one-time codes and sign-in links,
 * which never go to the log (issue 22). It is the default (demo, staging, tests); a real provider
 * replaces it by configuration, and NODE_ENV=production refuses it unless ALLOW_SANDBOX_GATEWAYS=1.
 */
export function createSandboxSms(log: (msg: string) => void = () => undefined, file?: string): SmsGateway {
  const box: SmsMessage[] = [];
  let ready: Promise<unknown> | undefined;
  return {
    name: 'sandbox',
    async send(to, body) {
      const m = { id: randomUUID(), to, body, sentAt: new Date().toISOString() };
      box.unshift(m);
      if (box.length > 1000) box.pop();
      if (file) {
        ready ??= mkdir(dirname(file), { recursive: true });
        await ready;
        await appendFile(file, `${JSON.stringify(m)}\n`, { mode: 0o600 });
        log(`SMS to ${maskPhone(to)} written to ${file}`);
      } else {
        log(`SMS to ${maskPhone(to)} kept in the sandbox outbox (GET /api/v1/dev/outbox with DEV_OUTBOX=1)`);
      }
      return { id: m.id };
    },
    outbox: (phone) => (phone ? box.filter((m) => m.to === phone) : [...box]),
  };
}
