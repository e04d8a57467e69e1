import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE } from '@masar/shared';
import { completeShipment, protectedBooking, topUp } from '../src/modules/escrow/escrow.testkit.ts';
import { crashHarness, eventually, orphansRolledBack, someoneWaitsOnLock, startChildServer, TEST_JWT_SECRET } from './crash-child.ts';
import { createUser } from './fixtures.ts';
import { createTestApp, createTestDatabase, ENGINE, type TestContext } from './helpers.ts';

/**
 * An escrow release cut by a crash (issue 50): the server process is killed with SIGKILL in the
 * middle of the release's transaction — after it has posted the ledger journal and moved the
 * escrow to released, while it waits to publish payment.released (the test holds a lock on the
 * outbox table) — so nothing of it may stay: the escrow still scheduled, no release journal, the
 * ledger balanced. The release then runs once. PostgreSQL only (a second connection holds the
 * lock while the child server runs; a PGlite data directory has one process at a time).
 */
const { servers, cleanups } = crashHarness();

describe.skipIf(ENGINE !== 'postgres')('an escrow release killed (SIGKILL) mid-transaction', () => {
  it('leaves the ledger balanced and no release, and the release then happens once', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    // the setup in process, on the database the child server will use; a 3.6 s dispute window
    const t: TestContext = await createTestApp({ JOBS: false, jwtSecret: TEST_JWT_SECRET, ESCROW_DISPUTE_WINDOW_HOURS: 0.001 }, { database });
    const shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    await topUp(t.app, shipper.id, 10_000);
    const load = await protectedBooking(t.app, shipper, carrier);
    await completeShipment(t.app, shipper, carrier, load.id); // queues escrow.release for the end of the window
    await t.app.close();

    const facts = async () => {
      const [e] = await database.query<{ id: string; status: string }>('select id, status from escrows where load_id = $1', [load.id]);
      const q = async (text: string) => (await database.query<{ n: string }>(text, [e.id]))[0].n;
      return {
        status: e.status,
        releaseJournals: Number(await q(`select count(*) as n from ledger_journals where fact_kind = 'escrow.released' and fact_id = $1::text`)),
        trialBalance: Number((await database.query<{ n: string }>('select coalesce(sum(amount_halalas), 0) as n from ledger_postings'))[0].n),
        carrierPayable: Number(
          (
            await database.query<{ n: string }>(
              `select coalesce(sum(amount_halalas), 0) as n from ledger_postings where owner_id = $1 and account = 'payable'`,
              [carrier.id],
            )
          )[0].n,
        ),
      };
    };
    expect(await facts()).toMatchObject({ status: 'release_scheduled', releaseJournals: 0, trialBalance: 0, carrierPayable: 0 });

    // hold the outbox: the release blocks when it publishes payment.released, its journal and status written but not committed
    const holder = new pg.Client({ connectionString: database.url });
    holder.on('error', () => undefined);
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('begin');
    await holder.query('lock table outbox_events in share row exclusive mode');

    const a = await startChildServer({ DATABASE_URL: database.url!, JWT_SECRET: TEST_JWT_SECRET });
    servers.push(a);
    expect(await eventually(() => someoneWaitsOnLock(database), 120_000)).toBe(true);
    await a.kill();
    await holder.query('rollback');
    expect(await orphansRolledBack(database)).toBe(true);
    expect(await facts()).toMatchObject({ status: 'release_scheduled', releaseJournals: 0, trialBalance: 0, carrierPayable: 0 });

    // the release runs again (the sweep's call), once
    const t2 = await createTestApp({ JOBS: false, jwtSecret: TEST_JWT_SECRET }, { database });
    cleanups.push(() => t2.app.close());
    expect(await t2.app.container.services.escrow.releaseDue()).toBe(1);
    expect(await t2.app.container.services.escrow.releaseDue()).toBe(0);
    expect(await facts()).toEqual({ status: 'released', releaseJournals: 1, trialBalance: 0, carrierPayable: 280_000 });
  }, 300_000);
});
