import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { signUpViaApi, TEST_PASSWORD } from '../src/modules/auth/auth.testkit.ts';
import { createTestDatabase } from './helpers.ts';

/** The server log holds no secret (issue 6): run real flows with logging on and read it all. */
let app: App;
let database: Database;
const lines: string[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'trace', DEMO_SEED: '0', DATA_DIR: 'memory://', WEB_DIST: '/nonexistent', DEV_OUTBOX: '1' },
    { jwtSecret: 'test-secret-test-secret-test-secret-0123456789' },
  );
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  app = await buildApp({ config, database, logStream: stream });
  // a route whose query fails with a secret among its parameters, as a real bug would
  app.get('/api/v1/__test/failing-sql', { config: { auth: 'none' }, schema: { hide: true } }, async () => {
    await database.db.execute(sql`select ${'Secret-Hash-ABC123'}::int as n`);
    return {};
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('the server log', () => {
  it('holds no password, OTP, token, cookie, authorization header or failed-SQL parameter', async () => {
    const user = await signUpViaApi(app);
    const token = user.token;
    await app.inject({ url: '/api/v1/accountDetails', headers: { authorization: 'Bearer not-a-real-token-XYZ789' } });
    await app.inject({ method: 'POST', url: '/api/v1/account/signIn', payload: { phone: user.phone, password: TEST_PASSWORD } });
    const refresh = await app.inject({ method: 'POST', url: '/api/v1/generateToken', headers: { cookie: `masar_rt=${token.refreshToken}` }, payload: {} });
    expect(refresh.statusCode).toBe(200);
    const failing = await app.inject({ url: '/api/v1/__test/failing-sql', headers: { authorization: `Bearer ${token.accessToken}` } });
    expect(failing.statusCode).toBe(500);
    const log = lines.join('');
    expect(log).toContain('unhandled error'); // the failure itself is logged…
    expect(log).toContain('params: [redacted]'); // …with its parameters removed
    for (const secret of [
      'Secret-Hash-ABC123',
      TEST_PASSWORD,
      token.accessToken,
      token.refreshToken,
      'not-a-real-token-XYZ789',
      refresh.json().data.refreshToken as string,
    ]) {
      expect(log.includes(secret), `log must not hold ${secret.slice(0, 12)}…`).toBe(false);
    }
  });
});
