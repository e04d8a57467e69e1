import type { BayanListQuery, CreateBayanBody, WaybillConfig } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { BayanCancelReason } from '../../gateways/bayan/bayan.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import * as repo from './bayan.repository.ts';
import type { BayanDeps } from './deps.ts';
import { cancelBayanTrip } from './use-cases/cancel-bayan-trip.ts';
import { closeBayanTrip } from './use-cases/close-bayan-trip.ts';
import { createBayanTrip } from './use-cases/create-bayan-trip.ts';
import { getBayanTrip } from './use-cases/get-bayan-trip.ts';
import { getLoadBayan } from './use-cases/get-load-bayan.ts';
import { getWaybillConfig } from './use-cases/get-waybill-config.ts';
import { listBayanTrips } from './use-cases/list-bayan-trips.ts';
import { printBayanTrip } from './use-cases/print-bayan-trip.ts';
import { putWaybillConfig } from './use-cases/put-waybill-config.ts';
import { retryPendingTrip } from './use-cases/retry-pending-trip.ts';
import { sweepPendingTrips } from './use-cases/sweep-pending-trips.ts';

export type { BayanLoads } from './ports.ts';
export type { BayanDeps } from './deps.ts';
export { bayanIdempotencyKey, riyadhDate } from './bayan.shared.ts';

/**
 * What other modules may ask of Bayan (the loads module's More Options need `hasBayan`, spec §2):
 * the live Bayan status (pending or active) of each shipment that has one. Read-only, any db/tx.
 */
export const bayanOfLoads = {
  liveStatus: (db: DbOrTx, loadIds: string[]) => repo.liveStatusOfLoads(db, loadIds),
};

/**
 * Bayan trips of shipments (issue 7; spec §1, §4, §5). Rules:
 * - Created by the awarded carrier of an `assigned` shipment (the owner for an own-vehicle one)
 *   for the vehicle and driver ASSIGNED on it, both of the carrier's fleet — anything else is
 *   BAYAN_ASSIGNMENT_MISMATCH (a broker cannot file a permit for someone else's truck: stops
 *   double brokering). Vehicle under 3.5 t: BAYAN_UNDER_MIN_WEIGHT. Vehicle and driver must be
 *   WASL verified (WASL_NOT_VERIFIED). One live Bayan per shipment (BAYAN_EXISTS).
 * - The trip is reserved as a `pending` row first (so two requests cannot both file one), then
 *   Bayan is called outside any transaction. Answer → the row becomes `active` with Bayan's ids.
 *   No answer (error or timeout) → in one transaction the row keeps `pending` and the shipment
 *   moves to `pending_bayan`; the `bayan.create` job retries with backoff and on success
 *   records the ids and moves the shipment back to `assigned` in one transaction. Refused (4xx)
 *   → the reservation is removed and BAYAN_REJECTED names Bayan's field errors.
 * - Close (carrier or shipper) → Bayan closes the waybill → shipment `completed`. Cancel with a
 *   reason → Bayan cancels the waybill → shipment `cancelled`.
 * - A trip's status changes only through transitionTrip() (lifecycle.ts: the
 *   BAYAN_TRIP_TRANSITIONS table), which moves the shipment in the same transaction.
 *
 * One use case per file in ./use-cases (errors, crash and retry behaviour documented there);
 * what they share (timeout, gateway errors, ownership, recording Bayan's answer) in
 * bayan.shared.ts. This is the wiring the routes, the jobs and the container call.
 */
export function createBayanService(deps: BayanDeps) {
  return {
    create: (user: CurrentUser, body: CreateBayanBody) => createBayanTrip(deps, user, body),
    retryPending: (rowId: string) => retryPendingTrip(deps, rowId),
    sweepPending: () => sweepPendingTrips(deps),
    list: (user: CurrentUser, q: BayanListQuery) => listBayanTrips(deps, user, q),
    get: (user: CurrentUser, id: string) => getBayanTrip(deps, user, id),
    forLoad: (user: CurrentUser, loadId: string) => getLoadBayan(deps, user, loadId),
    close: (user: CurrentUser, id: string, deliveredAt: Date, overrideReason?: string) => closeBayanTrip(deps, user, id, deliveredAt, overrideReason),
    cancel: (user: CurrentUser, id: string, reason: BayanCancelReason) => cancelBayanTrip(deps, user, id, reason),
    print: (user: CurrentUser, id: string) => printBayanTrip(deps, user, id),
    waybillConfig: (user: CurrentUser) => getWaybillConfig(deps, user),
    putWaybillConfig: (user: CurrentUser, b: WaybillConfig) => putWaybillConfig(deps, user, b),
  };
}

export type BayanService = ReturnType<typeof createBayanService>;
