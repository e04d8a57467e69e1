import { randomUUID } from 'node:crypto';
import type { SmsGateway, SmsMessage } from './sms.ts';

/**
 * Sandbox SMS gateway: logs each message and keeps the latest 1,000 in memory, newest first.
 * It is the default (demo, staging, tests); a real provider replaces it by configuration.
 */
export function createSandboxSms(log: (msg: string) => void = () => undefined): SmsGateway {
  const box: SmsMessage[] = [];
  return {
    name: 'sandbox',
    async send(to, body) {
      const m = { id: randomUUID(), to, body, sentAt: new Date().toISOString() };
      box.unshift(m);
      if (box.length > 1000) box.pop();
      log(`[sms sandbox] to ${to}: ${body}`);
      return { id: m.id };
    },
    outbox: (phone) => (phone ? box.filter((m) => m.to === phone) : [...box]),
  };
}
