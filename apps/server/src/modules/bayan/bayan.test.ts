import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type BayanTripView, type Load, type LoadBayan, type LoadTimelineEntry } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser, type TestUser } from '../../../test/fixtures.ts';
import type { BayanSandbox } from '../../gateways/bayan/sandbox.ts';
import { loadLifecycle } from '../loads/loads.service.ts';
import { bayanOfLoads } from './bayan.service.ts';
import { assign, assignDirect, bookedLoad, loadStatus, post, truckOf } from './bayan.testkit.ts';

/**
 * Bayan on a booked, assigned shipment (issue 7): creation with the assigned truck, the 3.5 t
 * rule, the plate/driver mismatch refusal, WASL, Bayan down → pending_bayan → retry job, close →
 * completed, cancel with a reason → cancelled. The job worker is off: the test runs the retry.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let otherCarrier: TestUser;
let sandbox: BayanSandbox;

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  otherCarrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  sandbox = t.app.container.gateways.bayan as BayanSandbox;
});
afterAll(() => t?.close());

const createBayan = (who: TestUser, body: object, lang = 'en', key?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/bayan/trips',
    headers: { ...who.headers, language: lang, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
const bayanOf = async (who: TestUser, loadId: string) =>
  (await t.app.inject({ url: `/api/v1/bayan/trips?loadId=${loadId}`, headers: who.headers })).json<{ data: LoadBayan }>().data.bayan;

async function assignedLoad(opts: Parameters<typeof truckOf>[2] = {}, direct = false) {
  const load = await bookedLoad(t, shipper, carrier);
  const truck = await truckOf(t, carrier, opts);
  if (direct) await assignDirect(t, load.id, carrier.id, truck);
  else await assign(t, load.id, carrier, truck);
  return { load, truck };
}

describe('create Bayan', () => {
  it('files the assigned truck and driver: trip id and waybill number stored and shown on the shipment', async () => {
    const { load, truck } = await assignedLoad();
    expect(await bayanOf(shipper, load.id)).toBeNull();
    const res = await createBayan(carrier, { loadId: load.id, vehicleId: truck.vehicle.id, driverId: truck.driver.id }, 'en', 'bayan-create-1');
    expect(res.statusCode, res.body).toBe(201);
    const trip = res.json<{ data: BayanTripView }>().data;
    expect(trip).toMatchObject({
      status: 'active',
      loadId: load.id,
      loadReferenceId: load.referenceId,
      vehicleId: truck.vehicle.id,
      driverId: truck.driver.id,
    });
    expect(trip.tripId).toMatch(/^\d{9}$/);
    expect(trip.waybillNumber).toMatch(/^[A-Z0-9]{6}$/);
    // the same Idempotency-Key replays the answer and files nothing twice
    const again = await createBayan(carrier, { loadId: load.id, vehicleId: truck.vehicle.id, driverId: truck.driver.id }, 'en', 'bayan-create-1');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<{ data: BayanTripView }>().data.tripId).toBe(trip.tripId);
    // a second Bayan for the shipment is refused
    expect((await createBayan(carrier, { loadId: load.id })).json()).toMatchObject({ code: 'BAYAN_EXISTS' });

    // the shipper sees it on the shipment; the sandbox service holds the trip with our plate and driver
    expect(await bayanOf(shipper, load.id)).toEqual({ id: trip.id, tripId: trip.tripId, waybillNumber: trip.waybillNumber, status: 'active' });
    const filed = await sandbox.getTrip(trip.tripId!);
    expect(filed?.vehicle.vehiclePlate.number).toBe(truck.vehicle.plate.digits);
    expect(filed?.vehicle.vehiclePlate.leftLetter).toBe(truck.vehicle.plate.left);
    expect(filed?.driver.identityNumber).toBe(truck.driver.driverIdNumber);
    expect(await loadStatus(t, shipper, load.id)).toBe('assigned');
    // what the loads module reads for More Options (hasBayan)
    const other = await bookedLoad(t, shipper, carrier);
    const live = await bayanOfLoads.liveStatus(t.database.db, [load.id, other.id]);
    expect([...live]).toEqual([[load.id, 'active']]);

    // a stranger does not see it
    expect((await t.app.inject({ url: `/api/v1/bayan/trips?loadId=${load.id}`, headers: otherCarrier.headers })).statusCode).toBe(404);

    // listed for both parties, filtered by reference and status; the PDF prints
    const list = await t.app.inject({ url: `/api/v1/bayan/list?reference=${load.referenceId}`, headers: shipper.headers });
    expect(list.json<{ data: { items: BayanTripView[] } }>().data.items.map((x) => x.id)).toEqual([trip.id]);
    const none = await t.app.inject({ url: `/api/v1/bayan/list?status=closed&reference=${load.referenceId}`, headers: carrier.headers });
    expect(none.json<{ data: { items: BayanTripView[] } }>().data.items).toEqual([]);
    const pdf = await t.app.inject({ url: `/api/v1/bayan/trips/${trip.id}/print`, headers: carrier.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('pages my trips by cursor without losing trips created in the same millisecond', async () => {
    for (let i = 0; i < 3; i++) {
      const { load } = await assignedLoad();
      expect((await createBayan(carrier, { loadId: load.id })).statusCode).toBe(201);
    }
    // every trip of the carrier in one millisecond, apart by microseconds (as a busy server writes them)
    await t.database.db.execute(
      sql`update bayan_trips set created_at = '2026-11-01 08:00:00.123000+00'::timestamptz + (random() * 900)::int * interval '1 microsecond' where carrier_id = ${carrier.id}`,
    );
    const list = async (who: TestUser, q: string) =>
      (await t.app.inject({ url: `/api/v1/bayan/list?${q}`, headers: who.headers })).json<{ data: { items: BayanTripView[]; nextCursor: string | null } }>()
        .data;
    for (const who of [carrier, shipper]) {
      const all = (await list(who, 'limit=100')).items.map((x) => x.id);
      expect(all.length).toBeGreaterThanOrEqual(3);
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(who, `limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        paged.push(...page.items.map((x) => x.id));
        cursor = page.nextCursor;
      } while (cursor && paged.length <= all.length);
      expect(paged).toEqual(all);
    }
    // a cursor of another list is refused, not sent to SQL
    const bad = await t.app.inject({
      url: `/api/v1/bayan/list?cursor=${Buffer.from('["board:newest",["x"],"y"]').toString('base64url')}`,
      headers: carrier.headers,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a vehicle under 3.5 tons (en + ar)', async () => {
    const { load } = await assignedLoad({ weightKg: 3000 });
    const en = await createBayan(carrier, { loadId: load.id });
    expect(en.statusCode).toBe(422);
    expect(en.json()).toMatchObject({ code: 'BAYAN_UNDER_MIN_WEIGHT', message: 'Bayan creation not allowed under 3.5 tons.' });
    const ar = await createBayan(carrier, { loadId: load.id }, 'ar');
    expect(ar.json()).toMatchObject({ code: 'BAYAN_UNDER_MIN_WEIGHT', message: 'لا يُسمح بإنشاء بيان لمركبة وزنها أقل من ٣٫٥ طن.' });
    expect(await bayanOf(shipper, load.id)).toBeNull();
  });

  it('refuses a plate or driver that is not the one assigned from the awarded carrier’s fleet', async () => {
    const { load, truck } = await assignedLoad();
    const spare = await truckOf(t, carrier);
    const wrongVehicle = await createBayan(carrier, { loadId: load.id, vehicleId: spare.vehicle.id, driverId: truck.driver.id });
    expect(wrongVehicle.statusCode).toBe(409);
    expect(wrongVehicle.json()).toMatchObject({ code: 'BAYAN_ASSIGNMENT_MISMATCH' });
    expect((await createBayan(carrier, { loadId: load.id, driverId: spare.driver.id })).json()).toMatchObject({ code: 'BAYAN_ASSIGNMENT_MISMATCH' });

    // a load "assigned" a truck of another carrier's fleet (double brokering) is refused
    const brokered = await bookedLoad(t, shipper, carrier);
    const foreign = await truckOf(t, otherCarrier);
    await assignDirect(t, brokered.id, carrier.id, foreign);
    expect((await createBayan(carrier, { loadId: brokered.id })).json()).toMatchObject({ code: 'BAYAN_ASSIGNMENT_MISMATCH' });
    // only the awarded carrier files it
    expect((await createBayan(otherCarrier, { loadId: load.id })).statusCode).toBe(404);
    expect((await createBayan(shipper, { loadId: load.id })).json()).toMatchObject({ code: 'FORBIDDEN' });
    expect(await bayanOf(shipper, load.id)).toBeNull();
  });

  it('refuses a vehicle or driver not verified with WASL', async () => {
    // the assignment API refuses an unverified 3.5 t+ vehicle; Bayan checks again on its own
    const { load, truck } = await assignedLoad({ wasl: false }, true);
    expect(truck.vehicle.waslStatus).toBe('not_submitted');
    expect((await createBayan(carrier, { loadId: load.id })).json()).toMatchObject({ code: 'WASL_NOT_VERIFIED' });
    await post(t, `/vehicles/${truck.vehicle.id}/wasl`, carrier, undefined, 200);
    // the sandbox does not find identity numbers ending in 000: not verified, with its reason
    await t.app.inject({ method: 'PATCH', url: `/api/v1/drivers/${truck.driver.id}`, headers: carrier.headers, payload: { driverIdNumber: '1234567000' } });
    const d = await post<{ waslStatus: string; reasons: string[] }>(t, `/drivers/${truck.driver.id}/wasl`, carrier, undefined, 200);
    expect(d).toMatchObject({ waslStatus: 'not_verified', reasons: ['DRIVER_NOT_FOUND'] });
    expect((await createBayan(carrier, { loadId: load.id })).json()).toMatchObject({ code: 'WASL_NOT_VERIFIED' });

    // fleet lists show and filter the drivers' WASL status
    const ids = async (url: string) =>
      (await t.app.inject({ url: `/api/v1${url}`, headers: carrier.headers })).json<{ data: { items: { id: string }[] } }>().data.items.map((x) => x.id);
    expect(await ids('/drivers?wasl=not_verified&limit=100')).toEqual([truck.driver.id]);
    expect(await ids('/fleet?tab=1&wasl=not_verified&limit=100')).toEqual([truck.driver.id]);
    expect(await ids('/drivers?wasl=verified&limit=100')).not.toContain(truck.driver.id);
    const drv = await t.app.inject({ url: `/api/v1/drivers/${truck.driver.id}`, headers: carrier.headers });
    expect(drv.json().data).toMatchObject({ waslStatus: 'not_verified', waslReasons: ['DRIVER_NOT_FOUND'] });
  });

  it('registers a light vehicle as "WASL not required" without asking WASL', async () => {
    const { vehicle } = await truckOf(t, carrier, { weightKg: 3000, wasl: false });
    expect(vehicle.waslStatus).toBe('not_required');
    const r = await post<{ waslStatus: string }>(t, `/vehicles/${vehicle.id}/wasl`, carrier, undefined, 200);
    expect(r.waslStatus).toBe('not_required');
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/vehicles/${vehicle.id}/wasl`, headers: otherCarrier.headers })).statusCode).toBe(404);
  });
});

describe('Bayan down, retry, close and cancel', () => {
  it('waits in pending_bayan while Bayan is down; the retry job creates it and the shipment is assigned again', async () => {
    const { load } = await assignedLoad();
    sandbox.control.fail = true;
    let res;
    try {
      res = await createBayan(carrier, { loadId: load.id });
    } finally {
      sandbox.control.fail = false;
    }
    expect(res.statusCode, res.body).toBe(202);
    const pending = res.json<{ data: BayanTripView }>().data;
    expect(pending).toMatchObject({ status: 'pending', tripId: null, waybillNumber: null, attempts: 1 });
    expect(await loadStatus(t, shipper, load.id)).toBe('pending_bayan');
    expect(await bayanOf(carrier, load.id)).toMatchObject({ status: 'pending', waybillNumber: null });

    // still down: the job fails (pg-boss retries it later) and nothing changes
    sandbox.control.failNext = 1;
    await expect(t.app.container.services.bayan.retryPending(pending.id)).rejects.toThrow(/unavailable/);
    expect(await loadStatus(t, shipper, load.id)).toBe('pending_bayan');

    // back up: the job files it, records the ids and moves the shipment back to assigned
    expect(await t.app.container.services.bayan.retryPending(pending.id)).toBe('created');
    expect(await t.app.container.services.bayan.retryPending(pending.id)).toBe('skipped');
    expect(await loadStatus(t, shipper, load.id)).toBe('assigned');
    const b = await bayanOf(shipper, load.id);
    expect(b).toMatchObject({ id: pending.id, status: 'active' });
    expect(b?.waybillNumber).toMatch(/^[A-Z0-9]{6}$/);
  });

  it('a slow Bayan counts as down after BAYAN_TIMEOUT_MS', async () => {
    const slow = await createTestApp({ JOBS: false, BAYAN_TIMEOUT_MS: 100 });
    try {
      const s = await createUser(slow, { accountType: ACCOUNT_TYPE.shipper });
      const c = await createUser(slow, { accountType: ACCOUNT_TYPE.carrier });
      const load = await bookedLoad(slow, s, c);
      const truck = await truckOf(slow, c);
      await assign(slow, load.id, c, truck);
      (slow.app.container.gateways.bayan as BayanSandbox).control.delayMs = 400;
      const res = await slow.app.inject({ method: 'POST', url: '/api/v1/bayan/trips', headers: c.headers, payload: { loadId: load.id } });
      expect(res.statusCode, res.body).toBe(202);
      expect(await loadStatus(slow, s, load.id)).toBe('pending_bayan');
    } finally {
      await slow.close();
    }
  });

  it('closing the Bayan needs the driver’s proof of delivery (refused before, in en and ar), then completes the shipment', async () => {
    const { load } = await assignedLoad();
    const trip = await post<BayanTripView>(t, '/bayan/trips', carrier, { loadId: load.id });
    const deliveredAt = new Date().toISOString();
    const close = (who: TestUser, payload: object, lang = 'en') =>
      t.app.inject({ method: 'POST', url: `/api/v1/bayan/trips/${trip.id}/close`, headers: { ...who.headers, language: lang }, payload });
    const early = await close(carrier, { deliveredAt });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'NOT_DELIVERED', message: 'The driver has not completed the job yet (proof of drop).' });
    expect((await close(shipper, { deliveredAt }, 'ar')).json()).toMatchObject({
      code: 'NOT_DELIVERED',
      message: 'لم يُكمل السائق المهمة بعد (إثبات التسليم).',
    });
    expect(await loadStatus(t, shipper, load.id)).toBe('assigned');
    expect((await sandbox.getTrip(trip.tripId!))?.waybills[0]).toMatchObject({ status: 'active' });
    // the shipper is offered "close Bayan" (with the override dialog); the carrier only after delivery
    const options = async (who: TestUser) =>
      (await t.app.inject({ url: `/api/v1/loads/${load.id}`, headers: who.headers })).json<{ data: Load }>().data.options;
    expect(await options(carrier)).not.toContain('close_bayan');
    expect(await options(shipper)).toContain('close_bayan');
    // the driver completes the job: what its "completed" step records (trips.service recordStep)
    await t.database.db.transaction((tx) => loadLifecycle.markDelivered(tx, load.id, new Date()));
    expect(await options(carrier)).toContain('close_bayan');
    const closed = await post<BayanTripView>(t, `/bayan/trips/${trip.id}/close`, carrier, { deliveredAt }, 200);
    expect(closed).toMatchObject({ status: 'closed', deliveredAt });
    expect(await loadStatus(t, shipper, load.id)).toBe('completed');
    expect((await sandbox.getTrip(trip.tripId!))?.waybills[0]).toMatchObject({ status: 'closed' });
    const again = await t.app.inject({ method: 'POST', url: `/api/v1/bayan/trips/${trip.id}/close`, headers: carrier.headers, payload: { deliveredAt } });
    expect(again.json()).toMatchObject({ code: 'BAYAN_NOT_ACTIVE' });
  });

  it('the shipper may close without proof of delivery with a reason, recorded on the timeline; the carrier may not', async () => {
    const { load } = await assignedLoad();
    const trip = await post<BayanTripView>(t, '/bayan/trips', carrier, { loadId: load.id });
    const deliveredAt = new Date().toISOString();
    const close = (who: TestUser, payload: object, lang = 'en') =>
      t.app.inject({ method: 'POST', url: `/api/v1/bayan/trips/${trip.id}/close`, headers: { ...who.headers, language: lang }, payload });
    const byCarrier = await close(carrier, { deliveredAt, overrideReason: 'The receiver signed a paper receipt' });
    expect(byCarrier.statusCode).toBe(403);
    expect(byCarrier.json().code).toBe('DELIVERY_OVERRIDE_FORBIDDEN');
    expect((await close(carrier, { deliveredAt, overrideReason: 'The receiver signed a paper receipt' }, 'ar')).json().message).toBe(
      'لا يغلق بدون إثبات التسليم من السائق إلا الشاحن، مع ذكر السبب.',
    );
    expect((await close(shipper, { deliveredAt, overrideReason: ' ' })).statusCode).toBe(400);
    const ok = await close(shipper, { deliveredAt, overrideReason: 'The receiver signed a paper receipt' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await loadStatus(t, shipper, load.id)).toBe('completed');
    await t.app.container.services.events.drainAll();
    const timeline = async () =>
      (await t.app.inject({ url: `/api/v1/loads/${load.id}/timeline`, headers: shipper.headers })).json<{ data: { items: LoadTimelineEntry[] } }>().data.items;
    await expect.poll(async () => (await timeline()).map((e) => e.type), { timeout: 15_000 }).toContain('load.bayan_closed');
    const items = await timeline();
    const override = items.find((e) => e.type === 'load.delivery_override');
    expect(override).toMatchObject({ actorId: shipper.id, data: { reason: 'The receiver signed a paper receipt', action: 'bayan_closed' } });
    expect(items.findIndex((e) => e.type === 'load.delivery_override')).toBeLessThan(items.findIndex((e) => e.type === 'load.bayan_closed'));
  });

  it('cancelling the Bayan with a reason cancels the shipment', async () => {
    const { load } = await assignedLoad();
    const trip = await post<BayanTripView>(t, '/bayan/trips', carrier, { loadId: load.id });
    const bad = await t.app.inject({ method: 'POST', url: `/api/v1/bayan/trips/${trip.id}/cancel`, headers: shipper.headers, payload: { reason: 'bored' } });
    expect(bad.statusCode).toBe(400);
    const cancelled = await post<BayanTripView>(t, `/bayan/trips/${trip.id}/cancel`, shipper, { reason: 'damage' }, 200);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelReason: 'damage' });
    expect(await loadStatus(t, shipper, load.id)).toBe('cancelled');
    expect((await sandbox.getTrip(trip.tripId!))?.waybills[0]).toMatchObject({ status: 'cancelled', cancelReasonId: 2 });
  });

  it('keeps the waybill config of the account', async () => {
    const empty = await t.app.inject({ url: '/api/v1/account/waybill-config', headers: shipper.headers });
    expect(empty.json().data).toEqual({ config: null });
    const body = { senderName: 'Al Noor Trading', senderPhone: '0551234567', senderAddress: 'Warehouse 7, 2nd Industrial City', senderCityId: 3 };
    const put = await t.app.inject({ method: 'PUT', url: '/api/v1/account/waybill-config', headers: shipper.headers, payload: body });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.config).toMatchObject({ senderName: 'Al Noor Trading', senderPhone: '+966551234567', senderCityId: 3 });
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/account/waybill-config',
      headers: shipper.headers,
      payload: { ...body, senderCityId: 99999999 },
    });
    expect(bad.json()).toMatchObject({ code: 'INVALID_CITY' });
    // the next Bayan of this shipper's shipments names that sender
    const { load } = await assignedLoad();
    const trip = await post<BayanTripView>(t, '/bayan/trips', carrier, { loadId: load.id });
    const r = await t.database.db.execute<{ name: string; city: number }>(
      sql`select request->'waybills'->0->'sender'->>'name' as name, (request->'waybills'->0->'sender'->>'cityId')::int as city from bayan_trips where id = ${trip.id}`,
    );
    expect((r as { rows: { name: string; city: number }[] }).rows[0]).toEqual({ name: 'Al Noor Trading', city: 3 });
  });
});
