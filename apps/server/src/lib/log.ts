import { stdSerializers } from 'pino';

/**
 * The server log holds no secret (issue 6): request fields that carry credentials are redacted
 * by path, and errors are scrubbed of the parameters of failed SQL (drizzle puts them in the
 * message, "Failed query: … params: …", and on the error), which may hold a password hash, an OTP
 * hash or a refresh-token hash.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.newPassword',
  '*.oldPassword',
  '*.confirmPassword',
  '*.otp',
  '*.code',
  '*.refToken',
  '*.refreshToken',
  '*.accessToken',
  '*.token',
  '*.refreshHash',
  '*.passwordHash',
  // card data (issue 8): never in a log, even on a validation error
  '*.number',
  '*.cvc',
];

const PARAMS_RE = /(params:)[\s\S]*$/i;

/** Drop the bound values of a failed query from a message: "…params: a,b" → "…params: [redacted]". */
export function scrubSql(text: string): string {
  return text.replace(PARAMS_RE, '$1 [redacted]');
}

/** pino's error serializer, with SQL parameters removed from the error and its causes. */
export function errSerializer(err: Error): { type: string; message: string; stack: string; [key: string]: unknown } {
  const out = stdSerializers.err(err) as unknown as Record<string, unknown>;
  const scrub = (o: Record<string, unknown> | undefined, depth: number) => {
    if (!o || depth > 4) return;
    if (typeof o.message === 'string') o.message = scrubSql(o.message);
    if (typeof o.stack === 'string') o.stack = scrubSql(o.stack);
    for (const k of ['params', 'parameters', 'values']) if (k in o) o[k] = '[redacted]';
    if (o.cause && typeof o.cause === 'object') scrub(o.cause as Record<string, unknown>, depth + 1);
  };
  scrub(out, 0);
  return out as { type: string; message: string; stack: string; [key: string]: unknown };
}
