import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { ACCOUNT_TYPE, type Load } from '@masar/shared';
import type { Db } from '../src/db/client.ts';
import * as schema from '../src/db/schema/index.ts';
import { expireBatch } from '../src/modules/loads/lifecycle.ts';
import { deleteEndedOtps, deleteEndedSessions } from '../src/modules/auth/auth.repository.ts';
import { deleteExpiredKeys } from '../src/modules/idempotency/idempotency.repository.ts';
import { claimDue, deleteFinishedBefore } from '../src/modules/webhooks/webhooks.repository.ts';
import { dueForRenewal } from '../src/modules/billing/billing.repository.ts';
import { expireEnded } from '../src/modules/billing/lifecycle.repository.ts';
import { stalePending } from '../src/modules/bayan/bayan.repository.ts';
import { processingLogIds } from '../src/modules/csv/csv.repository.ts';
import { undeliveredEvents } from '../src/modules/events/events.repository.ts';
import { deleteNotificationsBefore } from '../src/modules/notifications/notifications.repository.ts';
import { deleteUnsentChatAttachments } from '../src/modules/files/files.repository.ts';
import { CITY, inDays, loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';

/**
 * Jobs that read only what is due (issue 24), on PGlite and PostgreSQL: the expiry job expires
 * what is due and nothing else, a load leaves the board the moment its expiry passes (before the
 * job has run, cache included), and every periodic job's statements — captured as the job's own
 * repository code sends them — plan an index condition on their due time in the generic plan.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
beforeAll(async () => {
  // no job worker: the tests run the jobs' code themselves; the board cache is on
  t = await createTestApp({ JOBS: false, SEARCH_CACHE_TTL_MS: 60_000 });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(async () => t?.close());

const statusOf = async (id: string) => (await t.database.query<{ status: string }>('select status from loads where id = $1', [id]))[0]?.status;
const boardIds = async (url: string) => {
  const res = await t.app.inject({ url, headers: carrier.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { items: Load[] } }>().data.items.map((l) => l.id);
};
/** Move a load's dates as an edit would: first pickup `hoursAgo` ago, expiry = pickup + LOAD_EXPIRY_HOURS_AFTER_PICKUP. */
const pickupHoursAgo = async (id: string, hoursAgo: number) => {
  await t.database.query(
    `update loads set pickup_at = now() - make_interval(mins => $2), drop_at = now() + interval '1 day',
       expires_at = now() - make_interval(mins => $2) + make_interval(hours => $3) where id = $1`,
    [id, Math.round(hoursAgo * 60), t.config.LOAD_EXPIRY_HOURS_AFTER_PICKUP],
  );
  await t.database.query(`update load_stops set date = now() - make_interval(mins => $2) where load_id = $1 and idx = 0`, [id, Math.round(hoursAgo * 60)]);
};

describe('the expiry job expires what is due, and only that', () => {
  it('due loads expire (across batches), undue ones and non-posted ones stay as they are', async () => {
    const due = await Promise.all(Array.from({ length: 7 }, () => postLoad(t.app, shipper.headers, loadBody({ day: 3 }))));
    const soon = await postLoad(t.app, shipper.headers, loadBody({ day: 3 }));
    const later = await postLoad(t.app, shipper.headers, loadBody({ day: 3 }));
    const unposted = await postLoad(t.app, shipper.headers, loadBody({ day: 3 }));
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/loads/${unposted.id}/unpost`, headers: shipper.headers })).statusCode).toBe(200);
    await t.database.query(`update loads set expires_at = now() - interval '1 minute' where id = any($1::uuid[])`, [[...due.map((l) => l.id), unposted.id]]);
    await t.database.query(`update loads set expires_at = now() + interval '1 minute' where id = $1`, [soon.id]);
    // batches of 3: the job goes on until a batch comes back short
    await t.app.container.services.loads.expireDue(3);
    for (const l of due) expect(await statusOf(l.id)).toBe('expired');
    expect(await statusOf(soon.id)).toBe('posted');
    expect(await statusOf(later.id)).toBe('posted');
    expect(await statusOf(unposted.id)).toBe('unposted');
    const events = await t.database.query<{ aggregate_id: string }>(
      `select aggregate_id from outbox_events where type = 'load.expired' and aggregate_id = any($1::uuid[])`,
      [[...due, soon, later, unposted].map((l) => l.id)],
    );
    expect(events.map((e) => e.aggregate_id).sort()).toEqual(due.map((l) => l.id).sort());
    // nothing left due: a second run expires nothing
    expect(await t.app.container.services.loads.expireDue(3)).toBe(0);
  });

  it('a load whose pickup deadline passed (first pickup + LOAD_EXPIRY_HOURS_AFTER_PICKUP) expires on the next run; one still inside it stays', async () => {
    const hours = t.config.LOAD_EXPIRY_HOURS_AFTER_PICKUP;
    const past = await postLoad(t.app, shipper.headers, loadBody({ day: 4 }));
    const inside = await postLoad(t.app, shipper.headers, loadBody({ day: 4 }));
    await pickupHoursAgo(past.id, hours + 1);
    await pickupHoursAgo(inside.id, Math.max(hours - 1, 0) + 0.5);
    await t.app.container.services.loads.expireDue();
    expect(await statusOf(past.id)).toBe('expired');
    expect(await statusOf(inside.id)).toBe(hours >= 1 ? 'posted' : 'expired');
    const details = await t.app.inject({ url: `/api/v1/loads/${past.id}`, headers: shipper.headers });
    expect(details.json<{ data: Load }>().data.status).toBe('expired');
  });

  it('an expired load leaves the board at once: before the job runs, and out of a cached page', async () => {
    const day = 70;
    const load = await postLoad(t.app, shipper.headers, loadBody({ day }));
    const other = await postLoad(t.app, shipper.headers, loadBody({ day }));
    // its expiry 2.5 s away (behind the service's back: no board write, nothing bumped)
    await t.database.query(`update loads set expires_at = now() + interval '2500 milliseconds' where id = $1`, [load.id]);
    const url = `/api/v1/loads?${new URLSearchParams({ pickupCityId: String(CITY.riyadh), pickupFrom: inDays(day - 0.5), pickupTo: inDays(day + 0.5), limit: '100' }).toString()}`;
    expect((await boardIds(url)).sort()).toEqual([load.id, other.id].sort());
    // the page is cached (a row changed behind the service's back is not seen)…
    await t.database.query(`update loads set price = 1 where id = $1`, [other.id]);
    const cached = await t.app.inject({ url, headers: carrier.headers });
    expect(cached.json<{ data: { items: Load[] } }>().data.items.find((l) => l.id === other.id)?.priceSar).toBe('3000.00');
    // …but never past the first expiry among its loads
    await new Promise((r) => setTimeout(r, 3000));
    expect(await statusOf(load.id)).toBe('posted'); // the job has not run
    expect(await boardIds(url)).toEqual([other.id]);
    const details = await t.app.inject({ url: `/api/v1/loads/${load.id}`, headers: carrier.headers });
    expect(details.json<{ data: Load }>().data.status).toBe('expired');
    await t.app.container.services.loads.expireDue();
    expect(await statusOf(load.id)).toBe('expired');
    expect(await boardIds(url)).toEqual([other.id]);
  });
});

/** Statements a job's repository code sends, captured through a drizzle logger on the test database's own client. */
async function statementsOf(run: (db: Db) => Promise<unknown>): Promise<{ sql: string; params: unknown[] }[]> {
  const out: { sql: string; params: unknown[] }[] = [];
  const logger = { logQuery: (q: string, params: unknown[]) => void out.push({ sql: q, params }) };
  const client = (t.database.db as unknown as { $client: unknown }).$client;
  const db = (t.database.engine === 'pglite'
    ? drizzlePglite(client as PGlite, { schema, logger })
    : drizzlePg(client as pg.Pool, { schema, logger })) as unknown as Db;
  await run(db);
  return out.filter((s) => !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(s.sql));
}

const text = (v: unknown): string =>
  v instanceof Date ? v.toISOString() : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
const literal = (v: unknown) => (v == null ? 'null' : `'${text(v).replace(/'/g, "''")}'`);

/**
 * The generic plan of a statement (what a prepared statement runs once PostgreSQL stops planning
 * it per execution): PREPARE, then EXPLAIN EXECUTE under plan_cache_mode = force_generic_plan.
 * Sequential scans are disabled: on the tiny test tables a scan of the whole table is cheapest,
 * and the question is whether an index on the due time serves the statement at all.
 */
async function genericPlan(s: { sql: string; params: unknown[] }): Promise<string> {
  return t.database.session(async (c) => {
    await c.exec('set plan_cache_mode = force_generic_plan; set enable_seqscan = off');
    try {
      await c.exec(`prepare job_stmt as ${s.sql}`);
      const args = s.params.length ? `(${s.params.map(literal).join(', ')})` : '';
      return (await c.query<Record<string, string>>(`explain execute job_stmt${args}`)).map((r) => Object.values(r)[0]).join('\n');
    } finally {
      await c.exec('deallocate all; reset plan_cache_mode; reset enable_seqscan');
    }
  });
}

/** The plan reads `table` through `index` with an index condition on `column` (never a scan of the whole table). */
const expectDueIndex = (plan: string, table: string, index: string, column: string | null) => {
  expect(plan, plan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
  expect(plan, plan).toMatch(new RegExp(`(Index Scan|Index Only Scan|Bitmap Index Scan)( Backward)? (using|on) ${index}\\b`));
  if (column) expect(plan, plan).toMatch(new RegExp(`Index Cond: .*\\b${column}\\b`));
};

const day = 86_400_000;
describe('every periodic job plans an index condition on its due time (generic plan)', () => {
  const cases: { job: string; run: (db: Db) => Promise<unknown>; checks: [table: string, index: string, column: string | null][] }[] = [
    {
      job: 'loads.expire (expireDue → dueForExpiry)',
      run: (db) => db.transaction((tx) => expireBatch(tx, 500)),
      checks: [['loads', 'loads_posted_expiry', 'expires_at']],
    },
    {
      job: 'billing.renew: trials and cancelled plans end (expireEnded)',
      run: (db) => expireEnded(db),
      checks: [['subscriptions', 'subscriptions_ending_idx', 'ends_at']],
    },
    {
      job: 'billing.renew: renewals due (dueForRenewal)',
      run: (db) => dueForRenewal(db, new Date(Date.now() + day), 200),
      checks: [['subscriptions', 'subscriptions_renewal_idx', 'ends_at']],
    },
    { job: 'bayan.sweep (stalePending)', run: (db) => stalePending(db, 120), checks: [['bayan_trips', 'bayan_trips_pending_stale', 'updated_at']] },
    // no due time: the due set is "still processing", a partial index of only those rows
    { job: 'csv.sweep (processingLogIds)', run: (db) => processingLogIds(db), checks: [['csv_logs', 'csv_logs_processing', null]] },
    {
      job: 'cleanup.daily: one-time codes (deleteEndedOtps)',
      run: (db) => deleteEndedOtps(db, new Date(Date.now() - day)),
      checks: [
        ['otps', 'otps_expires_at', 'expires_at'],
        ['otps', 'otps_consumed_at', 'consumed_at'],
      ],
    },
    {
      job: 'cleanup.daily: sessions (deleteEndedSessions)',
      run: (db) => deleteEndedSessions(db, new Date(Date.now() - day)),
      checks: [
        ['sessions', 'sessions_expires_at', 'expires_at'],
        ['sessions', 'sessions_revoked_at', 'revoked_at'],
      ],
    },
    {
      job: 'cleanup.daily: idempotency keys (deleteExpiredKeys)',
      run: (db) => deleteExpiredKeys(db, 24),
      checks: [['idempotency_keys', 'idempotency_keys_created_idx', 'created_at']],
    },
    {
      job: 'cleanup.daily: webhook deliveries (deleteFinishedBefore)',
      run: (db) => deleteFinishedBefore(db, new Date(Date.now() - 30 * day)),
      checks: [['webhook_deliveries', 'webhook_deliveries_finished', 'created_at']],
    },
    // ids are UUIDv7: "created before" is a range of the primary key
    {
      job: 'cleanup.daily: notifications past their retention (deleteNotificationsBefore)',
      run: (db) => db.transaction((tx) => deleteNotificationsBefore(tx, new Date(Date.now() - 180 * day), 5000)),
      checks: [['notifications', 'notifications_pkey', 'id']],
    },
    // the unsent chat uploads' partial index (migration 0128), ranged on the upload time
    {
      job: 'files.unsent: chat uploads never sent (deleteUnsentChatAttachments)',
      run: (db) => db.transaction((tx) => deleteUnsentChatAttachments(tx, new Date(Date.now() - day), 500)),
      checks: [['files', 'files_unsent_chat_idx', 'created_at']],
    },
    // the sender's due set is each endpoint's pending head: the pending rows' partial index
    { job: 'webhooks ticker (claimDue)', run: (db) => claimDue(db, 20, 60), checks: [['webhook_deliveries', 'webhook_deliveries_pending_idx', null]] },
    {
      job: 'outbox ticker (undeliveredEvents)',
      run: (db) => db.transaction((tx) => undeliveredEvents(tx, 200)),
      checks: [['outbox_events', 'outbox_events_undelivered_idx', null]],
    },
  ];
  for (const c of cases) {
    it(c.job, async () => {
      const statements = await statementsOf(c.run);
      expect(statements.length).toBeGreaterThan(0);
      // the first statement is the one that finds what is due (the rest act on the rows it found)
      const plan = await genericPlan(statements[0]);
      for (const [table, index, column] of c.checks) expectDueIndex(plan, table, index, column);
    });
  }
});
