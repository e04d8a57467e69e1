import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ACCOUNT_TYPE, type Load } from '@masar/shared';
import { openDatabase, PGLITE_EXTENSIONS, type Database } from '../src/db/client.ts';
import { assign, bookedLoad, truckOf } from '../src/modules/bayan/bayan.testkit.ts';
import { eventually, startChildServer, type ChildServer } from './crash-child.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestApp, createTestDatabase, ENGINE } from './helpers.ts';

/**
 * A Bayan creation cut by a crash (issue 22): the server process is killed with SIGKILL while
 * Bayan is answering (the sandbox's delay knob). The shipment shows pending Bayan (and "create
 * Bayan" is not offered) until a restarted server's job files the trip; then it is assigned with
 * an active Bayan. Short timings through configuration; the test asserts the eventual state.
 */
const JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789'; // createTestApp's, so its users' tokens work

const servers: ChildServer[] = [];
let cleanup: (() => Promise<void>) | undefined;
afterAll(async () => {
  for (const x of servers) await x.kill();
  await cleanup?.();
});

/** An assigned shipment needing Bayan, made in-process on the database the children will open. */
async function setup(): Promise<{ env: Record<string, string>; shipper: TestUser; carrier: TestUser; load: Load }> {
  let database: Database & { url?: string };
  let env: Record<string, string>;
  if (ENGINE === 'postgres') {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url!, JOBS_MAINTENANCE_SECONDS: '1' };
    const d = database;
    cleanup = () => d.close();
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'masar-crash-bayan-'));
    const client = await PGlite.create({
      dataDir: join(dataDir, 'pglite'),
      loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]),
      extensions: PGLITE_EXTENSIONS,
    });
    database = await openDatabase({ pglite: client });
    env = { DATA_DIR: dataDir };
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  const t = await createTestApp({ JOBS: false }, { database });
  const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  const load = await bookedLoad(t, shipper, carrier);
  await assign(t, load.id, carrier, await truckOf(t, carrier));
  await t.app.close();
  if (ENGINE === 'pglite') await database.close(); // the data dir is the children's now
  return { env: { ...env, JWT_SECRET, JOBS_POLL_SECONDS: '1' }, shipper, carrier, load };
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
});
