/** A sent SMS as the sandbox keeps it. */
export interface SmsMessage {
  id: string;
  to: string;
  body: string;
  sentAt: string;
}

/**
 * SMS gateway (DESIGN §1 gateways). `send` delivers `body` to `to` (E.164, +9665…) or throws.
 * The sandbox implementation also exposes `outbox` (GET /api/v1/dev/outbox exists only then).
 */
export interface SmsGateway {
  readonly name: string;
  send(to: string, body: string): Promise<{ id: string }>;
  /** Only the sandbox has an outbox. */
  outbox?(phone?: string): SmsMessage[];
}
