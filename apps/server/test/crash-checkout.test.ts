import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE } from '@masar/shared';
import { openDatabase, type Database } from '../src/db/client.ts';
import { PAYMENT_CHARGE_HELD } from '../src/gateways/payments/index.ts';
import { eventually, startChildServer, type ChildServer } from './crash-child.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestDatabase, ENGINE, pgliteFromTemplate, type TestContext } from './helpers.ts';

/**
 * A card checkout cut by a crash (issue 22): the server process is killed with SIGKILL while
 * the payment gateway is answering the charge (the sandbox's PAYMENT_SANDBOX_DELAY_MS), so the
 * intent stays `processing`. It no longer blocks the account for 15 minutes: a same-key retry
 * settles it at once with the gateway (same intent id: never a second charge), and without a
 * retry the `billing.reconcile` job does. On PGlite (a data directory the child servers open in
 * turn) and on PostgreSQL.
 */
const JWT_SECRET = 'crash-test-secret-crash-test-secret-0123456789';

interface Setup {
  env: Record<string, string>;
  user: TestUser;
  /** Rows of the user (PGlite: only while no server holds the data dir). */
  facts(): Promise<{ intents: { id: string; status: string }[]; invoices: number; plans: number }>;
}

const cleanups: (() => Promise<void>)[] = [];
const servers: ChildServer[] = [];
afterAll(async () => {
  for (const x of servers) await x.kill();
  for (const c of cleanups) await c();
});

async function setup(): Promise<Setup> {
  const config = { jwtSecret: JWT_SECRET } as TestContext['config'];
  const read = async (d: Database, userId: string) => ({
    intents: await d.query<{ id: string; status: string }>('select id, status from payment_intents where user_id = $1 order by created_at', [userId]),
    invoices: (await d.query<{ n: number }>('select count(*)::int as n from invoices where user_id = $1', [userId]))[0].n,
    plans: (await d.query<{ n: number }>('select count(*)::int as n from subscriptions where user_id = $1 and active', [userId]))[0].n,
  });
  if (ENGINE === 'postgres') {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    const user = await createUser({ database, config } as unknown as TestContext, { accountType: ACCOUNT_TYPE.shipper, plan: false });
    return { env: { DATABASE_URL: database.url!, JWT_SECRET, JOBS_MAINTENANCE_SECONDS: '1' }, user, facts: () => read(database, user.id) };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'masar-crash-checkout-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const client = await pgliteFromTemplate(join(dataDir, 'pglite'));
  const first = await openDatabase({ pglite: client });
  const user = await createUser({ database: first, config } as unknown as TestContext, { accountType: ACCOUNT_TYPE.shipper, plan: false });
  await first.close();
  const facts = async () => {
    const d = await openDatabase({ dataDir });
    try {
      return await read(d, user.id);
    } finally {
      await d.close();
    }
  };
  return { env: { DATA_DIR: dataDir, JWT_SECRET }, user, facts };
}

const post = async (server: ChildServer, user: TestUser, url: string, body: unknown, key: string) => {
  const r = await fetch(`${server.url}/api/v1${url}`, {
    method: 'POST',
    headers: { ...user.headers, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as { code?: string; data: { id: string; status: string } } };
};
const currentPlan = async (server: ChildServer, user: TestUser) => {
  const r = await fetch(`${server.url}/api/v1/subscription`, { headers: user.headers });
  return ((await r.json()) as { data: { planCode: string; active?: boolean } | null }).data;
};

/** Start a checkout whose charge answer never comes (the process is killed), and return once the intent is recorded. */
async function checkoutCutByCrash(s: Setup) {
  const a = await startChildServer({ ...s.env, IDEMPOTENCY_LEASE_SECONDS: '2', PAYMENT_SANDBOX_DELAY_MS: '120000' });
  servers.push(a);
  const card = await post(a, s.user, '/paymentMethod', { number: '4111111111111111', expMonth: 12, expYear: 2030, cvc: '123', holderName: 'Sara' }, 'card-1');
  expect(card.status, JSON.stringify(card.body)).toBe(201);
  const body = { purpose: 4, planCode: 'shipper-monthly', cardId: card.body.data.id };
  const inFlight = post(a, s.user, '/subscription/createIntent', body, 'checkout-1').catch(() => null);
  if (ENGINE === 'postgres') expect(await eventually(async () => (await s.facts()).intents.length === 1)).toBe(true);
  // PGlite: the data dir is the child's; the intent commits right before the charge, whose held
  // answer the child's log announces (checked once it is dead; a fixed pause was too short under load)
  else expect(await eventually(async () => a.lines.some((l) => l.msg === PAYMENT_CHARGE_HELD))).toBe(true);
  await a.kill();
  expect(await inFlight).toBeNull();
  const before = await s.facts();
  expect(before.intents).toEqual([{ id: expect.any(String), status: 'processing' }]);
  expect(before.plans).toBe(0);
  return { body, intentId: before.intents[0].id };
}

describe('a card checkout killed (SIGKILL) while the gateway answers', () => {
  it('the same-key retry settles it at once with the gateway: the original intent, paid once', async () => {
    const s = await setup();
    const { body, intentId } = await checkoutCutByCrash(s);
    // a reconcile job far away: the retry itself settles the intent
    const b = await startChildServer({ ...s.env, IDEMPOTENCY_LEASE_SECONDS: '2', CHECKOUT_RECONCILE_SECONDS: '3600' });
    servers.push(b);
    const retry = await eventually(async () => {
      const r = await post(b, s.user, '/subscription/createIntent', body, 'checkout-1');
      expect([201, 409]).toContain(r.status); // 409 while the dead request's lease runs
      return r.status === 201 ? r : null;
    });
    expect(retry?.body.data).toMatchObject({ id: intentId, status: 'succeeded' });
    expect(await currentPlan(b, s.user)).toMatchObject({ planCode: 'shipper-monthly' });
    // another checkout is refused because the plan is active, not because of a stuck one
    const other = await post(b, s.user, '/subscription/createIntent', body, 'checkout-2');
    expect(other).toMatchObject({ status: 409, body: { code: 'PLAN_ALREADY_ACTIVE' } });
    await b.stop();
    expect(await s.facts()).toEqual({ intents: [{ id: intentId, status: 'succeeded' }], invoices: 1, plans: 1 });
  }, 300_000);

  it('without a retry, the reconcile job settles it (within its minute), so the account is not blocked', async () => {
    const s = await setup();
    const { intentId } = await checkoutCutByCrash(s);
    const b = await startChildServer({ ...s.env, CHECKOUT_RECONCILE_SECONDS: '1' });
    servers.push(b);
    const plan = await eventually(async () => currentPlan(b, s.user), 150_000, 1000);
    expect(plan).toMatchObject({ planCode: 'shipper-monthly' });
    await b.stop();
    expect(await s.facts()).toEqual({ intents: [{ id: intentId, status: 'succeeded' }], invoices: 1, plans: 1 });
  }, 300_000);
});
