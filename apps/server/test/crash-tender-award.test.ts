import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Tender } from '@masar/shared';
import { crashHarness, eventually, orphansRolledBack, someoneWaitsOnLock, startChildServer, TEST_JWT_SECRET, type ChildServer } from './crash-child.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { createTestApp, createTestDatabase, ENGINE, type TestContext } from './helpers.ts';
import { inDays, loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';

/**
 * A tender award cut by a crash (issue 19): the server process is killed with SIGKILL in the
 * middle of the award's transaction — after it has booked the load, written the offer and
 * awarded the invite, while it waits to close the other invites (the test holds a row lock on
 * one of them) — so nothing of it may stay: the load still posted, no offer, the tender open,
 * the invite still accepted. A new server then awards it in full: one booking. PostgreSQL only
 * (the test needs a second connection holding a lock while the child server runs; a PGlite data
 * directory has one process at a time).
 */
const JWT_SECRET = TEST_JWT_SECRET;
const { servers, cleanups } = crashHarness();

describe.skipIf(ENGINE !== 'postgres')('a tender award killed (SIGKILL) mid-transaction', () => {
  it('leaves no booking at all, and a retry on a new server books it once', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    // the setup in process, on the database the child servers will use
    const t: TestContext = await createTestApp({ JOBS: false, jwtSecret: JWT_SECRET }, { database });
    const { call, ok } = apiCaller(() => t);
    const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const carriers: TestUser[] = [];
    for (let i = 0; i < 2; i++) carriers.push(await createUser(t, { accountType: ACCOUNT_TYPE.carrier }));
    const load = await postLoad(t.app, shipper.headers, loadBody());
    const tender = ok(
      await call<Tender>(
        'POST',
        '/tenders',
        { ...shipper.headers, 'idempotency-key': randomUUID() },
        { loadId: load.id, carrierIds: carriers.map((c) => c.id), deadline: inDays(1), targetRateSar: '2800' },
      ),
      201,
    );
    ok(await call('POST', `/tenders/${tender.id}/answer`, carriers[0].headers, { action: 'accept' }));
    const invites = ok(await call<Tender>('GET', `/tenders/${tender.id}`, shipper.headers)).invites;
    const winner = invites.find((i) => i.carrierId === carriers[0].id)!;
    const other = invites.find((i) => i.carrierId === carriers[1].id)!;
    await t.app.close();

    const facts = async () => ({
      load: (await database.query<{ status: string; carrier_id: string | null }>('select status, carrier_id from loads where id = $1', [load.id]))[0],
      offers: (await database.query<{ status: string }>('select status from offers where load_id = $1', [load.id])).map((o) => o.status),
      tender: (await database.query<{ status: string }>('select status from tenders where id = $1', [tender.id]))[0].status,
      invites: (await database.query<{ id: string; status: string }>('select id, status from tender_invites where tender_id = $1 order by id', [tender.id]))
        .map((i) => `${i.id === winner.id ? 'winner' : 'other'}:${i.status}`)
        .sort(),
    });
    const before = await facts();
    expect(before).toMatchObject({ load: { status: 'posted', carrier_id: null }, offers: [], tender: 'open', invites: ['other:invited', 'winner:accepted'] });

    // hold the other invite: the award blocks when it closes it, its booking written but not committed
    const holder = new pg.Client({ connectionString: database.url });
    holder.on('error', () => undefined);
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('begin');
    await holder.query('select 1 from tender_invites where id = $1 for update', [other.id]);

    const a = await startChildServer({ DATABASE_URL: database.url!, JWT_SECRET });
    servers.push(a);
    const award = (s: ChildServer) =>
      fetch(`${s.url}/api/v1/tenders/${tender.id}/award`, {
        method: 'POST',
        headers: { ...shipper.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ inviteId: winner.id }),
      });
    let answered: string | null = null;
    const inFlight = award(a)
      .then(async (r) => (answered = `${r.status} ${await r.text()}`))
      .catch(() => null);
    // watched from another connection (pg_stat_activity is a snapshot inside the holder's transaction)
    expect(await eventually(async () => answered ?? (await someoneWaitsOnLock(database)), 120_000)).toBe(true);
    // the booking is written inside the open transaction: the load row is locked by it
    await a.kill();
    expect(await inFlight).toBeNull();
    await holder.query('rollback');
    // the orphaned backend finds its client gone and rolls back
    expect(await orphansRolledBack(database)).toBe(true);
    expect(await facts()).toEqual(before);

    // a new server: the award happens once, in full
    const b = await startChildServer({ DATABASE_URL: database.url!, JWT_SECRET });
    servers.push(b);
    const r = await award(b);
    expect(r.status, await r.clone().text()).toBe(200);
    const after = await facts();
    expect(after.load.carrier_id).toBe(carriers[0].id);
    expect(after.load.status).not.toBe('posted');
    expect(after.offers).toEqual(['accepted']);
    expect(after.tender).toBe('awarded');
    expect(after.invites).toEqual(['other:closed', 'winner:awarded']);
    // a second award is refused: still one booking
    expect((await award(b)).status).toBe(409);
    expect((await facts()).offers).toEqual(['accepted']);
    await b.stop();
  }, 400_000);
});
