import { expect } from 'vitest';
import type { Load, Offer, VehicleInput } from '@masar/shared';
import type { App } from '../../app.ts';
import { driverBody, trailerBody, vehicleBody } from '../fleet/fleet.testkit.ts';
import { loadBody, postLoad } from '../loads/loads.testkit.ts';

type Headers = Record<string, string>;

async function ok<T>(app: App, method: 'POST' | 'PUT', url: string, headers: Headers, payload?: unknown): Promise<T> {
  const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json<{ data: T }>().data;
}

/** A shipment posted by `shipper` and booked by `carrier` (bid, accepted): status unassigned. */
export async function bookedLoad(app: App, shipper: Headers, carrier: Headers, body = loadBody()): Promise<Load> {
  const load = await postLoad(app, shipper, body);
  const offer = await ok<Offer>(app, 'POST', '/api/v1/offers', carrier, { loadId: load.id, priceSar: '2800' });
  await ok(app, 'POST', '/api/v1/offerRespond', shipper, { offerId: offer.id, action: 'accept' });
  return load;
}

/**
 * A vehicle of `owner` ready for a job: with a driver and a linked trailer. `wasl` sets its WASL
 * status directly (the WASL gateway's result) — 'verified' by default so that Bayan applies.
 */
export async function readyVehicle(app: App, owner: Headers, over: Partial<VehicleInput> = {}, wasl: string | null = 'verified') {
  const vehicle = await ok<{ id: string; plate: { digits: string } }>(app, 'POST', '/api/v1/vehicles', owner, vehicleBody(over));
  const driver = await ok<{ id: string; phone: string; licenceNumber: string }>(app, 'POST', '/api/v1/drivers', owner, driverBody());
  const trailer = await ok<{ id: string }>(app, 'POST', '/api/v1/trailers', owner, trailerBody());
  await ok(app, 'POST', `/api/v1/vehicles/${vehicle.id}/assign-driver`, owner, { driverId: driver.id });
  await ok(app, 'POST', `/api/v1/vehicles/${vehicle.id}/link-trailer`, owner, { trailerId: trailer.id });
  if (wasl) await app.container.database.query(`update vehicles set wasl_status = $1 where id = $2`, [wasl, vehicle.id]);
  return { vehicleId: vehicle.id, driverId: driver.id, trailerId: trailer.id, driver };
}

/** Assign `vehicleId` to `loadId` as `carrier` (HTTP, with an Idempotency-Key). */
export const assign = (app: App, carrier: Headers, loadId: string, vehicleId: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/delivery-tracking/assign-driver',
    headers: { ...carrier, 'idempotency-key': `assign-${loadId}-${vehicleId}-${Math.random()}` },
    payload: { loadId, vehicleId },
  });
