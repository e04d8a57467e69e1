import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { EmailGateway } from './email.ts';

export interface SmtpOptions {
  /** smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465 (TLS). */
  url?: string;
  /** The From header, e.g. `Masar <no-reply@masar.example>`. */
  from: string;
  /** Injected for tests (e.g. nodemailer's jsonTransport); built from `url` otherwise. */
  transport?: Transporter;
}

/**
 * SMTP adapter (nodemailer): one pooled transport made from SMTP_URL. `send` maps the message
 * to nodemailer's fields (from, to, replyTo, subject, text, html) and answers the server's
 * Message-ID. Throws when the server refuses (the contact-form handler records it as last_error).
 */
export function createSmtpEmail(opts: SmtpOptions): EmailGateway {
  if (!opts.transport && !opts.url) throw new Error('EMAIL_GATEWAY=smtp needs SMTP_URL (smtp://user:pass@host:587)');
  const transport = opts.transport ?? smtpTransport(opts.url!);
  return {
    name: 'smtp',
    async send(m) {
      const info = (await transport.sendMail({
        from: opts.from,
        to: m.to,
        replyTo: m.replyTo,
        subject: m.subject,
        text: m.text,
        html: m.html,
      })) as { messageId?: string };
      return { id: info.messageId ?? '' };
    },
  };
}

/** A pooled nodemailer SMTP transport from SMTP_URL (host, port, user:pass, smtps = TLS) with timeouts. */
export function smtpTransport(url: string): Transporter {
  return nodemailer.createTransport({ url, pool: true, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
}
