import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import type { Driver, Load, Trailer, Vehicle, VehicleInput } from '@masar/shared';
import type { TestContext } from '../../../test/helpers.ts';
import type { TestUser } from '../../../test/fixtures.ts';
import { loadLifecycle } from '../loads/loads.service.ts';
import { postLoad } from '../loads/loads.testkit.ts';
import { driverBody, trailerBody, vehicleBody } from '../fleet/fleet.testkit.ts';

/** POST with a JSON body; throws unless the status is `expect`. */
export async function post<T>(t: TestContext, url: string, who: TestUser, body: unknown = {}, expectStatus = 201): Promise<T> {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: who.headers, payload: body as object });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(expectStatus);
  return res.json<{ data: T }>().data;
}

/** A truck of `carrier`'s fleet with its driver and trailer; WASL verified unless `wasl: false`. */
export async function truckOf(t: TestContext, carrier: TestUser, opts: { weightKg?: number; wasl?: boolean; vehicle?: Partial<VehicleInput> } = {}) {
  // identity numbers and sequence numbers that the WASL sandbox verifies (it "does not find" …000)
  const driver = await post<Driver>(t, '/drivers', carrier, driverBody({ driverIdNumber: `1${String(randomInt(1e8)).padStart(8, '0')}7` }));
  const trailer = await post<Trailer>(t, '/trailers', carrier, trailerBody());
  const vehicle = await post<Vehicle>(
    t,
    '/vehicles',
    carrier,
    vehicleBody({
      weightKg: opts.weightKg ?? 26000,
      sequenceNumber: `${randomInt(100000, 999999)}7`,
      driverId: driver.id,
      trailerId: trailer.id,
      ...opts.vehicle,
    }),
  );
  if (opts.wasl !== false) {
    await post(t, `/vehicles/${vehicle.id}/wasl`, carrier, undefined, 200);
    await post(t, `/drivers/${driver.id}/wasl`, carrier, undefined, 200);
  }
  return { vehicle, driver, trailer };
}

/** A load posted by `shipper`, booked by `carrier` (bid + accept): status unassigned. */
export async function bookedLoad(t: TestContext, shipper: TestUser, carrier: TestUser): Promise<Load> {
  const load = await postLoad(t.app, shipper.headers);
  const offer = await post<{ id: string }>(t, '/offers', carrier, { loadId: load.id, priceSar: '2800' });
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/offerRespond', headers: shipper.headers, payload: { offerId: offer.id, action: 'accept' } });
  expect(res.statusCode, res.body).toBe(200);
  return load;
}

type Truck = { vehicle: { id: string }; driver: { id: string }; trailer: { id: string } };

/** Assign a truck on a booked load through the assignment API (POST /delivery-tracking/assign-driver). */
export async function assign(t: TestContext, loadId: string, carrier: TestUser, truck: Truck) {
  await post(t, '/delivery-tracking/assign-driver', carrier, { loadId, vehicleId: truck.vehicle.id }, 200);
}

/**
 * Put a truck on a load straight through the lifecycle, bypassing the assignment checks: what a
 * buggy or malicious path could leave behind (a truck of another fleet, a WASL status that changed
 * after assignment). Bayan must refuse such a load on its own.
 */
export async function assignDirect(t: TestContext, loadId: string, carrierId: string, truck: Truck) {
  await t.database.db.transaction(async (tx) => {
    await loadLifecycle.transition(
      tx,
      loadId,
      'assign',
      carrierId,
      {},
      { vehicleId: truck.vehicle.id, driverId: truck.driver.id, trailerId: truck.trailer.id, assignedAt: new Date() },
    );
  });
}

/** The load's status as its shipper sees it. */
export async function loadStatus(t: TestContext, shipper: TestUser, loadId: string): Promise<string> {
  const res = await t.app.inject({ url: `/api/v1/loads/${loadId}`, headers: shipper.headers });
  return res.json<{ data: Load }>().data.status;
}
