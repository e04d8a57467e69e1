import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * The webhook signature (docs/api.md "Verifying webhooks"; the scheme Stripe documents):
 * header `Masar-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * The timestamp is signed too, so a receiver can refuse replays older than its tolerance.
 */
export function signatureHeader(secret: string, body: string, at: Date = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/**
 * Verify a `Masar-Signature` header the way a receiver should: recompute, compare in constant
 * time, and refuse a timestamp older (or newer) than `toleranceSeconds`.
 */
export function verifySignature(secret: string, body: string, header: string, toleranceSeconds = 300, now: Date = new Date()): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The Standard Webhooks headers (standardwebhooks.com, signed by its reference library):
 * `webhook-id` (the event id: a receiver deduplicates on it), `webhook-timestamp` (unix
 * seconds), `webhook-signature: v1,<base64 HMAC-SHA256(base64-decoded secret, "<id>.<t>.<body>")>`.
 * The secret is the endpoint's `whsec_…`; one created before Standard Webhooks may be in the
 * base64url alphabet, which is read as the same bytes (receivers: replace - by + and _ by /).
 */
export function standardWebhookHeaders(secret: string, msgId: string, body: string, at: Date = new Date()): Record<string, string> {
  const key = secret
    .replace(/^whsec_/, '')
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign(msgId, at, body),
  };
}
