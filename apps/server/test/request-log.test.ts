import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { createTestDatabase } from './helpers.ts';

/** Request logs of the hot board search are sampled; failures and other routes are always logged (issue 10). */
let app: App;
let database: Database;
const lines: { msg: string; req?: { url: string }; res?: { statusCode: number } }[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'info', DEMO_SEED: '0', DATA_DIR: 'memory://', WEB_DIST: '/nonexistent', LOG_SAMPLE_HOT_ROUTES: '10' },
    { jwtSecret: 'test-secret-test-secret-test-secret-0123456789' },
  );
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l) as (typeof lines)[number]);
      done();
    },
  });
  app = await buildApp({ config, database, logStream: stream });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('request logging', () => {
  it('logs one board search in 10, every failing one, and every request of other routes', async () => {
    const guest = await app.inject({ method: 'POST', url: '/api/v1/guest/signIn', payload: { deviceId: 'log-test', deviceType: 3 } });
    const headers = { authorization: `Bearer ${guest.json<{ data: { token: { accessToken: string } } }>().data.token.accessToken}` };
    lines.length = 0;
    for (let i = 0; i < 30; i++) expect((await app.inject({ url: '/api/v1/loads?limit=5', headers })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await app.inject({ url: '/api/v1/loads?radius=7', headers })).statusCode).toBe(400);
    for (let i = 0; i < 4; i++) await app.inject({ url: '/api/v1/cities?search=riy', headers });
    const completed = lines.filter((l) => l.msg === 'request completed');
    const searches = lines.filter((l) => l.msg === 'incoming request' && l.req?.url.startsWith('/api/v1/loads?limit'));
    expect(searches).toHaveLength(3);
    expect(completed.filter((l) => l.res?.statusCode === 400)).toHaveLength(3);
    expect(lines.filter((l) => l.msg === 'incoming request' && l.req?.url.startsWith('/api/v1/cities'))).toHaveLength(4);
  });
});
