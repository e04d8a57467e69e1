import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type PaymentIntent, type SavedCard } from '@masar/shared';
import { SANDBOX_CARDS } from '../src/gateways/payments/sandbox.ts';
import { newId } from '../src/lib/ids.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * One live plan per account (issue 22), on PGlite and PostgreSQL: 20 checkouts of one plan sent
 * at once with different Idempotency-Keys charge the card once and write one invoice and one
 * plan; the others are a localized 409 and never reach the gateway. On PostgreSQL the requests
 * really run in parallel on the pool (the run that proves the lock).
 */
let t: TestContext;
const charges: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  // count what reaches the (sandbox) gateway: the billing service holds this very object
  const payments = t.app.container.gateways.payments;
  const charge = payments.charge.bind(payments);
  payments.charge = async (req) => {
    charges.push(req.intentId);
    return charge(req);
  };
});
afterAll(() => t?.close());

const RACE = 20;
const inject = (u: TestUser, method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: { ...u.headers, ...headers }, ...(payload ? { payload } : {}) });
const count = async (q: string, id: string) => (await t.database.query<{ n: number }>(q, [id]))[0].n;
async function addCard(u: TestUser, number: string): Promise<SavedCard> {
  const r = await inject(u, 'POST', '/paymentMethod', { number, expMonth: 12, expYear: 2030, cvc: '123', holderName: 'Sara Alqahtani' });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data;
}
const chargesOf = async (u: TestUser) => {
  const ids = new Set((await t.database.query<{ id: string }>('select id from payment_intents where user_id = $1', [u.id])).map((r) => r.id));
  return charges.filter((id) => ids.has(id)).length;
};

async function race(u: TestUser, body: object) {
  const langs = Array.from({ length: RACE }, (_, i) => (i % 2 ? 'ar' : 'en'));
  const answers = await Promise.all(
    langs.map((language, i) => inject(u, 'POST', '/subscription/createIntent', body, { 'idempotency-key': `race-${u.id}-${i}`, language })),
  );
  const paid = answers.filter((r) => r.statusCode === 201);
  const refusedAt = answers.flatMap((r, i) => (r.statusCode === 409 ? [i] : []));
  expect(paid.length + refusedAt.length, answers.map((r) => r.body).join('\n')).toBe(RACE);
  for (const i of refusedAt) expect(['PLAN_ALREADY_ACTIVE', 'CHECKOUT_IN_PROGRESS']).toContain(answers[i].json().code);
  const ar = refusedAt.find((i) => langs[i] === 'ar');
  if (ar !== undefined) expect(answers[ar].json().message).toMatch(/[\u0600-\u06FF]/);
  return { paid: paid.length, refused: refusedAt.length };
}

describe('20 concurrent checkouts of one plan with different Idempotency-Keys', () => {
  it('with a card: exactly one charge, one invoice, one plan; the others 409 without charging', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, plan: false });
    const card = await addCard(u, '4111111111111111');
    expect(await race(u, { purpose: 4, planCode: 'shipper-monthly', cardId: card.id })).toEqual({ paid: 1, refused: RACE - 1 });
    expect(await chargesOf(u)).toBe(1);
    expect(await count('select count(*)::int as n from payment_intents where user_id = $1', u.id)).toBe(1);
    expect(await count(`select count(*)::int as n from payment_intents where user_id = $1 and status = 'succeeded'`, u.id)).toBe(1);
    expect(await count('select count(*)::int as n from invoices where user_id = $1', u.id)).toBe(1);
    expect(await count('select count(*)::int as n from subscriptions where user_id = $1', u.id)).toBe(1);
  });

  it('from the wallet: debited once', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, plan: false });
    const card = await addCard(u, '4111111111111111');
    const top = await inject(u, 'POST', '/subscription/createIntent', { purpose: 2, amountSar: '5000', cardId: card.id }, { 'idempotency-key': `top-${u.id}` });
    expect(top.statusCode, top.body).toBe(201);
    expect(await race(u, { purpose: 4, planCode: 'carrier-monthly', payWithWallet: true })).toEqual({ paid: 1, refused: RACE - 1 });
    expect(await count(`select count(*)::int as n from wallet_entries where user_id = $1 and kind = 'payment'`, u.id)).toBe(1);
    expect(await count('select count(*)::int as n from invoices where user_id = $1', u.id)).toBe(1);
    expect(await count('select count(*)::int as n from subscriptions where user_id = $1 and active', u.id)).toBe(1);
  });
});

describe('one plan checkout at a time', () => {
  it('a checkout waiting for 3-D Secure blocks another (no second charge); once declined there, the next one goes through', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.broker, plan: false });
    const threeDs = await addCard(u, SANDBOX_CARDS.threeDSecure);
    const good = await addCard(u, '5555555555554444');
    const first = await inject(
      u,
      'POST',
      '/subscription/createIntent',
      { purpose: 4, planCode: 'tms-monthly', cardId: threeDs.id },
      { 'idempotency-key': 'a' },
    );
    expect(first.statusCode).toBe(202);
    const blocked = await inject(
      u,
      'POST',
      '/subscription/createIntent',
      { purpose: 4, planCode: 'tms-monthly', cardId: good.id },
      { 'idempotency-key': 'b', language: 'ar' },
    );
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toMatchObject({ code: 'CHECKOUT_IN_PROGRESS' });
    expect(blocked.json().message).toMatch(/[\u0600-\u06FF]/);
    expect(await chargesOf(u)).toBe(1);
    const pending = first.json<{ data: PaymentIntent }>().data;
    expect((await inject(u, 'POST', `/payments/intents/${pending.id}/confirm`, { outcome: 'decline' })).json().code).toBe('PAYMENT_DECLINED');
    const next = await inject(u, 'POST', '/subscription/createIntent', { purpose: 4, planCode: 'tms-monthly', cardId: good.id }, { 'idempotency-key': 'c' });
    expect(next.statusCode, next.body).toBe(201);
    // the same key again answers the first result and charges nothing
    const again = await inject(u, 'POST', '/subscription/createIntent', { purpose: 4, planCode: 'tms-monthly', cardId: good.id }, { 'idempotency-key': 'c' });
    expect(again.statusCode).toBe(201);
    expect(await chargesOf(u)).toBe(2);
  });

  it('the database refuses a second live plan for one account', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    await expect(
      t.database.query(`insert into subscriptions (id, user_id, plan_code, plan_name, active) values ($1, $2, 'test', 'Test plan', true)`, [newId(), u.id]),
    ).rejects.toThrow(/subscriptions_one_live_per_user|unique/i);
  });
});
