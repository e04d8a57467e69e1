import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Assignment, type Load, type LoadTimelineEntry } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { createUser, type TestUser } from '../../../test/fixtures.ts';
import { assign, bookedLoad, readyVehicle } from './assignment.testkit.ts';

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  other = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const unassign = (who: TestUser, loadId: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/delivery-tracking/unassign-driver', headers: who.headers, payload: { loadId } });
const assignmentOf = async (who: TestUser, loadId: string) =>
  (await t.app.inject({ url: `/api/v1/delivery-tracking/${loadId}`, headers: who.headers })).json<{ data: Assignment }>().data;
const vehicleAvailability = async (id: string) =>
  (await t.database.query<{ availability: string }>('select availability from vehicles where id = $1', [id]))[0].availability;

describe('assignment (issue 7; spec §2 /delivery-tracking/assign-driver)', () => {
  it('the awarded carrier assigns a vehicle with its driver and trailer; both parties see it; unassign frees it', async () => {
    const load = await bookedLoad(t.app, shipper.headers, carrier.headers);
    const v = await readyVehicle(t.app, carrier.headers);

    const res = await assign(t.app, carrier.headers, load.id, v.vehicleId);
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json<{ data: Assignment }>().data;
    expect(a).toMatchObject({ loadId: load.id, status: 'assigned', vehicle: { id: v.vehicleId }, driver: { id: v.driverId }, trailer: { id: v.trailerId } });
    expect(await assignmentOf(shipper, load.id)).toMatchObject({ status: 'assigned', driver: { id: v.driverId } });
    expect((await t.app.inject({ url: `/api/v1/delivery-tracking/${load.id}`, headers: other.headers })).statusCode).toBe(404);
    expect(await vehicleAvailability(v.vehicleId)).toBe('busy');

    // the busy vehicle is not offered for another job and cannot take one
    const second = await bookedLoad(t.app, shipper.headers, carrier.headers);
    expect((await assign(t.app, carrier.headers, second.id, v.vehicleId)).json().code).toBe('VEHICLE_NOT_AVAILABLE');

    const off = await unassign(carrier, load.id);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ status: 'unassigned', vehicle: null, driver: null });
    expect(await vehicleAvailability(v.vehicleId)).toBe('free');
    expect((await assign(t.app, carrier.headers, second.id, v.vehicleId)).statusCode).toBe(200);

    // every transition is on the shipment's timeline with who did it
    await t.app.container.services.events.drainAll();
    const timelineTypes = async () =>
      (await t.app.inject({ url: `/api/v1/loads/${load.id}/timeline`, headers: shipper.headers }))
        .json<{ data: { items: LoadTimelineEntry[] } }>()
        .data.items.map((e) => e.type);
    await expect.poll(timelineTypes, { timeout: 15_000 }).toContain('load.unassigned');
    const timeline = (await t.app.inject({ url: `/api/v1/loads/${load.id}/timeline`, headers: shipper.headers })).json<{
      data: { items: LoadTimelineEntry[] };
    }>().data.items;
    const types = timeline.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['load.posted', 'load.booked', 'load.assigned', 'load.unassigned']));
    expect(timeline.find((e) => e.type === 'load.assigned')).toMatchObject({ actorId: carrier.id, data: { from: 'unassigned', to: 'assigned' } });
  });

  it('refuses the shipper, a stranger, a load not booked, and a vehicle that is not ready', async () => {
    const load = await bookedLoad(t.app, shipper.headers, carrier.headers);
    const v = await readyVehicle(t.app, carrier.headers);
    const mine = await readyVehicle(t.app, shipper.headers);
    expect((await assign(t.app, shipper.headers, load.id, mine.vehicleId)).json().code).toBe('NOT_AWARDED_CARRIER');
    expect((await assign(t.app, other.headers, load.id, v.vehicleId)).json().code).toBe('NOT_FOUND');
    // someone else's vehicle is not mine to assign (stops double brokering at the source)
    expect((await assign(t.app, carrier.headers, load.id, mine.vehicleId)).json().code).toBe('NOT_FOUND');

    // a vehicle without a linked trailer is not available
    const bare = await t.app.inject({ method: 'POST', url: `/api/v1/vehicles/${v.vehicleId}/unlink-trailer`, headers: carrier.headers });
    expect(bare.statusCode).toBe(200);
    expect((await assign(t.app, carrier.headers, load.id, v.vehicleId)).json().code).toBe('VEHICLE_NOT_AVAILABLE');

    // WASL: a 3.5 t+ vehicle must be verified; a light one needs no WASL
    const heavy = await readyVehicle(t.app, carrier.headers, {}, 'not_verified');
    const r = await assign(t.app, carrier.headers, load.id, heavy.vehicleId);
    expect(r.statusCode).toBe(409);
    expect(r.json().code).toBe('VEHICLE_WASL_REQUIRED');
    const light = await readyVehicle(t.app, carrier.headers, { weightKg: 3000 }, null);
    expect((await assign(t.app, carrier.headers, load.id, light.vehicleId)).statusCode).toBe(200);
    // assigned already: a second assign is not a transition of the table
    const again = await readyVehicle(t.app, carrier.headers);
    expect((await assign(t.app, carrier.headers, load.id, again.vehicleId)).json().code).toBe('INVALID_TRANSITION');
    // the failed attempt left the other vehicle free (nothing half-written)
    expect(await vehicleAvailability(again.vehicleId)).toBe('free');

    // a posted (not booked) shipment has no awarded carrier
    const posted = (
      await t.app.inject({ method: 'POST', url: '/api/v1/loads', headers: shipper.headers, payload: (await import('../loads/loads.testkit.ts')).loadBody() })
    ).json<{
      data: Load;
    }>().data;
    expect((await assign(t.app, carrier.headers, posted.id, again.vehicleId)).json().code).toBe('NOT_FOUND');
  });

  it('completes a shipment under 3.5 t after delivery (no Bayan) and frees the vehicle (outbox handler)', async () => {
    const complete = (who: TestUser, id: string) => t.app.inject({ method: 'POST', url: `/api/v1/delivery-tracking/${id}/complete`, headers: who.headers });
    const load = await bookedLoad(t.app, shipper.headers, carrier.headers);
    const v = await readyVehicle(t.app, carrier.headers, { weightKg: 3000 }, null);
    expect((await complete(carrier, load.id)).json().code).toBe('INVALID_TRANSITION');
    expect((await assign(t.app, carrier.headers, load.id, v.vehicleId)).statusCode).toBe(200);
    expect((await complete(carrier, load.id)).json().code).toBe('NOT_DELIVERED');
    const { loadLifecycle } = await import('../loads/loads.service.ts');
    await t.app.container.db.transaction((tx) => loadLifecycle.markDelivered(tx, load.id, new Date()));
    expect((await complete(other, load.id)).statusCode).toBe(404);
    const done = await complete(shipper, load.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.status).toBe('completed');
    // a 3.5 t+ vehicle's shipment completes only by closing its Bayan
    const heavyLoad = await bookedLoad(t.app, shipper.headers, carrier.headers);
    const heavy = await readyVehicle(t.app, carrier.headers);
    expect((await assign(t.app, carrier.headers, heavyLoad.id, heavy.vehicleId)).statusCode).toBe(200);
    await t.app.container.db.transaction((tx) => loadLifecycle.markDelivered(tx, heavyLoad.id, new Date()));
    expect((await complete(carrier, heavyLoad.id)).json().code).toBe('BAYAN_REQUIRED');
    // delivered by the outbox drain (the job worker, or this call when the worker is idle)
    await t.app.container.services.events.drainAll();
    await expect.poll(() => vehicleAvailability(v.vehicleId), { timeout: 15_000 }).toBe('free');
  });
});
