import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { ACCOUNT_TYPE, DOMAIN_EVENTS, LOAD_ACTION_EVENT, OFFER_ACTION_EVENT, TRIP_STEPS, type DomainEventType, type Load } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, multipart, PNG_1X1, type TestUser } from './fixtures.ts';
import { assign, bookedLoad, post, truckOf } from '../src/modules/bayan/bayan.testkit.ts';
import { postLoad } from '../src/modules/loads/loads.testkit.ts';
import { EventPayloadError, publish, recipientsOf } from '../src/modules/events/events.service.ts';
import { newId } from '../src/lib/ids.ts';
import { standardWebhookHeaders, verifySignature } from '../src/modules/webhooks/webhooks.sign.ts';

/**
 * Issue 18 "One typed event contract": every event parses with its schema at publish (else it
 * is refused with its transaction), names its parties, reaches its handlers when the publishing
 * transaction commits, and reaches the webhooks of both sides of a shipment, signed (Standard
 * Webhooks and Masar-Signature), in order per load.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;

beforeAll(async () => {
  // a long poll: events must arrive by the NOTIFY of their commit, not by the safety-net poll
  t = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: true, WEBHOOK_RETRY_BASE_SECONDS: 0.2, WEBHOOK_TIMEOUT_MS: 2000, OUTBOX_POLL_MS: 60_000 });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const outboxOf = (aggregateId: string) =>
  t.database.query<{ id: string; type: string; data: Record<string, unknown> }>(
    'select id, type, data from outbox_events where aggregate_id = $1 order by seq',
    [aggregateId],
  );

describe('publish', () => {
  it('refuses a payload that does not parse with its schema, and the transaction writes nothing', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const before = (await outboxOf(load.id)).length;
    // load.trip_step without its step, driver and time; an account event without its account
    await expect(
      // @ts-expect-error the run-time check is tested: a payload the types refuse (trip.step without step, driverId, at)
      t.database.db.transaction((tx) => publish(tx, { type: 'trip.step', aggregateType: 'load', aggregateId: load.id, actorId: null, data: { lat: 1 } })),
    ).rejects.toBeInstanceOf(EventPayloadError);
    await expect(
      // @ts-expect-error the run-time check is tested: account.approved without accountId and status
      t.database.db.transaction((tx) => publish(tx, { type: 'account.approved', aggregateType: 'account', aggregateId: shipper.id, actorId: null, data: {} })),
    ).rejects.toThrow(/accountId/);
    await expect(
      t.database.db.transaction((tx) =>
        publish(tx, { type: 'no.such' as DomainEventType, aggregateType: 'load', aggregateId: load.id, actorId: null, data: {} }),
      ),
    ).rejects.toBeInstanceOf(EventPayloadError);
    expect((await outboxOf(load.id)).length).toBe(before);
  });

  it('requires status {from, to} on the events only a lifecycle transition publishes, and not on the others', async () => {
    // a load event publish() gets from transition(): without its status change it is refused
    const load = await postLoad(t.app, shipper.headers);
    const before = (await outboxOf(load.id)).length;
    await expect(
      // @ts-expect-error the run-time check is tested: load.unposted without its status change
      t.database.db.transaction((tx) => publish(tx, { type: 'load.unposted', aggregateType: 'load', aggregateId: load.id, actorId: shipper.id, data: {} })),
    ).rejects.toThrow(/status/);
    expect((await outboxOf(load.id)).length).toBe(before);
    const base = { loadId: newId(), referenceId: 'SHP-26-000001', shipperId: newId(), carrierId: newId(), offerId: newId() };
    const transitionOnly = [...Object.values(LOAD_ACTION_EVENT).filter((type) => type !== 'load.bayan_created'), ...Object.values(OFFER_ACTION_EVENT)];
    for (const type of transitionOnly) {
      const shape = DOMAIN_EVENTS[type].schema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
      expect(shape.status?.safeParse(undefined).success, type).toBe(false);
    }
    // published outside a transition too (no status change): status stays optional
    for (const type of [
      'load.bayan_created',
      'load.edited',
      'load.dates_extended',
      'load.payment_received',
      'load.bayan_failed',
      'load.delivery_override',
      'trip.step',
      'offer.created',
    ] as const) {
      const shape = DOMAIN_EVENTS[type].schema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
      expect(shape.status?.safeParse(undefined).success, type).toBe(true);
    }
    expect(DOMAIN_EVENTS['load.unposted'].schema.safeParse({ ...base, status: { from: 'posted', to: 'unposted' } }).success).toBe(true);
  });

  it('names the parties of every load event itself: shipper, carrier once booked, broker, reference', async () => {
    const broker = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    const load = await bookedLoad(t, shipper, broker);
    const events = await outboxOf(load.id);
    expect(events.map((e) => e.type)).toEqual(['load.posted', 'offer.created', 'offer.accepted', 'load.booked']);
    expect(events[0].data).toMatchObject({ loadId: load.id, referenceId: load.referenceId, shipperId: shipper.id });
    expect(events[0].data.carrierId).toBeUndefined();
    for (const e of events.slice(1))
      expect(e.data).toMatchObject({ shipperId: shipper.id, carrierId: broker.id, brokerId: broker.id, referenceId: load.referenceId });
    for (const e of events) expect(DOMAIN_EVENTS[e.type as DomainEventType].schema.safeParse(e.data).success).toBe(true);
  });

  it('the operator’s suspend publishes account.suspended with the status change in the same transaction', async () => {
    const user = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const change = await t.app.container.services.accounts.setStatus('suspend', user.phone);
    expect(change?.to).toBe(3);
    const [e] = await outboxOf(user.id);
    expect(e).toMatchObject({ type: 'account.suspended', data: { accountId: user.id, status: { from: 'approved', to: 'suspended' } } });
  });
});

describe('account events and recipients', () => {
  it('a trial, a WASL registration and a team invitation publish their events for the account, each parsing', async () => {
    const owner = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, plan: false });
    const trial = await t.app.inject({ method: 'POST', url: '/api/v1/subscription/trial', headers: owner.headers, payload: { planCode: 'carrier-monthly' } });
    expect(trial.statusCode, trial.body).toBe(201);
    await truckOf(t, owner);
    const inv = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/team',
      headers: { ...owner.headers, 'idempotency-key': `ev-${owner.id}` },
      payload: { phone: '+966551230987', name: 'Noura', role: 'dispatcher' },
    });
    expect(inv.statusCode, inv.body).toBe(201);
    const events = await outboxOf(owner.id);
    expect(events.map((e) => e.type)).toEqual(['subscription.started', 'vehicle.wasl_changed', 'driver.wasl_changed', 'team.member_invited']);
    for (const e of events) {
      expect(e.data.accountId).toBe(owner.id);
      expect(DOMAIN_EVENTS[e.type as DomainEventType].schema.safeParse(e.data).success, e.type).toBe(true);
    }
    expect(events[1].data.status).toEqual({ from: 'not_submitted', to: 'verified' });
    // the invitation SMS is a handler of team.member_invited: it is sent after the commit
    const sms = async () =>
      (await t.app.inject({ url: `/api/v1/dev/outbox?phone=${encodeURIComponent('+966551230987')}` })).json<{ data: { items: unknown[] } }>().data.items.length;
    await expect.poll(sms, { timeout: 15_000 }).toBe(1);
  });

  it('recipients come from the parties only: the shipper, the carrier, and their team members as their role allows', async () => {
    const member = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    await t.database.query(
      `insert into team_members (id, owner_id, member_user_id, phone, name, role, status, invited_by) values ($1, $2, $3, $4, 'M', 'viewer', 'active', $2)`,
      [newId(), carrier.id, member.id, member.phone],
    );
    const r = await recipientsOf(t.database.db, { type: 'load.booked', data: { shipperId: shipper.id, carrierId: carrier.id, someoneId: newId() } });
    expect(r.accounts).toEqual([
      { userId: shipper.id, as: 'shipper' },
      { userId: carrier.id, as: 'carrier' },
    ]);
    expect(r.members).toEqual([{ userId: member.id, ownerId: carrier.id, role: 'viewer' }]);
    // account matters reach the account and its admins only, not a viewer
    const billing = await recipientsOf(t.database.db, { type: 'payment.failed', data: { accountId: carrier.id } });
    expect(billing).toEqual({ accounts: [{ userId: carrier.id, as: 'account' }], members: [] });
  });
});

describe('Standard Webhooks signatures', () => {
  it('verify with the standardwebhooks library, also for a secret made before (base64url alphabet) once converted', () => {
    const body = JSON.stringify({ id: 'e1', type: 'load.booked' });
    const legacy = 'whsec_ab-_cdEFghIJklMNopQRstUVwxYZ0123'; // base64url, with - and _
    const h = standardWebhookHeaders(legacy, 'e1', body);
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(
      new Webhook(
        legacy
          .replace(/-/g, '+')
          .replace(/_/g, '/')
          .replace(/^whsec\//, 'whsec_'),
      ).verify(body, h),
    ).toEqual(JSON.parse(body));
    // a tampered body or another secret is refused
    expect(() => new Webhook('whsec_' + Buffer.from('another secret!!').toString('base64')).verify(body, h)).toThrow();
    expect(() =>
      new Webhook(
        legacy
          .replace(/-/g, '+')
          .replace(/_/g, '/')
          .replace(/^whsec\//, 'whsec_'),
      ).verify(body.replace('e1', 'e2'), h),
    ).toThrow();
  });
});

/** A receiver that records what arrives. */
function receiver() {
  const got: { headers: Record<string, string>; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(200).end('ok');
    });
  });
  return {
    got,
    start: () => new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`))),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const SHIPMENT_EVENTS = [
  'offer.created',
  'offer.countered',
  'offer.accepted',
  'offer.rejected',
  'offer.withdrawn',
  'load.booked',
  'load.assigned',
  'load.unassigned',
  'load.bayan_created',
  'load.bayan_closed',
  'load.bayan_cancelled',
  'trip.step',
  'trip.proof_flagged',
  'load.completed',
  'load.cancelled',
  'load.payment_received',
] as const satisfies readonly DomainEventType[];

/** The driver of `truck` walks every step of `loadId`; the proof of drop `farKm` away when given. */
async function drive(loadId: string, truck: Awaited<ReturnType<typeof truckOf>>, load: Load, farDrop = false) {
  const get = async <T>(url: string) => (await t.app.inject({ url: `/api/v1${url}`, headers: carrier.headers })).json<{ data: T }>().data;
  const driver = await get<{ phone: string; licenceNumber: string }>(`/drivers/${truck.driver.id}`);
  const link = await get<{ token: string }>(`/drivers/${truck.driver.id}/link`);
  const session = await post<{ sessionToken: string }>(
    t,
    '/driver/trip/session',
    { headers: {} } as TestUser,
    { token: link.token, phone: driver.phone, licenceNumber: driver.licenceNumber },
    200,
  );
  const headers = { 'x-trip-token': session.sessionToken };
  const [pickup, drop] = [load.stops[0], load.stops[load.stops.length - 1]];
  for (const step of TRIP_STEPS) {
    const at = ['started', 'to_pickup', 'at_pickup', 'pickup_proof'].includes(step) ? pickup : drop;
    if (step === 'pickup_proof' || step === 'drop_proof') {
      const far = farDrop && step === 'drop_proof';
      const m = multipart(
        { loadId, stop: step === 'pickup_proof' ? 'pickup' : 'drop', lat: far ? at.lat + 1 : at.lat, lng: at.lng },
        { name: 'p.png', data: PNG_1X1 },
      );
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/v1/driver/trip/proofs',
        headers: { ...headers, 'content-type': m.contentType },
        payload: m.payload,
      });
      expect(r.statusCode, r.body).toBe(201);
    } else {
      const r = await t.app.inject({ method: 'POST', url: '/api/v1/driver/trip/steps', headers, payload: { loadId, step, lat: at.lat, lng: at.lng } });
      expect(r.statusCode, `${step}: ${r.body}`).toBe(201);
    }
  }
}

describe('webhooks of both sides of a shipment', () => {
  it('deliver every shipment event, from post to payment received, signed, in order per load, each parsing with its schema', async () => {
    const rx = receiver();
    const url = await rx.start();
    try {
      const secrets: Record<string, string> = {};
      for (const who of [shipper, carrier]) {
        const r = await t.app.inject({
          method: 'POST',
          url: '/api/v1/webhooks',
          headers: who.headers,
          payload: { url: `${url}?for=${who.id}`, events: [...SHIPMENT_EVENTS] },
        });
        expect(r.statusCode, r.body).toBe(201);
        secrets[who.id] = r.json().data.secret;
      }

      // 1. post → bid → counter → accept (booked) → assign → unassign → assign → Bayan → the
      //    driver's trip with a proof of drop far from the stop → Bayan closed → payment received
      const a = await postLoad(t.app, shipper.headers);
      const bid = await post<{ id: string }>(t, '/offers', carrier, { loadId: a.id, priceSar: '2800' });
      await post(t, '/offerRespond', shipper, { offerId: bid.id, action: 'counter', priceSar: '2600' }, 200);
      await post(t, '/offerRespond', carrier, { offerId: bid.id, action: 'accept' }, 200);
      const truck = await truckOf(t, carrier);
      await assign(t, a.id, carrier, truck);
      await post(t, '/delivery-tracking/unassign-driver', carrier, { loadId: a.id }, 200);
      await assign(t, a.id, carrier, truck);
      const trip = await post<{ id: string }>(t, '/bayan/trips', carrier, { loadId: a.id });
      await drive(a.id, truck, a, true);
      await post(t, `/bayan/trips/${trip.id}/close`, carrier, { deliveredAt: new Date().toISOString() }, 200);
      await post(t, `/loads/${a.id}/payment-received`, carrier, {}, 200);

      // 2. a bid withdrawn, another rejected
      const b = await postLoad(t.app, shipper.headers);
      const w = await post<{ id: string }>(t, '/offers', carrier, { loadId: b.id, priceSar: '2000' });
      await post(t, `/offers/${w.id}/withdraw`, carrier, {}, 200);
      const c = await postLoad(t.app, shipper.headers);
      const rj = await post<{ id: string }>(t, '/offers', carrier, { loadId: c.id, priceSar: '2100' });
      await post(t, '/offerRespond', shipper, { offerId: rj.id, action: 'reject' }, 200);

      // 3. a light truck (no Bayan): completed after the proof of drop
      const d = await bookedLoad(t, shipper, carrier);
      const van = await truckOf(t, carrier, { weightKg: 3000, wasl: false });
      await assign(t, d.id, carrier, van);
      await drive(d.id, van, d);
      await post(t, `/delivery-tracking/${d.id}/complete`, carrier, {}, 200);

      // 4. a Bayan cancelled; 5. a booked load cancelled by its shipper
      const e = await bookedLoad(t, shipper, carrier);
      const truck2 = await truckOf(t, carrier);
      await assign(t, e.id, carrier, truck2);
      const trip2 = await post<{ id: string }>(t, '/bayan/trips', carrier, { loadId: e.id });
      await post(t, `/bayan/trips/${trip2.id}/cancel`, carrier, { reason: 'damage' }, 200);
      const f = await bookedLoad(t, shipper, carrier);
      expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/loads/${f.id}`, headers: shipper.headers })).statusCode).toBe(200);

      const loads = [a.id, b.id, c.id, d.id, e.id, f.id];
      const published = new Map<string, { id: string; type: string }[]>();
      for (const id of loads)
        published.set(
          id,
          (await outboxOf(id)).filter((x) => (SHIPMENT_EVENTS as readonly string[]).includes(x.type)),
        );
      const expected = [...published.values()].flat().length;
      // each side receives every event of the shipments it is a party of (both are, of all of these)
      await expect.poll(() => rx.got.length, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(2 * expected);

      const bySide = new Map<string, { id: string; type: DomainEventType; loadId: string; data: Record<string, unknown> }[]>();
      for (const who of [shipper, carrier]) {
        const wh = new Webhook(secrets[who.id]);
        const mine = rx.got.filter((g) => verifySignature(secrets[who.id], g.body, g.headers['masar-signature']));
        // Standard Webhooks: the reference library verifies every delivery (and throws otherwise)
        for (const g of mine) {
          const p = wh.verify(g.body, {
            'webhook-id': g.headers['webhook-id'],
            'webhook-timestamp': g.headers['webhook-timestamp'],
            'webhook-signature': g.headers['webhook-signature'],
          });
          expect(p).toEqual(JSON.parse(g.body));
        }
        bySide.set(
          who.id,
          mine.map((g) => JSON.parse(g.body)),
        );
      }
      for (const who of [shipper, carrier]) {
        const got = bySide.get(who.id)!;
        for (const p of got) {
          expect(p.id).toBeTruthy();
          const parsed = DOMAIN_EVENTS[p.type].schema.safeParse(p.data);
          expect(parsed.success, `${p.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
          expect(p.data).toMatchObject({ shipperId: shipper.id, carrierId: carrier.id, loadId: p.loadId });
        }
        // in publish order per load, each event once
        for (const id of loads)
          expect(
            got.filter((p) => p.loadId === id).map((p) => p.id),
            `load ${id} for ${who.id === shipper.id ? 'shipper' : 'carrier'}`,
          ).toEqual(published.get(id)!.map((x) => x.id));
        // every shipment event type reached this side
        expect(new Set(got.map((p) => p.type))).toEqual(new Set(SHIPMENT_EVENTS));
      }
    } finally {
      await rx.stop();
    }
  });
});
