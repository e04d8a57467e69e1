import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE } from '@masar/shared';
import { loadConfig } from '../src/config.ts';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';

/** Idempotency-Key on every create (issue 6): a retried create writes nothing. */
let t: TestContext;
let shipper: TestUser;
let other: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
});
afterAll(async () => t?.close());

const countLoads = async (owner: string) => (await t.database.query<{ n: number }>('select count(*)::int as n from loads where shipper_id = $1', [owner]))[0].n;
const post = (who: TestUser, key: string | undefined, body: object) =>
  t.app.inject({ method: 'POST', url: '/api/v1/loads', headers: { ...who.headers, ...(key ? { 'idempotency-key': key } : {}) }, payload: body });

describe('Idempotency-Key', () => {
  it('the same key and body return the first response and make one load', async () => {
    const body = loadBody();
    const first = await post(shipper, 'key-load-1', body);
    expect(first.statusCode, first.body).toBe(201);
    const again = await post(shipper, 'key-load-1', body);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(await countLoads(shipper.id)).toBe(1);
    // without a key, a second POST is a second load (today's behaviour for clients that send none)
    expect((await post(shipper, undefined, body)).statusCode).toBe(201);
    expect(await countLoads(shipper.id)).toBe(2);
  });

  it('the same key with another body is 422 and writes nothing', async () => {
    const before = await countLoads(shipper.id);
    expect((await post(shipper, 'key-load-2', loadBody({ price: 1000 }))).statusCode).toBe(201);
    const res = await post(shipper, 'key-load-2', loadBody({ price: 2000 }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await countLoads(shipper.id)).toBe(before + 1);
  });

  it('keys are per caller, and a failed request releases its key', async () => {
    const body = loadBody();
    expect((await post(other, 'key-load-1', body)).statusCode).toBe(201);
    const bad = await post(other, 'key-bad', { ...body, equipmentType: 'no_such_equipment' });
    expect(bad.statusCode).toBe(400);
    expect((await post(other, 'key-bad', body)).statusCode).toBe(201);
  });

  it('racing duplicates make one load (one 201; the others replay it or hear 409 in progress)', async () => {
    const body = loadBody();
    const before = await countLoads(other.id);
    const results = await Promise.all(Array.from({ length: 8 }, () => post(other, 'key-race', body)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201).length).toBeGreaterThanOrEqual(1);
    expect(codes.every((c) => c === 201 || c === 409)).toBe(true);
    const ids = new Set(results.filter((r) => r.statusCode === 201).map((r) => r.json().data.id));
    expect(ids.size).toBe(1);
    expect(await countLoads(other.id)).toBe(before + 1);
  });

  it('covers every create: offers, vendors and fleet too; refuses a malformed key', async () => {
    const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const load = (await post(shipper, undefined, loadBody())).json().data;
    const bid = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/offers',
        headers: { ...carrier.headers, 'idempotency-key': 'bid-1' },
        payload: { loadId: load.id, priceSar: '2500' },
      });
    expect((await bid()).statusCode).toBe(201);
    const again = await bid();
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { description?: string }>> };
    for (const [path, method] of [
      ['/api/v1/loads', 'post'],
      ['/api/v1/offers', 'post'],
      ['/api/v1/vendors', 'post'],
      ['/api/v1/vehicles', 'post'],
      ['/api/v1/trailers', 'post'],
      ['/api/v1/drivers', 'post'],
      ['/api/v1/csv/import', 'post'],
      ['/api/v1/loads/{id}/duplicate', 'post'],
    ])
      expect(doc.paths[path]?.[method]?.description, path).toContain('Idempotency-Key');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/loads',
      headers: { ...shipper.headers, 'idempotency-key': 'has space' },
      payload: loadBody(),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('INVALID_IDEMPOTENCY_KEY');
  });

  it('a key whose request died before committing anything (lease passed) runs again on retry; a live one stays 409', async () => {
    const body = loadBody();
    // the request's fingerprint, as the server computes it
    expect((await post(shipper, 'probe-key', body)).statusCode).toBe(201);
    const [{ hash }] = await t.database.query<{ hash: string }>(`select request_hash as hash from idempotency_keys where scope = $1 and key = 'probe-key'`, [
      shipper.id,
    ]);
    const before = await countLoads(shipper.id);
    // the dead request: claimed, no commit, lease over
    await t.database.query(`insert into idempotency_keys (scope, key, request_hash, lease_until) values ($1, 'dead-key', $2, now() - interval '1 second')`, [
      shipper.id,
      hash,
    ]);
    // a live request: lease still running
    await t.database.query(`insert into idempotency_keys (scope, key, request_hash, lease_until) values ($1, 'live-key', $2, now() + interval '1 minute')`, [
      shipper.id,
      hash,
    ]);
    expect((await post(shipper, 'live-key', body)).json()).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    const res = await post(shipper, 'dead-key', body);
    expect(res.statusCode, res.body).toBe(201);
    expect(await countLoads(shipper.id)).toBe(before + 1);
    const again = await post(shipper, 'dead-key', body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.id).toBe(res.json().data.id);
    // the committed transaction stamped the key with its result (the journal a take-over replays)
    const [row] = await t.database.query<{ committed: boolean; journal: unknown }>(
      `select committed_at is not null as committed, journal from idempotency_keys where scope = $1 and key = 'dead-key'`,
      [shipper.id],
    );
    expect(row.committed).toBe(true);
    expect(JSON.stringify(row.journal)).toContain(res.json().data.id);
  });

  it('refuses the crash-test hold in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', IDEMPOTENCY_TEST_HOLD_MS: '1000', DATA_DIR: 'memory://' }, { jwtSecret: 'x'.repeat(40) })).toThrow(
      /IDEMPOTENCY_TEST_HOLD_MS/,
    );
    // in the same refusal table as the other test knobs: a staging server that allows the
    // sandbox gateways still refuses it (and starts without it)
    const staging = { NODE_ENV: 'production', ALLOW_SANDBOX_GATEWAYS: '1', DATA_DIR: 'memory://' };
    expect(() => loadConfig({ ...staging, IDEMPOTENCY_TEST_HOLD_MS: '1000' }, { jwtSecret: 'x'.repeat(40) })).toThrow(
      /IDEMPOTENCY_TEST_HOLD_MS: a crash-test switch .* refused when NODE_ENV=production/,
    );
    expect(() => loadConfig(staging, { jwtSecret: 'x'.repeat(40) })).not.toThrow();
  });
});
