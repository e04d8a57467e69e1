import { expect } from 'vitest';
import type { Escrow, Load } from '@masar/shared';
import type { App } from '../../app.ts';
import { newId } from '../../lib/ids.ts';
import { assign, bookedLoad, readyVehicle } from '../assignment/assignment.testkit.ts';
import { loadBody } from '../loads/loads.testkit.ts';
import { loadLifecycle } from '../loads/loads.service.ts';

type Headers = Record<string, string>;
interface Party {
  id: string;
  headers: Headers;
}

/** A wallet recharge as the billing module records a paid one (the card path is billing.test.ts's). */
export const topUp = (app: App, userId: string, sar: number) =>
  app.container.database.query(`insert into wallet_entries (id, user_id, kind, amount_halalas) values ($1, $2, 'recharge', $3)`, [newId(), userId, sar * 100]);

/** Wait (≤ 20 s) until the outbox handlers moved the load's escrow to `status` (the app's worker may be the one draining). */
export async function escrowReaches(app: App, loadId: string, status: string, u: Party): Promise<void> {
  const deadline = Date.now() + 20_000;
  let last = '';
  while (Date.now() < deadline) {
    await app.container.services.events.drainAll();
    const r = await app.inject({ method: 'GET', url: `/api/v1/loads/${loadId}/escrow`, headers: u.headers });
    last = r.statusCode === 200 ? r.json<{ data: Escrow }>().data.status : String(r.statusCode);
    if (last === status) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(last, `escrow of ${loadId}`).toBe(status);
}

/** A protected load booked by `carrier` at 2800 SAR (+ 15% VAT = 3220.00), its escrow opened (`expected`). */
export async function protectedBooking(app: App, shipper: Party, carrier: Party, expected = 'funded'): Promise<Load> {
  const load = await bookedLoad(app, shipper.headers, carrier.headers, loadBody({ paymentProtection: true }));
  await escrowReaches(app, load.id, expected, shipper);
  return load;
}

/** Assign a vehicle and complete the shipment (lifecycle `complete`: load.completed); the release is then scheduled. */
export async function completeShipment(app: App, shipper: Party, carrier: Party, loadId: string): Promise<void> {
  const v = await readyVehicle(app, carrier.headers);
  const a = await assign(app, carrier.headers, loadId, v.vehicleId);
  expect(a.statusCode, a.body).toBe(200);
  await app.container.database.db.transaction((tx) => loadLifecycle.transition(tx, loadId, 'complete', carrier.id, { vehicleId: v.vehicleId }));
  await escrowReaches(app, loadId, 'release_scheduled', shipper);
}
