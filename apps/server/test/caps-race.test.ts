import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE } from '@masar/shared';
import { MAX_LIVE_KEYS } from '../src/modules/apikeys/apikeys.service.ts';
import { MAX_CARDS } from '../src/modules/billing/billing.service.ts';
import { MAX_ENDPOINTS } from '../src/modules/webhooks/webhooks.service.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * Account caps hold under concurrency (issue 22): 50 parallel creations of API keys, webhook
 * endpoints and saved cards by one account end exactly at the cap, every other request a
 * localized 409 LIMIT_REACHED. On PostgreSQL the requests really run in parallel on the pool
 * (the run that proves the lock); PGlite runs them on its one connection.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: true });
});
afterAll(() => t?.close());

const RACE = 50;
const post = (u: TestUser, url: string, payload: object, lang = 'en') =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { ...u.headers, language: lang }, payload });
const count = async (q: string, id: string) => (await t.database.query<{ n: number }>(q, [id]))[0].n;

async function race(u: TestUser, url: string, body: (i: number) => object) {
  const langs = Array.from({ length: RACE }, (_, i) => (i % 2 ? 'ar' : 'en'));
  const answers = await Promise.all(langs.map((lang, i) => post(u, url, body(i), lang)));
  const created = answers.filter((r) => r.statusCode === 201).length;
  const refusedAt = answers.flatMap((r, i) => (r.statusCode === 409 ? [i] : []));
  expect(created + refusedAt.length, answers.map((r) => r.body).join('\n')).toBe(RACE);
  for (const i of refusedAt) expect(answers[i].json().code).toBe('LIMIT_REACHED');
  // the refusal is localized in the request's language
  const messageIn = (lang: string) => answers[refusedAt.find((i) => langs[i] === lang)!].json().message as string;
  expect(messageIn('en')).toMatch(/[a-z]/i);
  expect(messageIn('ar')).toMatch(/[\u0600-\u06FF]/);
  return created;
}

describe('a 50-way race ends exactly at the cap', () => {
  it(`API keys: ${MAX_LIVE_KEYS} live keys`, async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    expect(await race(u, '/api-keys', (i) => ({ name: `race ${i}`, scopes: ['loads:read'] }))).toBe(MAX_LIVE_KEYS);
    expect(await count('select count(*)::int as n from api_keys where owner_id = $1 and revoked_at is null', u.id)).toBe(MAX_LIVE_KEYS);
  });

  it(`webhook endpoints: ${MAX_ENDPOINTS}`, async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    expect(await race(u, '/webhooks', (i) => ({ url: `https://hooks.example.com/race/${i}`, events: ['offer.created'] }))).toBe(MAX_ENDPOINTS);
    expect(await count('select count(*)::int as n from webhook_endpoints where owner_id = $1', u.id)).toBe(MAX_ENDPOINTS);
  });

  it(`saved cards: ${MAX_CARDS}, exactly one of them the default`, async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    expect(await race(u, '/paymentMethod', () => ({ number: '4111111111111111', expMonth: 12, expYear: 2030, cvc: '123', holderName: 'Sara Alqahtani' }))).toBe(
      MAX_CARDS,
    );
    expect(await count('select count(*)::int as n from payment_cards where user_id = $1 and deleted_at is null', u.id)).toBe(MAX_CARDS);
    expect(await count('select count(*)::int as n from payment_cards where user_id = $1 and deleted_at is null and is_default', u.id)).toBe(1);
  });
});
