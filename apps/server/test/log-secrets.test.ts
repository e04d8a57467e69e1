import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { ACCOUNT_TYPE } from '@masar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { requestOtp, signUpViaApi, TEST_PASSWORD, uniquePhone } from '../src/modules/auth/auth.testkit.ts';
import { driverBody } from '../src/modules/fleet/fleet.testkit.ts';
import { vendorBody } from '../src/modules/vendors/vendors.testkit.ts';
import { createUser } from './fixtures.ts';
import { createTestDatabase, type TestContext } from './helpers.ts';

/** The server log holds no secret (issue 6): run real flows with logging on and read it all. */
let app: App;
let database: Database;
let ctx: TestContext;
const lines: string[] = [];
// a real data directory: the sandbox SMS writes its messages there (DATA_DIR/sms-sandbox.log)
const dataDir = mkdtempSync(join(tmpdir(), 'masar-log-secrets-'));
beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'trace', DEMO_SEED: '0', DATA_DIR: dataDir, WEB_DIST: '/nonexistent', DEV_OUTBOX: '1' },
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
  ctx = { app, database, config, close: async () => undefined };
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
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

  it('holds no job link, vendor invite or one-time code at trace level; the SMS sandbox file does (issue 22)', async () => {
    const from = lines.length;
    // one-time codes: sign-up and a sign-in code
    const phone = uniquePhone();
    const { otp } = await requestOtp(app, phone, 'signup');
    const user = await signUpViaApi(app);
    const signInCode = await requestOtp(app, user.phone, 'login');
    // the 7-day driver job link: made by the carrier, opened as a page and as the trip session
    const carrier = await createUser(ctx, { accountType: ACCOUNT_TYPE.carrier });
    const d = driverBody();
    const driver = await app.inject({ method: 'POST', url: '/api/v1/drivers', headers: carrier.headers, payload: d });
    expect(driver.statusCode, driver.body).toBe(201);
    const link = await app.inject({ url: `/api/v1/drivers/${driver.json().data.id}/link`, headers: carrier.headers });
    const job = link.json<{ data: { token: string; url: string } }>().data;
    await app.inject({ url: job.url });
    const trip = await app.inject({
      method: 'POST',
      url: '/api/v1/driver/trip/session',
      payload: { token: job.token, phone: d.phone, licenceNumber: d.licenceNumber },
    });
    expect(trip.statusCode, trip.body).toBe(200);
    const tripToken = trip.json<{ data: { sessionToken: string } }>().data.sessionToken;
    await app.inject({ url: '/api/v1/driver/trip', headers: { 'x-trip-token': tripToken } });
    // the vendor invite: opened as a page, read and used through the API (the token in the path)
    const shipper = await createUser(ctx, { accountType: ACCOUNT_TYPE.shipper });
    const share = await app.inject({ method: 'POST', url: '/api/v1/vendors/share-link', headers: shipper.headers });
    const invite = share.json<{ data: { token: string; url: string } }>().data;
    await app.inject({ url: invite.url });
    expect((await app.inject({ url: `/api/v1/vendor-invites/${invite.token}` })).statusCode).toBe(200);
    const submitted = await app.inject({ method: 'POST', url: `/api/v1/vendor-invites/${invite.token}`, payload: vendorBody() });
    expect(submitted.statusCode, submitted.body).toBe(201);
    // a token sent where it does not belong (a query string of an API route) is redacted too
    await app.inject({ url: `/api/v1/cities?search=riy&token=${job.token}` });

    const log = lines.slice(from).join('');
    expect(log).toContain('/api/v1/vendor-invites/[redacted]'); // the requests are logged…
    expect(log).toContain('/driver?token=[redacted]');
    expect(log).toContain('/vendor?invite=[redacted]');
    expect(log).toMatch(/SMS to \+9665…\d{4} written to [^"]*sms-sandbox\.log/); // …and so is each SMS, without its body
    for (const secret of [job.token, invite.token, tripToken]) {
      expect(log.includes(secret), `log must not hold ${secret.slice(0, 12)}…`).toBe(false);
    }
    // a short numeric code also occurs by chance inside timestamps and durations: look for it as a number of its own
    for (const code of [otp, signInCode.otp]) {
      expect(new RegExp(`(?<![\\d.])${code}(?![\\d.])`).test(log), `log must not hold the code ${code}`).toBe(false);
    }
    // the developer reads the codes from DATA_DIR/sms-sandbox.log
    const file = readFileSync(join(dataDir, 'sms-sandbox.log'), 'utf8');
    expect(file).toContain(otp);
    expect(file).toContain(signInCode.otp);
  });
});
