import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { ACCOUNT_TYPE, presenceMessageSchema, presenceTopic, realtimeMessageSchema, userTopic, type PresenceMessage } from '@masar/shared';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { REPO_ROOT } from '../src/config.ts';
import { multipart, vendorsCsv } from '../src/modules/csv/csv.testkit.ts';
import { PNG_1X1 } from './fixtures.ts';
import { vendorBody } from '../src/modules/vendors/vendors.testkit.ts';
import { collectLogLines } from './crash-child.ts';
import { createUser, testPhone, type TestUser } from './fixtures.ts';
import { createTestDatabase, ENGINE, type TestContext } from './helpers.ts';
import { startS3Server, type TestS3 } from './s3-server.ts';

/**
 * Several instances by configuration only (issue 6): two real server processes on one
 * PostgreSQL, the machine's Redis and one S3-protocol store. PostgreSQL only: embedded PGlite is
 * one process by design.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const JWT_SECRET = 'instances-test-secret-instances-test-secret-0123';

interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  lines: Record<string, unknown>[];
  exited: Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `masar-${name}-`));
  const child = spawn(process.execPath, ['apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = collectLogLines(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  exited.then(() => rmSync(dataDir, { recursive: true, force: true })).catch(() => undefined);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited: ${stderr}`);
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    // ready once it listens AND its job worker has started (main.ts logs the address after)
    if (ok && lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('Masar on'))) return { name, url, child, lines, exited };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`instance ${name} did not start: ${stderr}`);
}

const post = async (i: Instance, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(`${i.url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as { code?: string; data?: unknown } };
};

describe.skipIf(ENGINE !== 'postgres')('two instances on one PostgreSQL, Redis and S3 store', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: TestS3;
  let a: Instance;
  let b: Instance;
  let owner: TestUser;
  let bothUp: Date;
  const prefix = `masar-it-${Date.now().toString(36)}:`;
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let env: Record<string, string>;
  /** Instances a test starts of its own (killed by it or in afterAll). */
  const extra: Instance[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    s3 = await startS3Server();
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url!,
      JWT_SECRET,
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      ...s3.env,
      DEMO_SEED: '0',
      WEB_DIST: '/nonexistent',
      AUTH_RATE_PER_IP_PER_MIN: '4',
      OTP_RATE_PER_PHONE_PER_MIN: '2',
      JOBS_MAINTENANCE_SECONDS: '1',
      CSV_IMPORT_EXPIRE_SECONDS: '5',
    };
    a = await startInstance('a', env);
    b = await startInstance('b', env);
    bothUp = new Date();
    owner = await createUser({ database, config: { jwtSecret: JWT_SECRET } } as unknown as TestContext, { accountType: ACCOUNT_TYPE.broker });
  }, 120_000);

  afterAll(async () => {
    for (const i of [a, b, ...extra]) if (i && i.child.exitCode === null) i.child.kill('SIGKILL');
    await Promise.all([a?.exited, b?.exited, ...extra.map((i) => i.exited)]);
    await s3?.close();
    await database?.close();
    if (redis.status === 'ready') {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
    }
    redis.disconnect();
  });

  it('shares the per-IP limit through Redis and the OTP limit through PostgreSQL', async () => {
    // sign-in allows 4 attempts per IP per minute across BOTH instances (in-process stores would allow 8)
    const phone = testPhone();
    const attempts = [];
    for (const i of [a, b, a, b, a, b]) attempts.push((await post(i, '/account/signIn', { phone, password: 'Wrong-pass1' })).status);
    expect(attempts.slice(0, 4)).not.toContain(429);
    expect(attempts.slice(4)).toEqual([429, 429]);
    await redis.connect();
    expect((await redis.keys(`${prefix}rl:*`)).length).toBeGreaterThan(0);
    // two codes per phone per minute, counted in the shared database
    const otpPhone = testPhone();
    const otp = [];
    for (const i of [a, b, a]) otp.push(await post(i, '/account/sendOtp', { phone: otpPhone, purpose: 'signup' }));
    expect(otp.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(otp[2].body.code).toBe('RATE_LIMITED');
  });

  it('serves a file uploaded through one instance from the other (S3 storage)', async () => {
    const png = PNG_1X1;
    const m = multipart({ purpose: 'vendor-document' }, { name: 'doc.png', data: png });
    const up = await fetch(`${a.url}/api/v1/files`, { method: 'POST', headers: { ...owner.headers, 'content-type': m.contentType }, body: m.payload });
    expect(up.status).toBe(201);
    const { id } = ((await up.json()) as { data: { id: string } }).data;
    const down = await fetch(`${b.url}/api/v1/files/${id}`, { headers: owner.headers });
    expect(down.status).toBe(200);
    expect(Buffer.from(await down.arrayBuffer()).equals(png)).toBe(true);
  });

  it('carries a real-time message from the instance that publishes to a client of the other (MQTT bus on Redis)', async () => {
    const onA = await mqtt.connectAsync(`${a.url.replace('http', 'ws')}/mqtt`, {
      clientId: `u:${owner.id}:a`,
      username: owner.id,
      password: owner.accessToken,
      reconnectPeriod: 0,
    });
    const onB = await mqtt.connectAsync(`${b.url.replace('http', 'ws')}/mqtt`, {
      clientId: `u:${owner.id}:b`,
      username: owner.id,
      password: owner.accessToken,
      reconnectPeriod: 0,
    });
    try {
      const heard: Record<string, string[]> = { a: [], b: [] };
      for (const [name, c] of [
        ['a', onA],
        ['b', onB],
      ] as const) {
        await c.subscribeAsync(userTopic(owner.id));
        c.on('message', (_t, p) => heard[name].push(realtimeMessageSchema.parse(JSON.parse(p.toString())).aggregateId));
      }
      // posted through B; whichever instance drains the outbox publishes, and both clients hear it
      const posted = await post(b, '/loads', loadBody(), { ...owner.headers, 'idempotency-key': crypto.randomUUID() });
      expect(posted.status).toBe(201);
      const id = (posted.body.data as { id: string }).id;
      await expect.poll(() => heard.a.includes(id) && heard.b.includes(id), { timeout: 15_000, interval: 50 }).toBe(true);
    } finally {
      await Promise.all([onA.endAsync(true), onB.endAsync(true)]);
    }
  });

  it('presence is right across instances: online while a connection is open on either, offline with one stored last-seen', async () => {
    const ctx = { database, config: { jwtSecret: JWT_SECRET } } as unknown as TestContext;
    const carrier = await createUser(ctx, { accountType: ACCOUNT_TYPE.carrier });
    const posted = await post(a, '/loads', loadBody(), { ...owner.headers, 'idempotency-key': crypto.randomUUID() });
    const loadId = (posted.body.data as { id: string }).id;
    expect((await post(b, '/offers', { loadId, priceSar: '2500' }, { ...carrier.headers, 'idempotency-key': crypto.randomUUID() })).status).toBe(201);
    const conv = (await post(a, '/chat/conversations', { loadId }, { ...carrier.headers, 'idempotency-key': crypto.randomUUID() })).body.data as { id: string };
    const on = (i: Instance, u: TestUser, tag: string) =>
      mqtt.connectAsync(`${i.url.replace('http', 'ws')}/mqtt`, { clientId: `u:${u.id}:${tag}`, username: u.id, password: u.accessToken, reconnectPeriod: 0 });
    const follower = await on(a, owner, 'p');
    const heard: PresenceMessage[] = [];
    follower.on('message', (tp, p) => tp.endsWith('/presence') && heard.push(presenceMessageSchema.parse(JSON.parse(p.toString()))));
    const clients = [follower];
    try {
      await follower.subscribeAsync(presenceTopic(conv.id));
      await expect.poll(() => heard.length, { timeout: 10_000, interval: 50 }).toBe(1);
      expect(heard[0]).toMatchObject({ userId: carrier.id, online: false });
      // the carrier comes online on B: the owner's follower on A hears it
      const cb = await on(b, carrier, 'b');
      clients.push(cb);
      await expect.poll(() => heard.length, { timeout: 10_000, interval: 50 }).toBe(2);
      expect(heard[1]).toMatchObject({ userId: carrier.id, online: true });
      // a second connection on A, then B's closes: still online (A holds one)
      const ca = await on(a, carrier, 'a');
      clients.push(ca);
      await cb.endAsync();
      const get = async (i: Instance) => {
        const r = await fetch(`${i.url}/api/v1/chat/conversations/${conv.id}`, { headers: owner.headers });
        return ((await r.json()) as { data: { otherSide: { online: boolean; lastSeenAt: string | null } } }).data.otherSide;
      };
      expect((await get(b)).online).toBe(true);
      await ca.endAsync();
      await expect.poll(() => heard.length, { timeout: 10_000, interval: 50 }).toBe(3);
      expect(heard.map((h) => h.online)).toEqual([false, true, false]);
      expect(heard[2].lastSeenAt).not.toBeNull();
      expect(await get(b)).toEqual({ online: false, lastSeenAt: heard[2].lastSeenAt });
    } finally {
      await Promise.all(clients.map((c) => c.endAsync(true)));
    }
  });

  it('chat across instances: a client on each exchanges messages; after kill -9 of one instance its client reconnects to the other and misses nothing', async () => {
    const ctx = { database, config: { jwtSecret: JWT_SECRET } } as unknown as TestContext;
    const carrier = await createUser(ctx, { accountType: ACCOUNT_TYPE.carrier });
    // a third instance of the same configuration: the one this test kills
    const c = await startInstance('c', env);
    extra.push(c);
    const posted = await post(c, '/loads', loadBody(), { ...owner.headers, 'idempotency-key': crypto.randomUUID() });
    const loadId = (posted.body.data as { id: string }).id;
    expect((await post(a, '/offers', { loadId, priceSar: '2500' }, { ...carrier.headers, 'idempotency-key': crypto.randomUUID() })).status).toBe(201);
    const conv = (await post(a, '/chat/conversations', { loadId }, { ...carrier.headers, 'idempotency-key': crypto.randomUUID() })).body.data as { id: string };
    const send = async (i: Instance, u: TestUser, body: string) => {
      const r = await post(i, `/chat/conversations/${conv.id}/messages`, { body }, { ...u.headers, 'idempotency-key': crypto.randomUUID() });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };
    /** The conversation's message texts, oldest first, as a client re-reads them through `i`. */
    const history = async (i: Instance, u: TestUser) => {
      const r = await fetch(`${i.url}/api/v1/chat/conversations/${conv.id}/messages?limit=100`, { headers: u.headers });
      return ((await r.json()) as { data: { items: { body: string }[] } }).data.items.map((m) => m.body).reverse();
    };
    const hints: Record<string, number> = {};
    const listen = async (i: Instance, u: TestUser, tag: string) => {
      const client = await mqtt.connectAsync(`${i.url.replace('http', 'ws')}/mqtt`, {
        clientId: `u:${u.id}:${tag}`,
        username: u.id,
        password: u.accessToken,
        reconnectPeriod: 0,
      });
      hints[tag] = 0;
      client.on('message', (_t, p) => {
        const m = realtimeMessageSchema.safeParse(JSON.parse(p.toString()));
        if (m.success && m.data.type === 'chat.message_sent' && m.data.aggregateId === conv.id) hints[tag]++;
      });
      await client.subscribeAsync(userTopic(u.id));
      return client;
    };
    const ownerOnC = await listen(c, owner, 'owner-c');
    const carrierOnA = await listen(a, carrier, 'carrier-a');
    const clients = [ownerOnC, carrierOnA];
    try {
      // each side sends through its own instance; each client hears both messages
      await send(a, carrier, 'Is the load ready at 8?');
      await send(c, owner, 'Yes, gate 3.');
      await expect.poll(() => [hints['owner-c'], hints['carrier-a']], { timeout: 15_000, interval: 50 }).toEqual([2, 2]);

      // kill -9 the owner's instance: its client is cut off
      const closed = new Promise<void>((r) => ownerOnC.once('close', () => r()));
      c.child.kill('SIGKILL');
      await c.exited;
      await closed;
      // the carrier goes on writing while the owner is away
      await send(a, carrier, 'On my way.');
      await send(a, carrier, 'Arriving in 20 minutes.');
      // their hints are out (the outbox drain publishes each event to both parties at once): on a
      // loaded machine the drain may lag, and a hint published after the owner is back would be
      // counted below as the live one
      await expect.poll(() => hints['carrier-a'], { timeout: 15_000, interval: 50 }).toBe(4);

      // the owner's client reconnects to the surviving instance and re-reads what it shows
      const ownerOnB = await listen(b, owner, 'owner-b');
      clients.push(ownerOnB);
      expect(await history(b, owner)).toEqual(['Is the load ready at 8?', 'Yes, gate 3.', 'On my way.', 'Arriving in 20 minutes.']);
      const unread = await fetch(`${b.url}/api/v1/chat/unread`, { headers: owner.headers });
      expect(((await unread.json()) as { data: { unread: number } }).data.unread).toBe(2);
      // and hears the next message live on its new instance
      await send(a, carrier, 'Here.');
      await expect.poll(() => hints['owner-b'], { timeout: 15_000, interval: 50 }).toBe(1);
      expect((await history(b, owner)).at(-1)).toBe('Here.');
    } finally {
      await Promise.all(clients.map((cl) => cl.endAsync(true)));
    }
  }, 150_000);

  it('runs a scheduled job once per slot across both instances', async () => {
    type Slot = { slot: string; n: number };
    const slots = async () =>
      database.query<Slot>(
        `select to_char(date_trunc('minute', created_on), 'HH24:MI') as slot, count(*)::int as n
           from pgboss.job where name = 'loads.expire' and created_on > $1 group by 1 order by 1`,
        [bothUp],
      );
    const deadline = Date.now() + 100_000;
    let seen: Slot[] = [];
    while (Date.now() < deadline) {
      seen = await slots();
      const done = await database.query<{ n: number }>(
        `select count(*)::int as n from pgboss.job where name = 'loads.expire' and created_on > $1 and state = 'completed'`,
        [bothUp],
      );
      if (done[0].n >= 1) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(seen.length).toBeGreaterThanOrEqual(1);
    for (const s of seen) expect(s, `slot ${s.slot}`).toMatchObject({ n: 1 });
  }, 120_000);

  it('finishes on the surviving instance an import whose instance was killed, with exact counts', async () => {
    const rows = 30_000;
    const body: Record<string, unknown>[] = [];
    for (let i = 0; i < rows; i++) {
      const v: Record<string, unknown> = { ...vendorBody(), email: `multi${i}@vendors.sa`, phone: `+9665${String(30000000 + i).padStart(8, '0')}` };
      if (i % 100 === 0) v.email = 'not-an-email';
      body.push(v);
    }
    const bad = rows / 100;
    const m = multipart({ type: 'vendors' }, { name: 'vendors.csv', data: vendorsCsv(body) });
    const res = await fetch(`${a.url}/api/v1/csv/import`, { method: 'POST', headers: { ...owner.headers, 'content-type': m.contentType }, body: m.payload });
    expect(res.status).toBe(202);
    const logId = ((await res.json()) as { data: { id: string } }).data.id;
    const cursor = async () => (await database.query<{ next_row: number; status: string }>('select next_row, status from csv_logs where id = $1', [logId]))[0];
    // wait for some committed windows, then kill -9 the instance that runs the import
    let worker: Instance | undefined;
    for (let i = 0; i < 1500; i++) {
      worker = [a, b].find((x) => x.lines.some((l) => l.msg === 'csv import started' && l.logId === logId));
      if (worker && (await cursor()).next_row >= 1000) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(worker).toBeDefined();
    worker!.child.kill('SIGKILL');
    await worker!.exited;
    const cut = await cursor();
    expect(cut.status).toBe('processing');
    expect(cut.next_row).toBeGreaterThan(0);
    expect(cut.next_row).toBeLessThan(rows);
    const survivor = worker === a ? b : a;
    // the survivor notices the dead attempt (CSV_IMPORT_EXPIRE_SECONDS) and resumes from the cursor
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && (await cursor()).status === 'processing') await new Promise((r) => setTimeout(r, 200));
    const log = (
      await database.query<{ status: string; total: number; succeeded: number; failed: number }>(
        'select status, total, succeeded, failed from csv_logs where id = $1',
        [logId],
      )
    )[0];
    expect(log).toEqual({ status: 'completed', total: rows, succeeded: rows - bad, failed: bad });
    const resumed = survivor.lines.filter((l) => l.msg === 'csv import resumed' && l.logId === logId).at(-1);
    expect(resumed?.fromRow).toBeGreaterThanOrEqual(cut.next_row);
    const [{ n }] = await database.query<{ n: number }>('select count(*)::int as n from vendors where owner_id = $1', [owner.id]);
    expect(n).toBe(rows - bad);
    const [{ f }] = await database.query<{ f: number }>('select count(*)::int as f from csv_log_rows where log_id = $1', [logId]);
    expect(f).toBe(bad);
  }, 150_000);
});
