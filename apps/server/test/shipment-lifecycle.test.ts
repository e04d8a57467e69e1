import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, TRIP_STEPS, type BayanTripView, type DriverJobs, type Load, type LoadTimelineEntry } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, multipart, PNG_1X1, type TestUser } from './fixtures.ts';
import { assign, bookedLoad, post, truckOf } from '../src/modules/bayan/bayan.testkit.ts';

/**
 * Issue 7, the whole path one real shipment walks, through the HTTP API only: booked → the
 * carrier assigns a 26 t truck (WASL verified) → Bayan trip and waybill → the driver opens the
 * job link, identifies with phone + licence and walks every step with a proof photo at pickup
 * and drop → the carrier closes the Bayan → completed → payment received → the shipper's
 * average days-to-pay. Every status change is on the shipment's timeline, in order, with who.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const PNG = PNG_1X1;

const get = async <T>(url: string, headers: Record<string, string>) => {
  const r = await t.app.inject({ url: `/api/v1${url}`, headers });
  expect(r.statusCode, `${url}: ${r.body}`).toBe(200);
  return r.json<{ data: T }>().data;
};

describe('a shipment from booking to completed (issue 7)', () => {
  it('walks booking, assignment, Bayan, the driver’s trip with proofs, Bayan closed, payment received', async () => {
    const load = await bookedLoad(t, shipper, carrier);
    const [pickup, drop] = [load.stops[0], load.stops[load.stops.length - 1]];
    const truck = await truckOf(t, carrier);
    await assign(t, load.id, carrier, truck);
    expect((await get<Load>(`/loads/${load.id}`, carrier.headers)).options).toEqual(expect.arrayContaining(['create_bayan', 'unassign', 'track']));

    const trip = await post<BayanTripView>(t, '/bayan/trips', carrier, { loadId: load.id });
    expect(trip).toMatchObject({ status: 'active', vehicleId: truck.vehicle.id, driverId: truck.driver.id });
    expect(trip.waybillNumber).toMatch(/^[A-Z0-9]{6}$/);
    const withBayan = await get<Load>(`/loads/${load.id}`, carrier.headers);
    // delivery first (issue 22): the carrier may close the Bayan only after the driver's proof of drop
    expect(withBayan.options).toContain('cancel_bayan');
    expect(withBayan.options).not.toContain('close_bayan');
    expect(withBayan.options).not.toContain('unassign');
    const early = await t.app.inject({
      method: 'POST',
      url: `/api/v1/bayan/trips/${trip.id}/close`,
      headers: carrier.headers,
      payload: { deliveredAt: new Date().toISOString() },
    });
    expect(early.json().code).toBe('NOT_DELIVERED');

    // the driver: job link → phone + licence → every step, proofs taken at their stops
    const driver = await get<{ phone: string; licenceNumber: string }>(`/drivers/${truck.driver.id}`, carrier.headers);
    const link = await get<{ token: string }>(`/drivers/${truck.driver.id}/link`, carrier.headers);
    const anonymous = { headers: {} } as TestUser;
    const session = await post<{ sessionToken: string }>(
      t,
      '/driver/trip/session',
      anonymous,
      { token: link.token, phone: driver.phone, licenceNumber: driver.licenceNumber },
      200,
    );
    const trip$ = { 'x-trip-token': session.sessionToken };
    for (const step of TRIP_STEPS) {
      if (step === 'pickup_proof' || step === 'drop_proof') {
        const at = step === 'pickup_proof' ? pickup : drop;
        const m = multipart({ loadId: load.id, stop: step === 'pickup_proof' ? 'pickup' : 'drop', lat: at.lat, lng: at.lng }, { name: 'proof.png', data: PNG });
        const r = await t.app.inject({
          method: 'POST',
          url: '/api/v1/driver/trip/proofs',
          headers: { ...trip$, 'content-type': m.contentType },
          payload: m.payload,
        });
        expect(r.statusCode, r.body).toBe(201);
        expect(r.json().data.flagged).toBe(false);
      } else {
        const at = ['started', 'to_pickup', 'at_pickup'].includes(step) ? pickup : drop;
        const r = await t.app.inject({
          method: 'POST',
          url: '/api/v1/driver/trip/steps',
          headers: trip$,
          payload: { loadId: load.id, step, lat: at.lat, lng: at.lng },
        });
        expect(r.statusCode, `${step}: ${r.body}`).toBe(201);
      }
    }
    const job = (await get<DriverJobs>('/driver/trip', trip$)).items.find((j) => j.loadId === load.id)!;
    expect(job.steps.map((s) => s.step)).toEqual([...TRIP_STEPS]);

    // a 26 t truck: the shipment completes only by closing its Bayan (not by "complete")
    const complete = await t.app.inject({ method: 'POST', url: `/api/v1/delivery-tracking/${load.id}/complete`, headers: carrier.headers });
    expect(complete.json().code).toBe('BAYAN_REQUIRED');
    expect((await get<Load>(`/loads/${load.id}`, carrier.headers)).options).toContain('close_bayan');
    await post(t, `/bayan/trips/${trip.id}/close`, carrier, { deliveredAt: new Date().toISOString() }, 200);
    const done = await get<Load>(`/loads/${load.id}`, shipper.headers);
    expect(done.status).toBe('completed');
    expect((await get<Load>(`/loads/${load.id}`, carrier.headers)).options).toContain('payment_received');

    await post(t, `/loads/${load.id}/payment-received`, carrier, {}, 200);
    const dtp = await get<{ averageDays: number | null; count: number }>(`/shippers/${shipper.id}/days-to-pay`, carrier.headers);
    expect(dtp.count).toBe(1);
    expect(dtp.averageDays).toBeGreaterThanOrEqual(0);

    // the timeline: every transition in order, with who did it
    await t.app.container.services.events.drainAll();
    const types = async () =>
      (await get<{ items: LoadTimelineEntry[] }>(`/loads/${load.id}/timeline`, shipper.headers)).items.map((e) => e.type).filter((x) => x !== 'trip.step');
    await expect.poll(types, { timeout: 15_000 }).toContain('load.payment_received');
    const order = await types();
    const idx = (type: string) => (order as string[]).indexOf(type);
    for (const [a, b] of [
      ['load.posted', 'load.booked'],
      ['load.booked', 'load.assigned'],
      ['load.assigned', 'load.bayan_created'],
      ['load.bayan_created', 'load.bayan_closed'],
      ['load.bayan_closed', 'load.payment_received'],
    ])
      expect(idx(a), `${a} before ${b} in ${order.join(', ')}`).toBeLessThan(idx(b));
    const timeline = (await get<{ items: LoadTimelineEntry[] }>(`/loads/${load.id}/timeline`, shipper.headers)).items;
    expect(timeline.find((e) => e.type === 'load.assigned')?.actorId).toBe(carrier.id);
    expect(timeline.filter((e) => e.type === 'trip.step').length).toBeGreaterThanOrEqual(6);

    // the truck is free for the next job once the shipment ended
    await expect
      .poll(async () => (await get<{ availability: string }>(`/vehicles/${truck.vehicle.id}`, carrier.headers)).availability, { timeout: 15_000 })
      .toBe('free');
  });
});
