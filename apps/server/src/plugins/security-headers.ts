import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for `options`, computed once: helmet's middleware is run against a
 * recording response. Every helmet header is static for a given configuration (no per-request
 * nonce here), so the result is what helmet would set on each request.
 */
export function helmetHeaders(options: HelmetOptions): { set: Record<string, string>; remove: string[] } {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  const res = {
    setHeader: (k: string, v: string | number | readonly string[]) => {
      set[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    },
    removeHeader: (k: string) => {
      remove.push(k.toLowerCase());
    },
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return { set, remove };
}

/**
 * Security headers (helmet's, DESIGN §3) on every response, computed once at start-up.
 * @fastify/helmet builds helmet's middleware — option validation, the CSP string — again on every
 * request, which the board search at 1,000 requests/s paid for each time (issue 10).
 */
export default fp<HelmetOptions>(
  async (app, options) => {
    const { set } = helmetHeaders(options);
    app.addHook('onRequest', (_req, reply, done) => {
      reply.headers(set);
      done();
    });
  },
  { name: 'security-headers' },
);
