/** An e-mail to send. `text` is the plain-text body (every message has one); `html` is optional. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where replies go (the contact form: the visitor's address). */
  replyTo?: string;
}

/** A sent e-mail as the sandbox keeps it (recipient, subject, body: dev/test only, never logged). */
export interface SentEmail extends EmailMessage {
  id: string;
  from: string;
  sentAt: string;
}

/**
 * E-mail gateway (DESIGN §1 gateways). `send` delivers one message from EMAIL_FROM or throws;
 * it answers the provider's message id. The sandbox also exposes `outbox` (GET
 * /api/v1/dev/emails exists only then, with DEV_OUTBOX=1).
 */
export interface EmailGateway {
  readonly name: string;
  send(message: EmailMessage): Promise<{ id: string }>;
  /** Only the sandbox has an outbox: newest first, optionally only those sent to `to`. */
  outbox?(to?: string): SentEmail[];
}
