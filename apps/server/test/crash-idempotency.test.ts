import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE } from '@masar/shared';
import { openDatabase, type Database } from '../src/db/client.ts';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { eventually, startChildServer, type ChildServer } from './crash-child.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestDatabase, ENGINE, pgliteFromTemplate, type TestContext } from './helpers.ts';

/**
 * Crash-safe Idempotency-Key (issue 22): a create whose server process is killed with SIGKILL
 * after its write committed but before its response was stored. A restarted server answers
 * the same-key retry with the committed result and `idempotent-replayed: true` (issue 48), and the
 * load exists once. On PGlite (a data
 * directory the child servers open in turn) and on PostgreSQL.
 */
const JWT_SECRET = 'crash-test-secret-crash-test-secret-0123456789';

interface Setup {
  env: Record<string, string>;
  user: TestUser;
  /** An approved carrier with a plan (bids on the user's loads). */
  carrier: TestUser;
  /** Loads of the user in the database (PGlite: only while no server holds the data dir). */
  countLoads(): Promise<number>;
  /** Offers of the carrier in the database (PGlite: only while no server holds the data dir). */
  countOffers(): Promise<number>;
  close(): Promise<void>;
}

async function setup(): Promise<Setup> {
  const config = { jwtSecret: JWT_SECRET } as TestContext['config'];
  if (ENGINE === 'postgres') {
    const database = await createTestDatabase();
    const user = await createUser({ database, config } as unknown as TestContext, { accountType: ACCOUNT_TYPE.shipper });
    const carrier = await createUser({ database, config } as unknown as TestContext, { accountType: ACCOUNT_TYPE.carrier });
    return {
      env: { DATABASE_URL: database.url!, JWT_SECRET, JOBS_MAINTENANCE_SECONDS: '1' },
      user,
      carrier,
      countLoads: async () => (await database.query<{ n: number }>('select count(*)::int as n from loads where shipper_id = $1', [user.id]))[0].n,
      countOffers: async () => (await database.query<{ n: number }>('select count(*)::int as n from offers where carrier_id = $1', [carrier.id]))[0].n,
      close: () => database.close(),
    };
  }
  // PGlite: the migrated template copied into a data directory the child servers open
  const dataDir = mkdtempSync(join(tmpdir(), 'masar-crash-'));
  const client = await pgliteFromTemplate(join(dataDir, 'pglite'));
  const open = async (pglite?: PGlite): Promise<Database> => openDatabase(pglite ? { pglite } : { dataDir });
  const first = await open(client);
  const user = await createUser({ database: first, config } as unknown as TestContext, { accountType: ACCOUNT_TYPE.shipper });
  const carrier = await createUser({ database: first, config } as unknown as TestContext, { accountType: ACCOUNT_TYPE.carrier });
  await first.close();
  const count = async (q: string, id: string) => {
    const d = await open();
    try {
      return (await d.query<{ n: number }>(q, [id]))[0].n;
    } finally {
      await d.close();
    }
  };
  return {
    env: { DATA_DIR: dataDir, JWT_SECRET },
    user,
    carrier,
    countLoads: () => count('select count(*)::int as n from loads where shipper_id = $1', user.id),
    countOffers: () => count('select count(*)::int as n from offers where carrier_id = $1', carrier.id),
    close: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

const servers: ChildServer[] = [];
let s: Setup | undefined;
let s2: Setup | undefined;
afterAll(async () => {
  for (const x of servers) await x.kill();
  await s?.close();
  await s2?.close();
});

const bid = async (server: ChildServer, carrier: TestUser, key: string, body: unknown) => {
  const r = await fetch(`${server.url}/api/v1/offers`, {
    method: 'POST',
    headers: { ...carrier.headers, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return {
    status: r.status,
    replayed: r.headers.get('idempotent-replayed'),
    body: (await r.json()) as { code?: string; data: { id: string; priceSar: string } },
  };
};
const sentOffers = async (server: ChildServer, carrier: TestUser) => {
  const r = await fetch(`${server.url}/api/v1/offers?box=sent`, { headers: carrier.headers });
  return ((await r.json()) as { data: { items: { id: string }[]; total: number } }).data;
};

const createLoad = async (server: ChildServer, user: TestUser, key: string, body: unknown) => {
  const r = await fetch(`${server.url}/api/v1/loads`, {
    method: 'POST',
    headers: { ...user.headers, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return { status: r.status, replayed: r.headers.get('idempotent-replayed'), body: (await r.json()) as { code?: string; data: { id: string } } };
};
const postedLoads = async (server: ChildServer, user: TestUser) => {
  const r = await fetch(`${server.url}/api/v1/my-loads?tab=posted`, { headers: user.headers });
  return ((await r.json()) as { data: { items: { id: string }[]; total: number } }).data;
};

describe('a create killed (SIGKILL) after its commit', () => {
  it('the same-key retry on a restarted server returns the committed load, and there is one load', async () => {
    s = await setup();
    const { env, user } = s;
    const lease = { IDEMPOTENCY_LEASE_SECONDS: '2' };
    // the response is held after the handler (the write has committed) and the process dies
    const a = await startChildServer({ ...env, ...lease, IDEMPOTENCY_TEST_HOLD_MS: '120000' });
    servers.push(a);
    const body = loadBody();
    const inFlight = createLoad(a, user, 'crash-key-1', body).catch(() => null);
    const committed = await eventually(async () => (await postedLoads(a, user)).items[0]);
    expect(committed?.id).toBeTruthy();
    await a.kill();
    expect(await inFlight).toBeNull(); // the client never heard back

    const b = await startChildServer({ ...env, ...lease });
    servers.push(b);
    // while the dead request's lease runs the key is in progress (409); then the retry recovers
    const retry = await eventually(async () => {
      const r = await createLoad(b, user, 'crash-key-1', body);
      expect([201, 409]).toContain(r.status);
      return r.status === 201 ? r : null;
    });
    expect(retry?.body.data.id).toBe(committed.id);
    // the recovered create says it is a replay (issue 48), as the stored copy does
    expect(retry?.replayed).toBe('true');
    const again = await createLoad(b, user, 'crash-key-1', body);
    expect(again).toMatchObject({ status: 201, replayed: 'true' });
    expect(again.body.data.id).toBe(committed.id);
    expect((await postedLoads(b, user)).total).toBe(1);
    await b.stop();
    expect(await s.countLoads()).toBe(1);
  }, 240_000);

  it('a bid killed after its commit: the same-key retry returns the committed offer, and there is one offer', async () => {
    s2 = await setup();
    const { env, user, carrier } = s2;
    const lease = { IDEMPOTENCY_LEASE_SECONDS: '2' };
    const a = await startChildServer({ ...env, ...lease, IDEMPOTENCY_TEST_HOLD_MS: '120000' });
    servers.push(a);
    // the load is posted without a key (so its response is not held)
    const posted = await fetch(`${a.url}/api/v1/loads`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify(loadBody()),
    });
    expect(posted.status).toBe(201);
    const load = ((await posted.json()) as { data: { id: string } }).data;
    const body = { loadId: load.id, priceSar: '2750.00' };
    const inFlight = bid(a, carrier, 'crash-bid-1', body).catch(() => null);
    const committed = await eventually(async () => (await sentOffers(a, carrier)).items[0]);
    expect(committed?.id).toBeTruthy();
    await a.kill();
    expect(await inFlight).toBeNull();

    const b = await startChildServer({ ...env, ...lease });
    servers.push(b);
    const retry = await eventually(async () => {
      const r = await bid(b, carrier, 'crash-bid-1', body);
      expect([201, 409]).toContain(r.status);
      return r.status === 201 ? r : null;
    });
    expect(retry?.body.data).toMatchObject({ id: committed.id, priceSar: '2750.00' });
    expect(retry?.replayed).toBe('true');
    const again = await bid(b, carrier, 'crash-bid-1', body);
    expect(again).toMatchObject({ status: 201, replayed: 'true' });
    expect(again.body.data.id).toBe(committed.id);
    expect((await sentOffers(b, carrier)).total).toBe(1);
    await b.stop();
    expect(await s2.countOffers()).toBe(1);
  }, 240_000);
});
