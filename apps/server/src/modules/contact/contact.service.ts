import type { ContactBody, ContactTopic, Language } from '@masar/shared';
import type { EmailGateway } from '../../gateways/email/email.ts';
import { AppError } from '../../lib/errors.ts';

const TOPICS: Record<ContactTopic, { en: string; ar: string }> = {
  shipper: { en: 'Shipping with Masar', ar: 'الشحن عبر مسار' },
  carrier: { en: 'Carrying loads', ar: 'نقل الحمولات' },
  broker: { en: 'Brokers and TMS', ar: 'الوسطاء وأنظمة إدارة النقل' },
  billing: { en: 'Plans, payments and invoices', ar: 'الباقات والمدفوعات والفواتير' },
  partnership: { en: 'Partnerships', ar: 'الشراكات' },
  other: { en: 'Something else', ar: 'موضوع آخر' },
};

/** The acknowledgement the sender receives, in the language of the request. */
function acknowledgement(body: ContactBody, lang: Language, ref: string) {
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

/**
 * The contact form (issue 8, spec §1 "Contact us"): a visitor's message goes by e-mail to the
 * support mailbox (CONTACT_TO) with Reply-To set to the visitor, then an acknowledgement goes
 * to the visitor in their language. Nothing is stored in the database.
 */
export function createContactService(deps: { email: EmailGateway; contactTo: string; log?: { error(obj: unknown, msg: string): void } }) {
  return {
    /**
     * Send a contact message. Answers `{ id }`, the support message's id (quoted to the visitor
     * as the reference). Throws EMAIL_SEND_FAILED (502) when the support e-mail cannot be sent;
     * a failed acknowledgement is only logged (the team has the message and can answer).
     */
    async send(body: ContactBody, lang: Language): Promise<{ id: string }> {
      const topic = TOPICS[body.topic].en;
      let sent: { id: string };
      try {
        sent = await deps.email.send({
          to: deps.contactTo,
          replyTo: body.email,
          subject: `[Contact] ${topic} — ${body.name}`,
          text: [
            `From: ${body.name} <${body.email}>`,
            `Phone: ${body.phone ?? '—'}`,
            `Topic: ${topic} (${body.topic})`,
            `Language: ${lang}`,
            '',
            body.message,
          ].join('\n'),
        });
      } catch (err) {
        deps.log?.error({ err: err instanceof Error ? err.message : String(err) }, 'contact: e-mail to the support mailbox failed');
        throw new AppError('EMAIL_SEND_FAILED');
      }
      const ref = sent.id.replace(/[<>]/g, '').slice(0, 12) || '—';
      try {
        await deps.email.send({ to: body.email, ...acknowledgement(body, lang, ref) });
      } catch (err) {
        deps.log?.error({ err: err instanceof Error ? err.message : String(err) }, 'contact: acknowledgement e-mail failed');
      }
      return { id: sent.id };
    },
  };
}
export type ContactService = ReturnType<typeof createContactService>;
