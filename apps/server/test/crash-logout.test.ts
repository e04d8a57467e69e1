import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE } from '@masar/shared';
import { crashHarness, eventually, orphansRolledBack, someoneWaitsOnLock, startChildServer, TEST_JWT_SECRET, type ChildServer } from './crash-child.ts';
import { createUser } from './fixtures.ts';
import { createTestApp, createTestDatabase, ENGINE } from './helpers.ts';
import { newId } from '../src/lib/ids.ts';

/**
 * A logout raced by a refresh and cut by a crash (auth.repository.ts revokeSessions): the server
 * process is killed with SIGKILL between the revoking passes — the first pass has revoked the
 * family's rows it saw, the second waits on the successor a racing rotation committed after the
 * first pass began (the test holds that row's lock). Nothing may stay revoked: the caller's session
 * still works, so a logout retried on a new server revokes the whole family, successor included.
 * (Committed pass by pass, the first pass revoked the caller's own session and the successor stayed
 * live out of reach of any retry.) PostgreSQL only: the test holds locks from other connections
 * while the child server runs.
 */
const JWT_SECRET = TEST_JWT_SECRET;
const { servers, cleanups } = crashHarness();

describe.skipIf(ENGINE !== 'postgres')('a logout killed (SIGKILL) between its revoking passes', () => {
  it('revokes nothing, and a retry on a new server revokes the family with the successor', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    const t = await createTestApp({ JOBS: false, jwtSecret: JWT_SECRET }, { database });
    const user = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    await t.app.close();
    const [{ id: sessionA, family_id: family }] = await database.query<{ id: string; family_id: string }>(
      'select id, family_id from sessions where user_id = $1',
      [user.id],
    );
    const insertSession = (run: (text: string, values: unknown[]) => Promise<unknown>, id: string) =>
      run(`insert into sessions (id, family_id, user_id, refresh_hash, expires_at) values ($1, $2, $3, $4, now() + interval '1 day')`, [
        id,
        family,
        user.id,
        randomUUID(),
      ]);
    // a second live row of the family (a sibling issued in the reuse interval): the first pass waits on it too
    const sessionD = newId();
    await insertSession((text, values) => database.query(text, values), sessionD);

    const client = async () => {
      const c = new pg.Client({ connectionString: database.url });
      c.on('error', () => undefined);
      await c.connect();
      cleanups.push(() => c.end());
      return c;
    };
    // a rotation in flight: it holds the row it retires and has inserted the successor, not yet committed
    const rotation = await client();
    const sessionB = newId();
    await rotation.query('begin');
    await rotation.query('select 1 from sessions where id = $1 for update', [sessionA]);
    await insertSession((text, values) => rotation.query(text, values), sessionB);
    const sibling = await client();
    await sibling.query('begin');
    await sibling.query('select 1 from sessions where id = $1 for update', [sessionD]);

    const a = await startChildServer({ DATABASE_URL: database.url!, JWT_SECRET });
    servers.push(a);
    const logout = (s: ChildServer) =>
      fetch(`${s.url}/api/v1/account/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ deviceMake: 'test' }),
      });
    let answered: string | null = null;
    const inFlight = logout(a)
      .then(async (r) => (answered = `${r.status} ${await r.text()}`))
      .catch(() => null);
    // the backends waiting on transaction `xid`'s row locks
    const waitingOn = async (xid: string) =>
      (
        await database.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where locktype = 'transactionid' and not granted and transactionid::text = $1`,
          [xid],
        )
      )[0].n > 0;
    // the first pass waits on the rows held; its snapshot holds A and D, not the uncommitted successor
    expect(await eventually(async () => answered ?? (await someoneWaitsOnLock(database)), 120_000)).toBe(true);
    await rotation.query('commit');
    // the successor is committed now: hold it, so that the second pass waits on it
    const successor = await client();
    await successor.query('begin');
    await successor.query('select 1 from sessions where id = $1 for update', [sessionB]);
    const [{ xid }] = (await successor.query<{ xid: string }>('select pg_current_xact_id()::text as xid')).rows;
    await sibling.query('commit');
    expect(await eventually(async () => answered ?? (await waitingOn(xid)), 120_000)).toBe(true);
    await a.kill();
    expect(await inFlight).toBeNull();
    // The killed process's backend is still waiting on the lock. PostgreSQL notices a lost client
    // when it next writes to it, or at client_connection_check_interval: end it now, as that check
    // would. (Left to finish, it would complete its statement and, outside a transaction, commit it.)
    await database.query(`select pg_terminate_backend(pid) from pg_locks where locktype = 'transactionid' and not granted and transactionid::text = $1`, [xid]);
    await successor.query('rollback');
    // the orphaned backends end and roll back
    expect(await orphansRolledBack(database)).toBe(true);
    const revoked = async () =>
      Object.fromEntries(
        (
          await database.query<{ id: string; revoked: boolean }>('select id, revoked_at is not null as revoked from sessions where family_id = $1', [family])
        ).map((r) => [r.id === sessionA ? 'A' : r.id === sessionB ? 'B' : 'D', r.revoked]),
      );
    expect(await revoked()).toEqual({ A: false, B: false, D: false });

    // a new server: the caller's session still works, and the retried logout reaches the successor
    const b = await startChildServer({ DATABASE_URL: database.url!, JWT_SECRET });
    servers.push(b);
    const r = await logout(b);
    expect(r.status, await r.clone().text()).toBe(200);
    expect(await revoked()).toEqual({ A: true, B: true, D: true });
    expect((await logout(b)).status).toBe(401);
    await b.stop();
  }, 400_000);
});
