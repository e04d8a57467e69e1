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
  'req.headers["x-api-key"]',
  'req.headers["x-trip-token"]',
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

/** Query parameters whose value is a credential: a signed link, an invitation, a key, a code. */
const SECRET_QUERY_PARAMS = new Set([
  'token',
  'invite',
  'key',
  'apikey',
  'api_key',
  'code',
  'otp',
  'secret',
  'sig',
  'signature',
  'password',
  'reftoken',
  'access_token',
  'refresh_token',
  'id_token',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
]);
/** Path segments that are tokens: the public vendor sign-up link (GET/POST /api/v1/vendor-invites/:token). */
const TOKEN_PATHS = [/^(\/api\/v1\/vendor-invites\/)[^/]+/];
/** Anything shaped like a JWT (every signed link and access token) or one of our keys and secrets, wherever it is. */
const TOKEN_SHAPES = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*|(?:msk|whsec)_[A-Za-z0-9_-]+/g;
const REDACTED = '[redacted]';

/**
 * A request URL fit for the log (issue 22): the values of credential query parameters
 * (`?token=`, `?invite=`, `?code=`, …), the token path segment of the routes that take one
 * (`/api/v1/vendor-invites/:token`) and anything shaped like a JWT or a Masar key are replaced by
 * `[redacted]`. The 7-day driver job link (`/driver?token=`) and the vendor invite
 * (`/vendor?invite=`) are pages of the web app, logged like any request.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  for (const re of TOKEN_PATHS) path = path.replace(re, `$1${REDACTED}`);
  path = path.replace(TOKEN_SHAPES, REDACTED);
  if (q < 0) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair.replace(TOKEN_SHAPES, REDACTED);
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // a malformed escape: compare the raw name
      }
      if (SECRET_QUERY_PARAMS.has(name.trim().toLowerCase())) return `${pair.slice(0, eq)}=${REDACTED}`;
      return `${pair.slice(0, eq)}=${pair.slice(eq + 1).replace(TOKEN_SHAPES, REDACTED)}`;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Fastify's request serializer (method, url, host, client address), with the URL redacted. */
export function reqSerializer(req: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  headers?: Record<string, string | string[] | undefined>;
  socket?: { remotePort?: number };
}) {
  const version = req.headers?.['accept-version'];
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: typeof version === 'string' ? version : undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
