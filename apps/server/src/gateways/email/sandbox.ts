import { randomUUID } from 'node:crypto';
import type { EmailGateway, SentEmail } from './email.ts';

/** How many sent e-mails the sandbox keeps in memory. */
export const SANDBOX_OUTBOX_SIZE = 100;

/**
 * Sandbox e-mail gateway (the default): keeps the latest 100 messages in memory, newest first,
 * and logs only the recipient and the subject: never the body, which carries what a visitor
 * wrote (personal data).
 */
export function createSandboxEmail(from: string, log: (msg: string) => void = () => undefined): EmailGateway {
  const box: SentEmail[] = [];
  return {
    name: 'sandbox',
    async send(message) {
      const m: SentEmail = { ...message, id: randomUUID(), from, sentAt: new Date().toISOString() };
      box.unshift(m);
      if (box.length > SANDBOX_OUTBOX_SIZE) box.pop();
      log(`[email sandbox] to ${message.to}: ${message.subject}`);
      return { id: m.id };
    },
    outbox: (to) => (to ? box.filter((m) => m.to.toLowerCase() === to.toLowerCase()) : [...box]),
  };
}
