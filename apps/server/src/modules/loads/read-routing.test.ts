import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ACCOUNT_TYPE, type Load } from '@masar/shared';
import { createTestApp, createTestDatabase, ENGINE, type TestContext } from '../../../test/helpers.ts';
import { startReplica, type Replica } from '../../../test/replica.ts';
import { createUser, type TestUser } from '../../../test/fixtures.ts';
import { openDatabase, withReadReplica } from '../../db/client.ts';
import { loadBody, postLoad } from './loads.testkit.ts';

// DATABASE_READ_URL (issue 10): which reads go to the replica. The "replica" here is a second,
// separate database, so a read that went there cannot see what was written on the primary:
// the board search and its cache version read it; writes, details and my loads the primary.

describe('read routing with a replica', () => {
  let t: TestContext;
  let shipper: TestUser;
  beforeAll(async () => {
    t = await createTestApp({}, { database: withReadReplica(await createTestDatabase(), await createTestDatabase()) });
    shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  });
  afterAll(() => t?.close());

  it('searches the board on the replica; posts, details and my loads on the primary', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: 5 }));
    const headers = shipper.headers;
    const details = await t.app.inject({ url: `/api/v1/loads/${load.id}`, headers });
    expect(details.statusCode).toBe(200);
    const mine = await t.app.inject({ url: '/api/v1/my-loads?tab=posted', headers });
    expect(mine.json<{ data: { items: Load[] } }>().data.items.map((l) => l.id)).toEqual([load.id]);
    // the board (and its version) come from the replica, which never received the post
    const board = await t.app.inject({ url: '/api/v1/loads?count=true', headers });
    expect(board.json<{ data: { items: Load[]; total: number } }>().data).toMatchObject({ items: [], total: 0 });
    const svc = t.app.container.services.loads;
    expect((await svc.search({ sort: 'newest', limit: 20, skip: 0 }, null)).items).toEqual([]);
  });
});

describe('read routing without a replica', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('reads everything on the primary (PGlite has no replica; PostgreSQL without DATABASE_READ_URL)', async () => {
    expect(t.database.readDb).toBe(t.database.db);
    const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const load = await postLoad(t.app, shipper.headers, loadBody({ day: 5 }));
    const board = await t.app.inject({ url: '/api/v1/loads', headers: shipper.headers });
    expect(board.json<{ data: { items: Load[] } }>().data.items.map((l) => l.id)).toContain(load.id);
  });

  it.runIf(ENGINE === 'postgres')('opens a second pool for DATABASE_READ_URL and closes both', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const database = await openDatabase({ databaseUrl: url, readUrl: url, poolMax: 1 });
    expect(database.readDb).not.toBe(database.db);
    await database.close();
  });
});

// A real streaming replica (pg_basebackup of the test PostgreSQL, started on another port; see
// test/replica.ts). Skipped on PGlite, and with the reason printed when the machine does not allow
// replication connections.
describe.runIf(ENGINE === 'postgres')('a real streaming replica', () => {
  let replica: Replica | null = null;
  let t: TestContext | null = null;
  let standby: pg.Client | null = null;
  let primaryUrl = '';
  beforeAll(async () => {
    const primary = await createTestDatabase();
    primaryUrl = primary.url!;
    replica = await startReplica(primary.url!);
    if ('skip' in replica) {
      console.warn(`streaming replica test skipped: ${replica.skip}`);
      await primary.close();
      return;
    }
    const readUrl = replica.urlOf(primary.url!);
    t = await createTestApp({}, { database: withReadReplica(primary, await openDatabase({ databaseUrl: readUrl, poolMax: 4 })) });
    standby = new pg.Client({ connectionString: readUrl });
    await standby.connect();
  }, 300_000);
  afterAll(async () => {
    await standby?.end();
    await t?.close();
    if (replica && !('skip' in replica)) await replica.stop();
  });

  it('serves the board from the replica, fresh by its own version once it has replayed a write', { timeout: 600_000 }, async (ctx) => {
    if (!t || !standby) return ctx.skip();
    const app = t.app;
    expect((await standby.query<{ r: boolean }>('select pg_is_in_recovery() as r')).rows[0].r).toBe(true);
    const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const load = await postLoad(app, shipper.headers, loadBody({ day: 6 }));
    const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const boardIds = async () => {
      const res = await app.inject({ url: '/api/v1/loads', headers: carrier.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: { items: Load[] } }>().data.items.map((l) => l.id);
    };
    // The replica replays the whole cluster's WAL, so while the other worker's files create,
    // migrate and drop their databases it can lag by tens of seconds (CI saw more than 30 s).
    // Wait for it to have replayed the primary's position; only then is the board's answer the
    // product's: a page computed before the replay stops being served when its TTL ends.
    const replayed = async () => {
      const primary = new pg.Client({ connectionString: primaryUrl });
      await primary.connect();
      let lsn = '';
      try {
        [{ lsn }] = (await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows;
        await expect
          .poll(async () => (await standby!.query<{ ok: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [lsn])).rows[0].ok, {
            timeout: 240_000,
            interval: 200,
          })
          .toBe(true);
      } catch (e) {
        // say why: the standby's replay position and the tail of its log (a missing WAL segment, a conflict)
        const [pos] = (await standby!.query<{ lsn: string | null }>('select pg_last_wal_replay_lsn()::text as lsn')).rows;
        const log = replica && !('skip' in replica) ? replica.log() : '';
        throw new Error(`the replica did not replay ${lsn} in time (it is at ${pos.lsn}); replica.log:\n${log}`, { cause: e });
      } finally {
        await primary.end();
      }
    };
    // the post reaches the replica by streaming (and the cached empty page is replaced: a new
    // post does not bump the version; the page's TTL ends)
    await replayed();
    await expect.poll(boardIds, { timeout: 30_000, interval: 200 }).toContain(load.id);
    // replay paused: the unpost commits on the primary, the replica still shows the load — with
    // its own (older) version, so the page it caches is the replica's, never stored as newer
    await standby.query('select pg_wal_replay_pause()');
    try {
      const un = await app.inject({ method: 'POST', url: `/api/v1/loads/${load.id}/unpost`, headers: shipper.headers, payload: {} });
      expect(un.statusCode, un.body).toBe(200);
      // read-your-writes on the primary: my loads show it unposted at once
      const mine = await app.inject({ url: '/api/v1/my-loads?tab=unposted', headers: shipper.headers });
      expect(mine.json<{ data: { items: Load[] } }>().data.items.map((l) => l.id)).toEqual([load.id]);
      expect(await boardIds()).toContain(load.id);
    } finally {
      await standby.query('select pg_wal_replay_resume()');
    }
    // replayed: the replica's version moved with the unpost, so the cached page is not served
    await replayed();
    await expect.poll(boardIds, { timeout: 30_000, interval: 100 }).not.toContain(load.id);
  });
});
