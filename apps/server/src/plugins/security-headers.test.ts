import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import securityHeaders, { helmetHeaders } from './security-headers.ts';

const options = {
  contentSecurityPolicy: { directives: { 'connect-src': ["'self'", 'ws:', 'wss:'], 'upgrade-insecure-requests': null } },
};

describe('security headers (computed once)', () => {
  it("are helmet's headers for the configuration, on every response", async () => {
    const app = Fastify();
    await app.register(securityHeaders, options);
    app.get('/a', async () => ({ ok: true }));
    app.get('/b', async (_req, reply) => reply.type('application/json').send('{"ok":true}'));
    const expected = helmetHeaders(options).set;
    for (const url of ['/a', '/b', '/missing']) {
      const res = await app.inject({ url });
      for (const [k, v] of Object.entries(expected)) expect(res.headers[k], `${url} ${k}`).toBe(v);
    }
    const csp = (await app.inject({ url: '/a' })).headers['content-security-policy'] as string;
    expect(csp).toContain("connect-src 'self' ws: wss:");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(expected['x-content-type-options']).toBe('nosniff');
    expect(expected['strict-transport-security']).toMatch(/max-age=\d+/);
    await app.close();
  });
});
