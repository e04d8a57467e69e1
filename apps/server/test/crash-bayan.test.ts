import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Load } from '@masar/shared';
import { openDatabase, type Database } from '../src/db/client.ts';
import { assign, bookedLoad, truckOf } from '../src/modules/bayan/bayan.testkit.ts';
import { BAYAN_ANSWER_HELD } from '../src/gateways/bayan/index.ts';
import { eventually, startChildServer, type ChildServer } from './crash-child.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestApp, createTestDatabase, ENGINE, pgliteFromTemplate } from './helpers.ts';

/**
 * A Bayan creation cut by a crash (issue 22): the server process is killed with SIGKILL while
 * Bayan is answering (the sandbox's delay knob). The shipment shows pending Bayan (and "create
 * Bayan" is not offered) until a restarted server's job files the trip; then it is assigned with
 * an active Bayan. Short timings through configuration; the test asserts the eventual state.
 */
const JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789'; // createTestApp's, so its users' tokens work

const servers: ChildServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const x of servers) await x.kill();
  for (const c of cleanups) await c();
});

interface Setup {
  env: Record<string, string>;
  shipper: TestUser;
  carrier: TestUser;
  load: Load;
  /**
   * Rows of the database: the sandbox Bayan's trips (its ids) and the shipment's Bayan rows
   * (PGlite: only while no server holds the data dir).
   */
  facts(): Promise<{ sandboxTrips: string[]; rows: { status: string; trip_id: string | null }[] }>;
}

/** An assigned shipment needing Bayan, made in-process on the database the children will open. */
async function setup(): Promise<Setup> {
  let database: Database & { url?: string };
  let env: Record<string, string>;
  let dir = '';
  if (ENGINE === 'postgres') {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url!, JOBS_MAINTENANCE_SECONDS: '1' };
    const d = database;
    cleanups.push(() => d.close());
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'masar-crash-bayan-'));
    const client = await pgliteFromTemplate(join(dataDir, 'pglite'));
    database = await openDatabase({ pglite: client });
    env = { DATA_DIR: dataDir };
    dir = dataDir;
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  }
  const t = await createTestApp({ JOBS: false }, { database });
  const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  const load = await bookedLoad(t, shipper, carrier);
  await assign(t, load.id, carrier, await truckOf(t, carrier));
  await t.app.close();
  if (ENGINE === 'pglite') await database.close(); // the data dir is the children's now
  const read = async (d: Database) => ({
    sandboxTrips: (await d.query<{ id: string }>('select trip_id::text as id from bayan_sandbox_trips order by trip_id')).map((r) => r.id),
    rows: await d.query<{ status: string; trip_id: string | null }>('select status, trip_id from bayan_trips where load_id = $1', [load.id]),
  });
  const facts = async () => {
    if (ENGINE === 'postgres') return read(database);
    const d = await openDatabase({ dataDir: dir });
    try {
      return await read(d);
    } finally {
      await d.close();
    }
  };
  return { env: { ...env, JWT_SECRET, JOBS_POLL_SECONDS: '1' }, shipper, carrier, load, facts };
}

/** Wait until the sandbox has filed the trip while its answer is held (PGlite: the data dir is the child's, so a pause). */
async function untilFiled(s: Setup, server: ChildServer) {
  const pending = await eventually(async () => (await bayanOf(server, s.carrier, s.load.id))?.status === 'pending');
  expect(pending).toBe(true);
  if (ENGINE === 'postgres') expect(await eventually(async () => (await s.facts()).sandboxTrips.length === 1)).toBe(true);
  // PGlite: the data dir is the child's until it dies; its log says when the sandbox stored the
  // trip and holds the answer (a fixed pause was too short on a loaded machine)
  else expect(await eventually(async () => server.lines.some((l) => l.msg === BAYAN_ANSWER_HELD))).toBe(true);
}

const loadOf = async (server: ChildServer, who: TestUser, id: string) => {
  const r = await fetch(`${server.url}/api/v1/loads/${id}`, { headers: who.headers });
  return ((await r.json()) as { data: Load }).data;
};
const bayanOf = async (server: ChildServer, who: TestUser, loadId: string) => {
  const r = await fetch(`${server.url}/api/v1/bayan/trips?loadId=${loadId}`, { headers: who.headers });
  return ((await r.json()) as { data: { bayan: { status: string; waybillNumber: string | null } | null } }).data.bayan;
};

describe('a Bayan creation killed (SIGKILL) while Bayan answers', () => {
  it('shows pending Bayan, then the restarted server’s job files it: assigned with an active Bayan', async () => {
    const { env, shipper, carrier, load } = await setup();
    // Bayan takes a minute to answer; the process dies before it does
    const a = await startChildServer({ ...env, BAYAN_SANDBOX_DELAY_MS: '60000', BAYAN_TIMEOUT_MS: '90000' });
    servers.push(a);
    const inFlight = fetch(`${a.url}/api/v1/bayan/trips`, {
      method: 'POST',
      headers: { ...carrier.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ loadId: load.id }),
    }).catch(() => null);
    const pending = await eventually(async () => (await bayanOf(a, carrier, load.id))?.status === 'pending');
    expect(pending).toBe(true);
    // while Bayan is answering: pending Bayan, and "create Bayan" is not offered
    const during = await loadOf(a, carrier, load.id);
    expect(during.status).toBe('pending_bayan');
    expect(during.options).not.toContain('create_bayan');
    await a.kill();
    expect(await inFlight).toBeNull();

    const b = await startChildServer({ ...env, BAYAN_STALE_SECONDS: '1', BAYAN_TIMEOUT_MS: '2000' });
    servers.push(b);
    const seen = await loadOf(b, carrier, load.id);
    if ((await bayanOf(b, carrier, load.id))?.status === 'pending') {
      // meanwhile: pending Bayan, and "create Bayan" is not offered
      expect(seen.status).toBe('pending_bayan');
      expect(seen.options).not.toContain('create_bayan');
    }
    const filed = await eventually(async () => (await bayanOf(b, shipper, load.id))?.status === 'active', 150_000, 1000);
    expect(filed).toBe(true);
    expect((await bayanOf(b, shipper, load.id))?.waybillNumber).toMatch(/^[A-Z0-9]{6}$/);
    const after = await loadOf(b, carrier, load.id);
    expect(after.status).toBe('assigned');
    expect(after.options).toContain('cancel_bayan');
    expect(after.options).not.toContain('create_bayan');
  }, 300_000);

  it('a crash between Bayan filing the trip and the commit: the job gets the same trip back (one permit)', async () => {
    const s = await setup();
    const { env, shipper, carrier, load } = s;
    // Bayan files the trip at once but its answer is a minute late; the process dies meanwhile
    const a = await startChildServer({ ...env, BAYAN_SANDBOX_ANSWER_DELAY_MS: '60000', BAYAN_TIMEOUT_MS: '90000' });
    servers.push(a);
    const inFlight = fetch(`${a.url}/api/v1/bayan/trips`, {
      method: 'POST',
      headers: { ...carrier.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ loadId: load.id }),
    }).catch(() => null);
    await untilFiled(s, a);
    await a.kill();
    expect(await inFlight).toBeNull();
    const before = await s.facts();
    expect(before.sandboxTrips).toHaveLength(1); // Bayan holds the permit; Masar has not recorded it
    expect(before.rows).toEqual([{ status: 'pending', trip_id: null }]);

    // the restarted server's job sends the trip again with the same Idempotency-Key
    const b = await startChildServer({ ...env, BAYAN_STALE_SECONDS: '1', BAYAN_TIMEOUT_MS: '2000' });
    servers.push(b);
    expect(await eventually(async () => (await bayanOf(b, shipper, load.id))?.status === 'active', 150_000, 1000)).toBe(true);
    expect((await loadOf(b, carrier, load.id)).status).toBe('assigned');
    await b.stop();
    const after = await s.facts();
    expect(after.sandboxTrips).toEqual(before.sandboxTrips); // still exactly one trip at Bayan
    expect(after.rows).toEqual([{ status: 'active', trip_id: before.sandboxTrips[0] }]);
  }, 300_000);

  it('the same-key retry of a creation killed after Bayan filed it answers that trip (201), and Bayan holds one trip', async () => {
    const s = await setup();
    const { env, shipper, carrier, load } = s;
    const lease = { IDEMPOTENCY_LEASE_SECONDS: '2' };
    const a = await startChildServer({ ...env, ...lease, BAYAN_SANDBOX_ANSWER_DELAY_MS: '60000', BAYAN_TIMEOUT_MS: '90000' });
    servers.push(a);
    const create = (server: ChildServer) =>
      fetch(`${server.url}/api/v1/bayan/trips`, {
        method: 'POST',
        headers: { ...carrier.headers, 'content-type': 'application/json', 'idempotency-key': 'bayan-crash-1' },
        body: JSON.stringify({ loadId: load.id }),
      }).then(async (r) => ({
        status: r.status,
        replayed: r.headers.get('idempotent-replayed'),
        body: (await r.json()) as { code?: string; data: { status: string; tripId: string | null; waybillNumber: string | null } },
      }));
    const inFlight = create(a).catch(() => null);
    await untilFiled(s, a);
    await a.kill();
    expect(await inFlight).toBeNull();
    const before = await s.facts();
    expect(before.sandboxTrips).toHaveLength(1);

    // a long stale time: the retry request, not the job, records the trip
    const b = await startChildServer({ ...env, ...lease, BAYAN_STALE_SECONDS: '3600', BAYAN_TIMEOUT_MS: '5000' });
    servers.push(b);
    const retry = await eventually(async () => {
      const r = await create(b);
      expect([201, 409]).toContain(r.status); // 409 while the dead request's lease runs
      return r.status === 201 ? r : null;
    });
    expect(retry?.body.data).toMatchObject({ status: 'active', tripId: before.sandboxTrips[0], waybillNumber: expect.stringMatching(/^[A-Z0-9]{6}$/) });
    const again = await create(b);
    expect(again).toMatchObject({ status: 201, replayed: 'true' });
    expect(again.body.data.tripId).toBe(before.sandboxTrips[0]);
    expect((await bayanOf(b, shipper, load.id))?.status).toBe('active');
    await b.stop();
    const after = await s.facts();
    expect(after.sandboxTrips).toEqual(before.sandboxTrips);
    expect(after.rows).toEqual([{ status: 'active', trip_id: before.sandboxTrips[0] }]);
  }, 300_000);
});
