import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, TRIP_STEPS, type AccountRecord, type CreateTruckBody, type Load, type Offer, type Truck, type TruckPage } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { apiCaller, createUser, multipart, PNG_1X1, type TestUser } from './fixtures.ts';
import { assign, bookedLoad, readyVehicle } from '../src/modules/assignment/assignment.testkit.ts';
import { CITY, inDays, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { accountRecordHandler as recordHandlerOf } from '../src/modules/records/records.service.ts';
import { deliveryWindowEnd, pickupWindowEnd } from '../src/lib/stop-windows.ts';
import { loadStopWindows } from '../src/modules/loads/loads.service.ts';
import type { OutboxEvent } from '../src/modules/events/events.service.ts';
import { outboxEvents, redeliver } from './outbox.ts';

// the handler as the container wires it: the stop windows through the loads module
const accountRecordHandler = recordHandlerOf({ loadStopWindows });

/**
 * Issue 19 "Fact-based record" (docs/account-record.md): shipments driven through the lifecycle
 * over HTTP (booked → assigned a light truck → the driver's every step → completed); the record
 * is counted by the outbox handler from the events, shown from 5 completed shipments, counts a
 * redelivered event once, and the backfill rebuilds it from the outbox.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let other: TestUser;
const { call, ok } = apiCaller(() => t);

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: 'Record Haulage' });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const drain = () => t.app.container.services.events.drainAll();
const recordOf = async (id: string, who = shipper) => ok(await call<AccountRecord>('GET', `/accounts/${id}/record`, who.headers));
const counters = async (id: string) =>
  (await t.database.query<Record<string, number>>(`select * from account_records where account_id = $1`, [id])).map(({ updated_at: _u, ...r }) => r)[0];

/**
 * One shipment of `shipper` carried by `carrier` to completion: booked, a truck under 3.5 t
 * (no Bayan) assigned, the driver walks every step with both proofs, the carrier completes it.
 * `late`: the stop dates are moved into the past first (a fixture, as readyVehicle sets WASL),
 * so the driver's arrival at that stop is after its window.
 */
async function completedShipment(opts: { late?: 'pickup' | 'both'; wasl?: boolean } = {}): Promise<Load> {
  const load = await bookedLoad(t.app, shipper.headers, carrier.headers);
  const v = await readyVehicle(t.app, carrier.headers, { weightKg: 3000 }, opts.wasl === false ? null : 'verified');
  const a = await assign(t.app, carrier.headers, load.id, v.vehicleId);
  expect(a.statusCode, a.body).toBe(200);
  if (opts.late === 'pickup') await t.database.query(`update loads set pickup_at = now() - interval '2 days' where id = $1`, [load.id]);
  if (opts.late === 'both')
    await t.database.query(`update loads set pickup_at = now() - interval '4 days', drop_at = now() - interval '2 days' where id = $1`, [load.id]);

  const link = ok(await call<{ token: string }>('GET', `/drivers/${v.driverId}/link`, carrier.headers));
  const session = ok(
    await call<{ sessionToken: string }>(
      'POST',
      '/driver/trip/session',
      {},
      { token: link.token, phone: v.driver.phone, licenceNumber: v.driver.licenceNumber },
    ),
  );
  const trip = { 'x-trip-token': session.sessionToken };
  const [pickup, drop] = [load.stops[0], load.stops[load.stops.length - 1]];
  for (const step of TRIP_STEPS) {
    if (step === 'pickup_proof' || step === 'drop_proof') {
      const at = step === 'pickup_proof' ? pickup : drop;
      const m = multipart({ loadId: load.id, stop: step === 'pickup_proof' ? 'pickup' : 'drop', lat: at.lat, lng: at.lng }, { name: 'p.png', data: PNG_1X1 });
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/v1/driver/trip/proofs',
        headers: { ...trip, 'content-type': m.contentType },
        payload: m.payload,
      });
      expect(r.statusCode, r.body).toBe(201);
    } else {
      const at = ['started', 'to_pickup', 'at_pickup'].includes(step) ? pickup : drop;
      ok(await call('POST', '/driver/trip/steps', trip, { loadId: load.id, step, lat: at.lat, lng: at.lng }), 201);
    }
  }
  ok(await call('POST', `/delivery-tracking/${load.id}/complete`, carrier.headers));
  return load;
}

describe('the on-time rule (docs/account-record.md)', () => {
  const d = (s: string) => new Date(s);
  it('pickup: by the latest pickup time, else the closing hour, else the end of the pickup day (Riyadh)', () => {
    const base = { pickupAt: d('2026-03-10T06:00:00Z'), dropAt: d('2026-03-12T06:00:00Z'), dropHoursTo: null };
    expect(pickupWindowEnd({ ...base, pickupLatestAt: d('2026-03-11T10:00:00Z'), pickupHoursTo: '17:00' }).toISOString()).toBe('2026-03-11T10:00:00.000Z');
    // 17:00 Riyadh = 14:00 UTC
    expect(pickupWindowEnd({ ...base, pickupLatestAt: null, pickupHoursTo: '17:00' }).toISOString()).toBe('2026-03-10T14:00:00.000Z');
    // end of 10 March in Riyadh = 10 March 21:00 UTC
    expect(pickupWindowEnd({ ...base, pickupLatestAt: null, pickupHoursTo: null }).toISOString()).toBe('2026-03-10T21:00:00.000Z');
    // 22:30 UTC is already 11 March in Riyadh: its day ends 11 March 21:00 UTC
    expect(pickupWindowEnd({ ...base, pickupAt: d('2026-03-10T22:30:00Z'), pickupLatestAt: null, pickupHoursTo: null }).toISOString()).toBe(
      '2026-03-11T21:00:00.000Z',
    );
  });
  it('delivery: the closing hour of the drop day, else its end; never before the drop time', () => {
    const base = { pickupAt: d('2026-03-10T06:00:00Z'), pickupLatestAt: null, pickupHoursTo: null };
    expect(deliveryWindowEnd({ ...base, dropAt: d('2026-03-12T06:00:00Z'), dropHoursTo: '16:00' }).toISOString()).toBe('2026-03-12T13:00:00.000Z');
    expect(deliveryWindowEnd({ ...base, dropAt: d('2026-03-12T15:00:00Z'), dropHoursTo: '16:00' }).toISOString()).toBe('2026-03-12T15:00:00.000Z');
    expect(deliveryWindowEnd({ ...base, dropAt: d('2026-03-12T06:00:00Z'), dropHoursTo: null }).toISOString()).toBe('2026-03-12T21:00:00.000Z');
  });
});

describe('the fact-based record from shipment events (issue 19)', () => {
  it('is "new on Masar" below 5 completed shipments and shows the figures from the 5th', async () => {
    expect(await recordOf(carrier.id)).toEqual({ accountId: carrier.id, newOnMasar: true, asCarrier: null, asShipper: null });
    await completedShipment();
    await completedShipment({ late: 'pickup' });
    await completedShipment({ late: 'both', wasl: false });
    await completedShipment({ wasl: false });
    await drain();
    const four = await recordOf(carrier.id);
    expect(four).toMatchObject({ newOnMasar: true, asCarrier: null });
    expect(await counters(carrier.id)).toMatchObject({ carrier_completed: 4, pickups_measured: 4, pickups_on_time: 2, deliveries_on_time: 3 });

    await completedShipment();
    await drain();
    const rec = await recordOf(carrier.id);
    expect(rec.newOnMasar).toBe(false);
    // 5 vehicles, 3 WASL verified; pickups 3 of 5 on time, deliveries 4 of 5
    expect(rec.asCarrier).toEqual({
      completed: 5,
      onTimePickupPct: 60,
      pickupsMeasured: 5,
      onTimeDeliveryPct: 80,
      deliveriesMeasured: 5,
      cancellationsAfterBooking: 0,
      vehicles: 5,
      waslVerifiedVehicles: 3,
      waslVerifiedPct: 60,
    });
    expect(rec.asShipper).toBeNull();
    // the shipper side: 5 completed too; days-to-pay as the trips module measures it
    const s = await recordOf(shipper.id, carrier);
    expect(s).toMatchObject({
      newOnMasar: false,
      asCarrier: null,
      asShipper: { completed: 5, daysToPay: null, paidShipments: 0, cancellationsAfterBooking: 0 },
    });
  });

  it('counts a redelivered event once', async () => {
    const before = await counters(carrier.id);
    const rows = await outboxEvents(
      t,
      `select * from outbox_events where type in ('load.completed', 'trip.step', 'load.booked') and data->>'carrierId' = $1 order by seq`,
      [carrier.id],
    );
    expect(rows.length).toBeGreaterThan(10);
    // the handler gets every one of them again (a drainer killed before its commit hands them over again)
    await redeliver(t, accountRecordHandler, rows);
    expect(await counters(carrier.id)).toEqual(before);
  });

  it('the backfill rebuilds the records from the outbox, and running it again changes nothing', async () => {
    const carrierBefore = await counters(carrier.id);
    const shipperBefore = await counters(shipper.id);
    const records = t.app.container.services.records;
    // already counted by the handler: the backfill skips every event
    expect(await records.backfill()).toBe(0);
    // a database whose history predates the handler: no records, no deliveries to it
    await t.database.query(`delete from account_records`);
    await t.database.query(`delete from account_record_loads`);
    await t.database.query(`delete from outbox_deliveries where handler = 'account-record'`);
    expect(await records.backfill(7)).toBeGreaterThan(20);
    expect(await counters(carrier.id)).toEqual(carrierBefore);
    expect(await counters(shipper.id)).toEqual(shipperBefore);
    expect(await records.backfill()).toBe(0);
    // the events the handler took are marked, so the drain does not hand them over again
    await drain();
    expect(await counters(carrier.id)).toEqual(carrierBefore);
  });

  it('counts a cancellation after booking against the shipper that cancelled, not one before booking', async () => {
    const booked = await bookedLoad(t.app, shipper.headers, carrier.headers);
    ok(await call('DELETE', `/loads/${booked.id}`, shipper.headers));
    const open = await postLoad(t.app, shipper.headers);
    ok(await call('DELETE', `/loads/${open.id}`, shipper.headers));
    await drain();
    await drain();
    expect((await recordOf(shipper.id, carrier)).asShipper).toMatchObject({ cancellationsAfterBooking: 1 });
    expect((await recordOf(carrier.id)).asCarrier).toMatchObject({ cancellationsAfterBooking: 0, completed: 5 });
    expect(await counters(shipper.id)).toMatchObject({ shipper_cancellations: 1, shipper_completed: 5 });
  });

  it('shows the carrier’s record on its trucks (search and details) and on its offers to the shipper', async () => {
    const body: CreateTruckBody = {
      loadType: 'FTL',
      equipmentType: 'flatbed_trailer',
      availableFrom: inDays(3),
      availableTo: inDays(5),
      originCityId: CITY.riyadh,
      anywhere: true,
      minRateSar: '2500',
      rateBasis: 'trip',
      capacityKg: 25_000,
    };
    const truck = ok(await call<Truck>('POST', '/truck', carrier.headers, body), 201);
    const details = ok(await call<Truck>('GET', `/truck/${truck.id}`, shipper.headers));
    expect(details.record).toMatchObject({ accountId: carrier.id, newOnMasar: false, asCarrier: { completed: 5, onTimePickupPct: 60 } });
    const page = ok(await call<TruckPage>('GET', `/searchTrucks?originCityId=${CITY.riyadh}&date=${encodeURIComponent(inDays(3, 1))}`, shipper.headers));
    const found = page.items.find((i) => i.id === truck.id);
    expect(found?.record?.asCarrier?.completed).toBe(5);
    const otherTruck = ok(await call<Truck>('POST', '/truck', other.headers, body), 201);
    expect(ok(await call<Truck>('GET', `/truck/${otherTruck.id}`, shipper.headers)).record).toEqual({
      accountId: other.id,
      newOnMasar: true,
      asCarrier: null,
      asShipper: null,
    });

    const load = await postLoad(t.app, shipper.headers);
    ok(await call('POST', '/offers', carrier.headers, { loadId: load.id, priceSar: '2700' }), 201);
    ok(await call('POST', '/offers', other.headers, { loadId: load.id, priceSar: '2600' }), 201);
    const offers = ok(await call<{ items: Offer[] }>('GET', `/offers?loadId=${load.id}`, shipper.headers)).items;
    expect(offers.find((o) => o.carrierId === carrier.id)?.carrierRecord?.asCarrier?.completed).toBe(5);
    expect(offers.find((o) => o.carrierId === other.id)?.carrierRecord?.newOnMasar).toBe(true);
    // the bidder's own list carries no record (it is for the shipper choosing)
    const mine = ok(await call<{ items: Offer[] }>('GET', `/offers?loadId=${load.id}`, carrier.headers)).items;
    expect(mine.every((o) => o.carrierRecord === undefined)).toBe(true);
  });

  it('answers 404 for an unknown account', async () => {
    expect((await call('GET', '/accounts/00000000-0000-4000-8000-000000000000/record', shipper.headers)).status).toBe(404);
  });
});

describe('who cancelled a booked shipment (load.bayan_cancelled)', () => {
  /** A Bayan cancellation of a booked shipment as the handler receives it (its actor decides who cancelled). */
  const bayanCancelled = (load: Load, actorId: string): OutboxEvent => ({
    id: crypto.randomUUID(),
    seq: 0,
    type: 'load.bayan_cancelled',
    aggregateType: 'load',
    aggregateId: load.id,
    actorId,
    data: {
      loadId: load.id,
      referenceId: load.referenceId,
      shipperId: shipper.id,
      carrierId: other.id,
      status: { from: 'assigned', to: 'cancelled' },
      tripId: null,
      waybillNumber: null,
      reason: 'damage',
    },
    createdAt: new Date(),
  });

  it('counts it against the carrier when the carrier cancelled, against the shipper when the shipper did, once', async () => {
    const before = { carrier: (await counters(other.id))?.carrier_cancellations ?? 0, shipper: (await counters(shipper.id)).shipper_cancellations };
    const a = await bookedLoad(t.app, shipper.headers, other.headers);
    const b = await bookedLoad(t.app, shipper.headers, other.headers);
    await t.database.db.transaction(async (tx) => {
      await accountRecordHandler.handle(tx, bayanCancelled(a, other.id));
      await accountRecordHandler.handle(tx, bayanCancelled(a, other.id));
      await accountRecordHandler.handle(tx, bayanCancelled(b, shipper.id));
    });
    expect((await counters(other.id)).carrier_cancellations).toBe(before.carrier + 1);
    expect((await counters(shipper.id)).shipper_cancellations).toBe(before.shipper + 1);
  });
});
