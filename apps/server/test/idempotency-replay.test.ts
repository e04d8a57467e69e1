import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE } from '@masar/shared';
import { queryRows } from '../src/lib/sql.ts';
import { bookedLoad, readyVehicle } from '../src/modules/assignment/assignment.testkit.ts';
import { driverBody, trailerBody, vehicleBody } from '../src/modules/fleet/fleet.testkit.ts';
import { loadLifecycle } from '../src/modules/loads/loads.service.ts';
import { loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { vendorBody } from '../src/modules/vendors/vendors.testkit.ts';
import { assign, bookedLoad as bookedForBayan, truckOf } from '../src/modules/bayan/bayan.testkit.ts';
import { vendorsCsv } from '../src/modules/csv/csv.testkit.ts';
import { createUser, multipart, PDF_MINIMAL, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * Crash-safe Idempotency-Key (issue 22) on every `idempotencyReplay` route: a request that
 * committed and then died (simulated: run once, then the key is put back into the state a
 * killed request leaves — no stored response, lease passed, its journal kept) is taken over by
 * the same-key retry, which replays the committed transactions (not run again) and answers the
 * same body as the first run; no row is written twice. The SIGKILL tests with real child
 * servers are in crash-idempotency.test.ts.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let cityId: number;
let districtId: number;
beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  [{ id: districtId, city_id: cityId }] = await queryRows<{ id: number; city_id: number }>(
    t.database.db,
    sql`select id::float8 as id, city_id from districts order by id limit 1`,
  );
});
afterAll(async () => t?.close());

const count = async (table: string, column: string, value: string) =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from ${table} where ${column} = $1`, [value]))[0].n;

interface Case {
  route: string;
  status: number;
  /** Who posts what (may create what the request needs first); `url` when not `route`; a multipart body with its content type. */
  request(): Promise<{ who: TestUser; body: object | Buffer; url?: string; contentType?: string; anonymous?: true }>;
  /** The rows the request writes: [table, column, value of the caller]. */
  rows(): [string, string, string];
}

const bid = async () => {
  const load = await postLoad(t.app, shipper.headers, loadBody());
  const r = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: carrier.headers, payload: { loadId: load.id, priceSar: '2800.00' } });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ data: { id: string } }>().data.id;
};
let offerId = '';
let assignedVehicle = '';
let noPlan: TestUser;
let bayanLoad = '';

const CASES: Case[] = [
  { route: '/loads', status: 201, request: async () => ({ who: shipper, body: loadBody() }), rows: () => ['loads', 'shipper_id', shipper.id] },
  {
    route: '/loads/:id/duplicate',
    status: 200,
    request: async () => ({ who: shipper, body: {}, url: `/loads/${(await postLoad(t.app, shipper.headers, loadBody())).id}/duplicate` }),
    rows: () => ['loads', 'shipper_id', shipper.id],
  },
  {
    route: '/offers',
    status: 201,
    request: async () => ({ who: carrier, body: { loadId: (await postLoad(t.app, shipper.headers, loadBody())).id, priceSar: '2500.00' } }),
    rows: () => ['offers', 'carrier_id', carrier.id],
  },
  {
    route: '/offerRespond',
    status: 200,
    request: async () => {
      offerId = await bid();
      return { who: shipper, body: { offerId, action: 'counter', priceSar: '3100.00' } };
    },
    rows: () => ['offer_events', 'offer_id', offerId],
  },
  {
    route: '/delivery-tracking/assign-driver',
    status: 200,
    request: async () => {
      const load = await bookedLoad(t.app, shipper.headers, carrier.headers);
      const { vehicleId } = await readyVehicle(t.app, carrier.headers);
      assignedVehicle = vehicleId;
      return { who: carrier, body: { loadId: load.id, vehicleId } };
    },
    rows: () => ['loads', 'vehicle_id', assignedVehicle],
  },
  { route: '/vehicles', status: 201, request: async () => ({ who: carrier, body: vehicleBody() }), rows: () => ['vehicles', 'owner_id', carrier.id] },
  { route: '/trailers', status: 201, request: async () => ({ who: carrier, body: trailerBody() }), rows: () => ['trailers', 'owner_id', carrier.id] },
  { route: '/drivers', status: 201, request: async () => ({ who: carrier, body: driverBody() }), rows: () => ['drivers', 'owner_id', carrier.id] },
  { route: '/vendors', status: 201, request: async () => ({ who: shipper, body: vendorBody() }), rows: () => ['vendors', 'owner_id', shipper.id] },
  {
    route: '/account/addresses',
    status: 201,
    request: async () => ({
      who: shipper,
      body: {
        label: 'Riyadh warehouse',
        cityId,
        districtId,
        address: 'Gate 3',
        addressDetails: { buildingNumber: '2345', streetName: 'King Fahd Rd', district: 'Al Olaya', region: 'Riyadh', zipCode: '12211' },
      },
    }),
    rows: () => ['saved_addresses', 'user_id', shipper.id],
  },
  {
    route: '/account/team',
    status: 201,
    request: async () => ({ who: shipper, body: { phone: '+966512340077', name: 'Faisal Al-Harbi', role: 'dispatcher' } }),
    rows: () => ['team_members', 'owner_id', shipper.id],
  },
  {
    route: '/account/favourite',
    status: 201,
    request: async () => ({ who: shipper, body: { userId: carrier.id } }),
    rows: () => ['user_favourites', 'user_id', shipper.id],
  },
  {
    route: '/account/blocked',
    status: 201,
    request: async () => ({ who: carrier, body: { userId: shipper.id, reason: 'spam' } }),
    rows: () => ['user_blocks', 'blocker_id', carrier.id],
  },
  {
    route: '/webhooks',
    status: 201,
    request: async () => ({ who: shipper, body: { url: 'https://hooks.example.com/masar', events: ['offer.created'] } }),
    rows: () => ['webhook_endpoints', 'owner_id', shipper.id],
  },
  // issue 22, the creates that answered 409 after a crash before
  {
    route: '/subscription/trial',
    status: 201,
    request: async () => {
      noPlan = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, plan: false });
      return { who: noPlan, body: { planCode: 'shipper-monthly' } };
    },
    rows: () => ['subscriptions', 'user_id', noPlan.id],
  },
  {
    route: '/paymentMethod',
    status: 201,
    request: async () => ({ who: carrier, body: { number: '4111111111111111', expMonth: 12, expYear: 2030, cvc: '123', holderName: 'Sara Alqahtani' } }),
    rows: () => ['payment_cards', 'user_id', carrier.id],
  },
  {
    route: '/files',
    status: 201,
    request: async () => {
      const m = multipart({ purpose: 'vehicle-insurance' }, { name: 'policy.pdf', data: PDF_MINIMAL });
      return { who: carrier, body: m.payload, contentType: m.contentType };
    },
    rows: () => ['files', 'owner_id', carrier.id],
  },
  {
    route: '/csv/import',
    status: 202,
    request: async () => {
      const m = multipart({ type: 'vendors' }, { name: 'vendors.csv', data: vendorsCsv([vendorBody()]) });
      return { who: carrier, body: m.payload, contentType: m.contentType };
    },
    rows: () => ['csv_logs', 'owner_id', carrier.id],
  },
  {
    route: '/vendor-invites/:token',
    status: 201,
    request: async () => {
      const link = await t.app.inject({ method: 'POST', url: '/api/v1/vendors/share-link', headers: shipper.headers });
      expect(link.statusCode, link.body).toBe(200);
      const { token } = link.json<{ data: { token: string } }>().data;
      return { who: shipper, body: vendorBody(), url: `/vendor-invites/${token}`, anonymous: true };
    },
    rows: () => ['vendors', 'owner_id', shipper.id],
  },
  {
    route: '/bayan/trips',
    status: 201,
    request: async () => {
      // parties of their own (the carrier above has blocked the shipper)
      const [s2, c2] = [await createUser(t, { accountType: ACCOUNT_TYPE.shipper }), await createUser(t, { accountType: ACCOUNT_TYPE.carrier })];
      const load = await bookedForBayan(t, s2, c2);
      await assign(t, load.id, c2, await truckOf(t, c2));
      bayanLoad = load.id;
      return { who: c2, body: { loadId: load.id } };
    },
    rows: () => ['bayan_trips', 'load_id', bayanLoad],
  },
];

/**
 * POST `payload` to `url` as `who` under Idempotency-Key `key` (expects 201), then leave the key as
 * a request killed after its commit does (no response kept, lease over) and send it again: answers
 * both responses.
 */
const createdThenCrashed = async (who: TestUser, url: string, key: string, payload: object) => {
  const send = () => t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { ...who.headers, 'idempotency-key': key }, payload });
  const first = await send();
  expect(first.statusCode, first.body).toBe(201);
  await t.database.query(
    `update idempotency_keys set status_code = null, content_type = null, response_body = null, lease_until = now() - interval '1 second' where scope = $1 and key = $2`,
    [who.id, key],
  );
  return { first, retry: await send() };
};

describe('a keyed request that committed and died is replayed by its retry', () => {
  it.each(CASES)('POST $route answers the first body again and writes once', async (c) => {
    const { who, body, url = c.route, contentType, anonymous } = await c.request();
    const [table, column, value] = c.rows();
    const key = `replay-${c.route}`;
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        headers: { ...(anonymous ? {} : who.headers), 'idempotency-key': key, ...(contentType ? { 'content-type': contentType } : {}) },
        payload: body,
      });
    const before = await count(table, column, value);
    const first = await send();
    expect(first.statusCode, first.body).toBe(c.status);
    const written = (await count(table, column, value)) - before;
    expect(written).toBeGreaterThan(0);

    // the state a request killed after its commit leaves: journal kept, no response, lease over
    const forced = await t.database.query<{ journal: unknown }>(
      `update idempotency_keys set status_code = null, content_type = null, response_body = null, lease_until = now() - interval '1 second'
        where key = $1 and committed_at is not null returning journal`,
      [key], // the caller's scope (a public request's is its address)
    );
    expect(forced).toHaveLength(1);

    const retry = await send();
    expect(retry.statusCode, retry.body).toBe(c.status);
    // rebuilt from what the dead run committed, and said so: a replay, not a fresh create (issue 48)
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect((await count(table, column, value)) - before).toBe(written);
    // and the rebuilt answer is now kept: a further retry is the stored copy
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });

  it("the driver's trip step and proof (trip token, no account) answer the first body again and are recorded once", async () => {
    // a booked shipment of fresh parties with a driver and vehicle assigned, and the driver's trip session
    const [s2, c2] = [await createUser(t, { accountType: ACCOUNT_TYPE.shipper }), await createUser(t, { accountType: ACCOUNT_TYPE.carrier })];
    const load = await bookedLoad(t.app, s2.headers, c2.headers);
    const d = driverBody();
    const driver = await t.app.inject({ method: 'POST', url: '/api/v1/drivers', headers: c2.headers, payload: d });
    expect(driver.statusCode, driver.body).toBe(201);
    const driverId = driver.json<{ data: { id: string } }>().data.id;
    const vehicle = await t.app.inject({ method: 'POST', url: '/api/v1/vehicles', headers: c2.headers, payload: vehicleBody() });
    expect(vehicle.statusCode, vehicle.body).toBe(201);
    await t.database.db.transaction((tx) =>
      loadLifecycle.transition(
        tx,
        load.id,
        'assign',
        c2.id,
        {},
        { vehicleId: vehicle.json<{ data: { id: string } }>().data.id, driverId, assignedAt: new Date() },
      ),
    );
    const link = await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/link`, headers: c2.headers });
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/v1/driver/trip/session',
      payload: { token: link.json<{ data: { token: string } }>().data.token, phone: d.phone, licenceNumber: d.licenceNumber },
    });
    expect(session.statusCode, session.body).toBe(200);
    const trip = { 'x-trip-token': session.json<{ data: { sessionToken: string } }>().data.sessionToken };

    const replayOnce = async (
      key: string,
      send: (key: string) => Promise<{ statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown }>,
      table: string,
    ) => {
      const before = await count(table, 'load_id', load.id);
      const first = await send(key);
      expect(first.statusCode, first.body).toBe(201);
      expect(await count(table, 'load_id', load.id)).toBe(before + 1);
      await t.database.query(
        `update idempotency_keys set status_code = null, content_type = null, response_body = null, lease_until = now() - interval '1 second' where key = $1`,
        [key],
      );
      const retry = await send(key);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toEqual(first.json());
      expect(await count(table, 'load_id', load.id)).toBe(before + 1);
    };
    const step = (name: string) => (key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/driver/trip/steps',
        headers: { ...trip, 'idempotency-key': key },
        payload: { loadId: load.id, step: name, geoError: 'denied' },
      });
    await replayOnce('replay-step-started', step('started'), 'trip_steps');
    for (const name of ['to_pickup', 'at_pickup']) expect((await step(name)(`step-${name}`)).statusCode).toBe(201);
    const m = multipart({ loadId: load.id, stop: 'pickup', geoError: 'denied' }, { name: 'proof.pdf', data: PDF_MINIMAL });
    await replayOnce(
      'replay-proof-pickup',
      (key) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/driver/trip/proofs',
          headers: { ...trip, 'idempotency-key': key, 'content-type': m.contentType },
          payload: m.payload,
        }),
      'trip_proofs',
    );
  });

  it('a webhook endpoint replayed after a crash answers the same secret, the one it signs with', async () => {
    const { first, retry } = await createdThenCrashed(carrier, '/webhooks', 'replay-webhook-secret', {
      url: 'https://hooks.example.com/secret',
      events: ['offer.created'],
    });
    expect(retry.statusCode, retry.body).toBe(201);
    const { id, secret } = retry.json<{ data: { id: string; secret: string } }>().data;
    expect(secret).toBe(first.json().data.secret);
    const [row] = await t.database.query<{ secret: string }>('select secret from webhook_endpoints where id = $1', [id]);
    expect(row.secret).toBe(secret);
  });

  it('POST /api-keys stays out of replay: the key is kept only hashed, so a crashed create answers 409 until the key expires', async () => {
    const { retry } = await createdThenCrashed(carrier, '/api-keys', 'replay-api-key', { name: 'TMS', scopes: ['loads:read'] });
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
  });
});
