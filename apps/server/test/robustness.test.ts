import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { driverBody, trailerBody, vehicleBody } from '../src/modules/fleet/fleet.testkit.ts';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { vendorBody } from '../src/modules/vendors/vendors.testkit.ts';

/**
 * Input PostgreSQL rejects must be a 400 with the localized envelope, never a 500 (issue 6):
 * regression tests for what the review found, then a property-based sweep that sends generated
 * bad input to every operation of the OpenAPI document.
 */
let t: TestContext;
let users: TestUser[];
beforeAll(async () => {
  t = await createTestApp();
  users = [
    await createUser(t, { accountType: ACCOUNT_TYPE.shipper }),
    await createUser(t, { accountType: ACCOUNT_TYPE.carrier }),
    await createUser(t, { accountType: ACCOUNT_TYPE.broker }),
  ];
});
afterAll(async () => t?.close());

const envelopeOf = (body: string) => JSON.parse(body) as { message: string; code: string; errors?: { path: string; message: string }[] };

describe('input PostgreSQL cannot store', () => {
  it('a NUL byte in a query string is a 400 at its path, in Arabic too', async () => {
    const res = await t.app.inject({ url: '/api/v1/cities?search=%00', headers: { language: 'ar' } });
    expect(res.statusCode).toBe(400);
    const body = envelopeOf(res.body);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.errors?.[0]).toMatchObject({ path: 'query.search' });
    expect(body.errors?.[0].message).toMatch(/[\u0600-\u06FF]/);
  });

  it('a NUL byte inside body strings of loads, vendors and account is a 400', async () => {
    const [shipper, , broker] = users;
    for (const [url, payload, who] of [
      ['/api/v1/loads', { comments: 'a\u0000b' }, shipper],
      ['/api/v1/vendors', { companyName: 'x\u0000' }, broker],
      ['/api/v1/vehicles', { make: '\u0000' }, broker],
      ['/api/v1/account/sendOtp', { phone: '05\u000012345678', purpose: 'signup' }, undefined],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: who?.headers, payload });
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(envelopeOf(res.body).errors?.[0].message).toMatch(/cannot be saved/);
    }
  });

  it('a lone UTF-16 surrogate is a 400 (guest sign-in deviceId)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/guest',
      headers: { 'content-type': 'application/json' },
      payload: '{"deviceId":"\\ud800"}',
    });
    expect(res.statusCode).toBe(400);
    expect(envelopeOf(res.body)).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'deviceId' }] });
  });

  it('an integer beyond the database range is a 400', async () => {
    for (const url of [
      '/api/v1/cities?ids=999999999999999999999999999999',
      '/api/v1/loads?pickupCityId=999999999999999999999&radius=100',
      '/api/v1/loads?skip=1e30',
    ]) {
      const res = await t.app.inject({ url, headers: users[1].headers });
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
    }
  });

  it('a malformed URL and a wrong content type get the localized envelope (400, 415)', async () => {
    const bad = await t.app.inject({ url: '/api/v1/loads/%', headers: { language: 'ar' } });
    expect(bad.statusCode).toBe(400);
    expect(envelopeOf(bad.body)).toMatchObject({ code: 'BAD_URL' });
    expect(envelopeOf(bad.body).message).toMatch(/[\u0600-\u06FF]/);
    const pct = await t.app.inject({ url: '/api/v1/cities?search=%E0%A4%A' });
    expect(pct.statusCode).toBeLessThan(500);
    const text = await t.app.inject({ method: 'POST', url: '/api/v1/loads', headers: { ...users[0].headers, 'content-type': 'text/plain' }, payload: 'hello' });
    expect(text.statusCode).toBe(415);
    expect(envelopeOf(text.body)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/v1/offers',
      headers: { ...users[1].headers, 'content-type': 'application/xml', language: 'ar' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(envelopeOf(xml.body).message).toMatch(/[\u0600-\u06FF]/);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/offers',
      headers: { ...users[1].headers, 'content-type': 'application/json' },
      payload: '{"loadId":',
    });
    expect(json.statusCode).toBe(400);
    expect(envelopeOf(json.body)).toMatchObject({ code: 'INVALID_JSON' });
  });
});

interface Operation {
  method: string;
  path: string;
  query: string[];
  body: string[];
}

/** Every operation of the OpenAPI document with its query parameter and body property names. */
function operations(): Operation[] {
  const doc = t.app.swagger() as {
    paths: Record<
      string,
      Record<
        string,
        { parameters?: { in: string; name: string }[]; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }
      >
    >;
  };
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const body = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
      out.push({ method: method.toUpperCase(), path, query, body });
    }
  }
  return out;
}

/** Values that have broken servers: NUL, lone surrogates, huge and odd numbers, wrong types. */
const nasty = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff x',
    '%00',
    '%E0%A4%A',
    '../../etc/passwd',
    "'; drop table loads; --",
    '9'.repeat(40),
    '-1',
    '1e308',
    'NaN',
    '',
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(9e307, -9e307, 2 ** 31, 2 ** 63, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
/** Any generated value as query/path text (null-prototype objects have no toString). */
const text = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
const deep = (n: number): unknown => (n === 0 ? '\u0000' : { a: deep(n - 1) });

describe('every operation of the OpenAPI document, fed generated bad input', () => {
  it('never answers 5xx', { timeout: 300_000 }, async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(60);
    let requests = 0;
    const failures: string[] = [];
    for (const op of ops) {
      await fc
        .assert(
          fc.asyncProperty(
            fc.record({
              param: fc.oneof(
                fc.uuid(),
                nasty.map((v) => encodeURIComponent(text(v))),
              ),
              query: fc.dictionary(fc.constantFrom(...op.query, 'x'), nasty.map(text), { maxKeys: 4 }),
              body: fc.oneof(fc.dictionary(fc.constantFrom(...op.body, 'x'), nasty, { maxKeys: 6 }), nasty, fc.constant(deep(200))),
              who: fc.integer({ min: 0, max: 3 }),
              lang: fc.constantFrom('en', 'ar'),
            }),
            async ({ param, query, body, who }) => {
              const url = op.path.replace(/\{[^}]+\}/g, param) + '?' + new URLSearchParams(query).toString();
              const user = users[who];
              const res = await t.app.inject({
                method: op.method as 'GET',
                url,
                headers: { ...(user?.headers ?? {}), language: 'ar' },
                ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: body as object }),
              });
              requests += 1;
              if (res.statusCode >= 500) failures.push(`${op.method} ${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
              return res.statusCode < 500;
            },
          ),
          { numRuns: 40, seed: 2026 },
        )
        .catch((e: unknown) => failures.push(`${op.method} ${op.path}: ${String(e).slice(0, 300)}`));
    }
    console.log(`property-based sweep: ${ops.length} operations, ${requests} requests, ${failures.length} answered 5xx`);
    expect(failures).toEqual([]);
  });
});

describe('every operation on the caller’s own records, fed generated bad input', () => {
  // The sweep above mostly meets 404s (random ids): this one aims at records that exist and belong
  // to the caller, so a handler runs its update with whatever the schema let through (an empty
  // PATCH body was a 500, issue 22). FUZZ_RUNS=60 runs more generated requests per operation.
  it('never answers 5xx', { timeout: 300_000 }, async () => {
    // fresh accounts: the sweep above may have signed the shared ones out or deleted them
    const users = [
      await createUser(t, { accountType: ACCOUNT_TYPE.shipper }),
      await createUser(t, { accountType: ACCOUNT_TYPE.carrier }),
      await createUser(t, { accountType: ACCOUNT_TYPE.broker }),
    ];
    const [shipper, carrier, broker] = users;
    const made = async (who: TestUser, url: string, payload: unknown): Promise<string> => {
      const r = await t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: who.headers, payload: payload as object });
      expect(r.statusCode, `${url} ${r.body}`).toBeLessThan(300);
      return r.json<{ data: { id: string } }>().data.id;
    };
    const load = await made(shipper, '/loads', loadBody());
    // each record with the index of its owner in `users`
    const owned: [id: string, who: number][] = [
      [load, 0],
      [await made(shipper, '/webhooks', { url: 'https://example.com/hooks', events: ['offer.created'] }), 0],
      [await made(shipper, '/api-keys', { name: 'fuzz', scopes: ['loads:read'] }), 0],
      [await made(carrier, '/offers', { loadId: load, priceSar: '2500' }), 1],
      [await made(carrier, '/vehicles', vehicleBody()), 1],
      [await made(carrier, '/trailers', trailerBody()), 1],
      [await made(carrier, '/drivers', driverBody()), 1],
      [await made(broker, '/vendors', vendorBody()), 2],
      [await made(shipper, '/account/team', { phone: '+966559876543', name: 'Fuzz Member', role: 'viewer' }), 0],
      // user ids: shipper pages, favourites, blocked users, relations
      [shipper.id, 1],
      [carrier.id, 0],
    ];
    const ids = owned.map(([id]) => id);
    // deletions last, so that the other operations meet live records
    const ops = operations()
      .filter((o) => o.path.includes('{'))
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    let requests = 0;
    const failures: string[] = [];
    for (const op of ops) {
      // every record by its owner with an empty body (nothing to change) …
      for (const [id, who] of owned) {
        const url = op.path.replace(/\{[^}]+\}/g, id);
        const withBody = op.method !== 'GET' && op.method !== 'DELETE' && op.method !== 'POST';
        const res = await t.app.inject({ method: op.method as 'GET', url, headers: users[who].headers, ...(withBody ? { payload: {} } : {}) });
        requests += 1;
        if (res.statusCode >= 500) failures.push(`${op.method} ${url} {} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      // … then generated input by anyone
      await fc
        .assert(
          fc.asyncProperty(
            fc.record({
              param: fc.constantFrom(...ids),
              body: fc.oneof(fc.constant({}), fc.dictionary(fc.constantFrom(...op.body, 'x'), nasty, { maxKeys: 3 }), nasty),
              who: fc.integer({ min: 0, max: 2 }),
            }),
            async ({ param, body, who }) => {
              const url = op.path.replace(/\{[^}]+\}/g, param);
              const res = await t.app.inject({
                method: op.method as 'GET',
                url,
                headers: { ...users[who].headers, language: 'ar' },
                ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: body as object }),
              });
              requests += 1;
              if (res.statusCode >= 500) failures.push(`${op.method} ${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
              return res.statusCode < 500;
            },
          ),
          { numRuns: Number(process.env.FUZZ_RUNS ?? 15), seed: 2026 },
        )
        .catch((e: unknown) => failures.push(`${op.method} ${op.path}: ${String(e).slice(0, 300)}`));
    }
    console.log(`own-records sweep: ${ops.length} operations, ${requests} requests, ${failures.length} answered 5xx`);
    expect(failures).toEqual([]);
  });
});
