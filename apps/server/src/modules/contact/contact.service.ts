import { randomInt } from 'node:crypto';
import { isEvent, type ContactBody, type ContactResult, type ContactTopic, type Language } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import type { EmailGateway } from '../../gateways/email/email.ts';
import { newId } from '../../lib/ids.ts';
import { publish, type EventHandler } from '../events/events.service.ts';
import * as repo from './contact.repository.ts';

const TOPICS: Record<ContactTopic, { en: string; ar: string }> = {
  shipper: { en: 'Shipping with Masar', ar: 'الشحن عبر مسار' },
  carrier: { en: 'Carrying loads', ar: 'نقل الحمولات' },
  broker: { en: 'Brokers and TMS', ar: 'الوسطاء وأنظمة إدارة النقل' },
  billing: { en: 'Plans, payments and invoices', ar: 'الباقات والمدفوعات والفواتير' },
  partnership: { en: 'Partnerships', ar: 'الشراكات' },
  other: { en: 'Something else', ar: 'موضوع آخر' },
};

/** The acknowledgement the sender receives, in the language of the request. */
function acknowledgement(body: Pick<ContactBody, 'name' | 'topic'>, lang: Language, ref: string) {
  const topic = TOPICS[body.topic][lang];
  if (lang === 'ar')
    return {
      subject: `استلمنا رسالتك — ${topic}`,
      text: [
        `مرحباً ${body.name}،`,
        '',
        `شكراً لتواصلك مع مسار. استلم فريق الدعم رسالتك بخصوص «${topic}» وسيرد عليك على هذا البريد خلال يوم عمل واحد (الأحد إلى الخميس).`,
        `رقم المرجع: ${ref}`,
        '',
        'فريق مسار',
      ].join('\n'),
    };
  return {
    subject: `We received your message — ${topic}`,
    text: [
      `Hello ${body.name},`,
      '',
      `Thank you for contacting Masar. Our support team has your message about "${topic}" and will answer at this address within one working day (Sunday to Thursday).`,
      `Reference: ${ref}`,
      '',
      'The Masar team',
    ].join('\n'),
  };
}

/** The e-mail to the support mailbox: Reply-To the visitor, the message and how to reach them. */
function supportEmail(m: repo.ContactMessageRow, contactTo: string) {
  const topic = TOPICS[m.topic as ContactTopic]?.en ?? m.topic;
  return {
    to: contactTo,
    replyTo: m.email,
    subject: `[Contact ${m.reference}] ${topic} — ${m.name}`,
    text: [
      `From: ${m.name} <${m.email}>`,
      `Phone: ${m.phone ?? '—'}`,
      `Topic: ${topic} (${m.topic})`,
      `Language: ${m.lang}`,
      `Reference: ${m.reference}`,
      '',
      m.message,
    ].join('\n'),
  };
}

/** Reference alphabet: no 0/O, 1/I/L look-alikes (read aloud on the phone). */
const REF_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const newReference = () => `CT-${Array.from({ length: 6 }, () => REF_ALPHABET[randomInt(REF_ALPHABET.length)]).join('')}`;

/**
 * The contact form (issue 8, spec §1 "Contact us"; issue 18 "Side effects leave the request"): a
 * visitor's message is stored (contact_messages) and `contact.message_received` is published in
 * the same transaction; the e-mails go out after commit from `contactEmailHandler`.
 */
export function createContactService(deps: { db: Db }) {
  return {
    /**
     * Store a contact message and publish its event (one transaction). Answers `{ id, reference }`:
     * the message id (uuid) and the short reference the visitor quotes (e.g. "CT-7KQ2MX"). No
     * e-mail is sent here, so a mail outage cannot fail the request.
     */
    async send(body: ContactBody, lang: Language): Promise<ContactResult> {
      return deps.db.transaction(async (tx) => {
        const id = newId();
        // the reference is random (31^6 ≈ 8.9e8): on the rare clash, draw again (the unique index decides)
        for (let attempt = 0; ; attempt++) {
          const reference = newReference();
          const row = await repo.insertMessage(tx, {
            id,
            reference,
            name: body.name,
            email: body.email,
            phone: body.phone ?? null,
            topic: body.topic,
            message: body.message,
            lang,
          });
          if (!row) {
            if (attempt < 5) continue;
            throw new Error('contact: could not draw a free reference');
          }
          await publish(tx, {
            type: 'contact.message_received',
            aggregateType: 'contact',
            aggregateId: id,
            actorId: null,
            data: { contactMessageId: id, reference },
          });
          return { id, reference };
        }
      });
    },
  };
}
export type ContactService = ReturnType<typeof createContactService>;

/**
 * The outbox handler of `contact.message_received`: sends the message to the support mailbox
 * (CONTACT_TO, Reply-To the visitor), then the acknowledgement to the visitor in their language,
 * stamping `support_sent_at` / `ack_sent_at` after each send. Idempotent (delivery is at least
 * once): what is stamped is not sent again. A failed send is recorded in `last_error` and logged,
 * never thrown — a throwing handler would stop the outbox batch and hold every later event. The
 * acknowledgement waits for the support e-mail (it tells the visitor the team has the message).
 */
export function contactEmailHandler(deps: { email: EmailGateway; contactTo: string; log: { error(o: unknown, m: string): void } }): EventHandler {
  return {
    name: 'contact-emails',
    async handle(tx, e) {
      if (!isEvent(e, 'contact.message_received')) return;
      const m = await repo.messageForUpdate(tx, e.data.contactMessageId);
      if (!m) return;
      const failed = (what: string, err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        deps.log.error({ err: message, contactMessageId: m.id, reference: m.reference }, `contact: ${what} e-mail failed`);
        return `${what}: ${message}`.slice(0, 500);
      };
      if (!m.supportSentAt) {
        try {
          await deps.email.send(supportEmail(m, deps.contactTo));
          await repo.recordSends(tx, m.id, { supportSentAt: new Date(), lastError: null });
        } catch (err) {
          await repo.recordSends(tx, m.id, { lastError: failed('support', err) });
          return;
        }
      }
      if (!m.ackSentAt) {
        const lang: Language = m.lang === 'ar' ? 'ar' : 'en';
        try {
          await deps.email.send({ to: m.email, ...acknowledgement({ name: m.name, topic: m.topic as ContactTopic }, lang, m.reference) });
          await repo.recordSends(tx, m.id, { ackSentAt: new Date(), lastError: null });
        } catch (err) {
          await repo.recordSends(tx, m.id, { lastError: failed('acknowledgement', err) });
        }
      }
    },
  };
}
