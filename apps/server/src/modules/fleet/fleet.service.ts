import { ACCOUNT_TYPE, type Language } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './fleet.repository.ts';
import type { FleetDeps } from './deps.ts';
import type { DriverIn, DriverUpd, TrailerIn, TrailerUpd, VehicleIn, VehicleUpd } from './fleet.shared.ts';
import { bulkInsertFleet } from './use-cases/bulk-insert-fleet.ts';
import { createDriver } from './use-cases/create-driver.ts';
import { createTrailer } from './use-cases/create-trailer.ts';
import { createVehicle } from './use-cases/create-vehicle.ts';
import { getDriver } from './use-cases/get-driver.ts';
import { getTrailer } from './use-cases/get-trailer.ts';
import { getVehicle } from './use-cases/get-vehicle.ts';
import { listDrivers } from './use-cases/list-drivers.ts';
import { listFleet } from './use-cases/list-fleet.ts';
import { listTrailers } from './use-cases/list-trailers.ts';
import { listVehicles } from './use-cases/list-vehicles.ts';
import { registerDriverWasl } from './use-cases/register-driver-wasl.ts';
import { registerVehicleWasl } from './use-cases/register-vehicle-wasl.ts';
import { sendDriverLinkSms } from './use-cases/send-driver-link-sms.ts';
import { setDriverState } from './use-cases/set-driver-state.ts';
import { setTrailerState } from './use-cases/set-trailer-state.ts';
import { setVehiclePart } from './use-cases/set-vehicle-part.ts';
import { setVehicleState } from './use-cases/set-vehicle-state.ts';
import { signDriverLink } from './use-cases/sign-driver-link.ts';
import { trustDriver } from './use-cases/trust-driver.ts';
import { untrustDriver } from './use-cases/untrust-driver.ts';
import { updateDriver } from './use-cases/update-driver.ts';
import { updateTrailer } from './use-cases/update-trailer.ts';
import { updateVehicle } from './use-cases/update-vehicle.ts';
import { vehiclesForAssignment } from './use-cases/vehicles-for-assignment.ts';

export { driverRow, trailerRow, vehicleRow } from './fleet.shared.ts';
export { DRIVER_LINK_DAYS } from './use-cases/sign-driver-link.ts';
export { driverLinkSmsText } from './use-cases/send-driver-link-sms.ts';
export type { FleetDeps } from './deps.ts';

/**
 * WHO MAY DO WHAT IN FLEET MANAGEMENT (the spec is silent, §6 "not shown"; issue 3):
 * - Carriers (2) and brokers (3) own full fleets: vehicles (own or vendor-sourced), trailers,
 *   drivers, trusted drivers, driver job links.
 * - Shippers (1) may keep their own vehicles, trailers and drivers for "own vehicle" shipments
 *   (spec §3 carrier source 3); they cannot register vendor-sourced vehicles (WRONG_ROLE): a
 *   shipper hands work to a vendor as a vendor shipment, not as a vehicle of its fleet.
 * - Everyone works on their own rows only: every row has owner_id and another owner's row
 *   answers 404 (NOT_FOUND), never 403, so ids do not leak existence.
 * - Fleet writes do not need an approved account or a plan: onboarding drivers and vehicles
 *   is part of getting approved; posting and bidding keep those checks.
 * - Trusted drivers: any fleet owner may mark drivers of their OWN fleet as trusted (shown
 *   first when a driver is picked for an own-vehicle shipment). Vendors are not platform users
 *   with drivers, so there is nobody else's driver to trust.
 * Documented in docs/fleet.md too.
 */
export const FLEET_ROLES = [ACCOUNT_TYPE.shipper, ACCOUNT_TYPE.carrier, ACCOUNT_TYPE.broker];

/**
 * The fleet's side of assignment (issue 7; spec §2 /delivery-tracking/assign-driver): the
 * assignment module calls these inside its own transaction (one owner per table).
 */
export const fleetAssignment = {
  /**
   * Lock vehicle `vehicleId` of `ownerId` and check it can take a job: active, free, with an
   * active driver and a linked active trailer (VEHICLE_NOT_AVAILABLE otherwise; NOT_FOUND when not
   * the owner's). Marks it busy. Returns what the shipment records and Bayan needs.
   */
  async take(tx: DbOrTx, ownerId: string, vehicleId: string) {
    const v = await repo.getVehicle(tx, ownerId, vehicleId, true);
    if (!v) throw new AppError('NOT_FOUND');
    if (v.state !== 'active' || v.availability !== 'free' || !v.driverId || !v.trailerId) throw new AppError('VEHICLE_NOT_AVAILABLE');
    const [[d], [t]] = await Promise.all([repo.getDriversByIds(tx, [v.driverId]), repo.getTrailersByIds(tx, [v.trailerId])]);
    if (!d || d.state !== 'active' || !t || t.state !== 'active') throw new AppError('VEHICLE_NOT_AVAILABLE');
    await repo.updateVehicle(tx, v.id, { availability: 'busy' });
    return { vehicle: v, driver: d, trailer: t };
  },
  /** The vehicle is off its job (unassigned, shipment completed or cancelled): free again. */
  async release(tx: DbOrTx, vehicleId: string) {
    await repo.updateVehicle(tx, vehicleId, { availability: 'free' });
  },
  /** Vehicle, driver and trailer rows by id (any owner), for showing an assignment. */
  async describe(db: DbOrTx, ids: { vehicleId: string | null; driverId: string | null; trailerId: string | null }) {
    const [[v], [d], [t]] = await Promise.all([
      ids.vehicleId ? repo.getVehiclesByIds(db, [ids.vehicleId]) : [],
      ids.driverId ? repo.getDriversByIds(db, [ids.driverId]) : [],
      ids.trailerId ? repo.getTrailersByIds(db, [ids.trailerId]) : [],
    ]);
    return { vehicle: v ?? null, driver: d ?? null, trailer: t ?? null };
  },
};

/**
 * The WASL share of the fleets of `ownerIds` (the fact-based record, modules/records): by owner,
 * vehicles not deleted and how many are WASL verified. Owners without vehicles are absent.
 */
export async function fleetWaslCounts(db: DbOrTx, ownerIds: string[]): Promise<Map<string, { vehicles: number; verified: number }>> {
  const rows = await repo.waslCountsOf(db, ownerIds);
  return new Map(rows.map((r) => [r.owner_id, { vehicles: r.vehicles, verified: r.verified }]));
}

/**
 * The fleet service: one use case per file in ./use-cases (rules, errors and spec sources are
 * documented there); this is the wiring the routes, the CSV import and the container call.
 */
export function createFleetService(deps: FleetDeps) {
  return {
    // ---------- vehicles ----------
    getVehicle: (user: CurrentUser, id: string) => getVehicle(deps, user, id),
    listVehicles: (user: CurrentUser, q: repo.VehicleFilter & { limit: number; skip: number }) => listVehicles(deps, user, q),
    createVehicle: (user: CurrentUser, b: VehicleIn) => createVehicle(deps, user, b),
    updateVehicle: (user: CurrentUser, id: string, b: VehicleUpd) => updateVehicle(deps, user, id, b),
    deleteVehicle: (user: CurrentUser, id: string) => setVehicleState(deps, user, id, 'deleted'),
    suspendVehicle: (user: CurrentUser, id: string) => setVehicleState(deps, user, id, 'suspended'),
    activateVehicle: (user: CurrentUser, id: string) => setVehicleState(deps, user, id, 'active'),
    assignDriver: (user: CurrentUser, id: string, driverId: string | null) => setVehiclePart(deps, user, id, 'driver', driverId),
    linkTrailer: (user: CurrentUser, id: string, trailerId: string | null) => setVehiclePart(deps, user, id, 'trailer', trailerId),
    forAssignment: (user: CurrentUser) => vehiclesForAssignment(deps, user),
    registerVehicleWasl: (user: CurrentUser, id: string) => registerVehicleWasl(deps, user, id),
    registerDriverWasl: (user: CurrentUser, id: string) => registerDriverWasl(deps, user, id),

    // ---------- trailers ----------
    getTrailer: (user: CurrentUser, id: string) => getTrailer(deps, user, id),
    listTrailers: (user: CurrentUser, q: { search?: string; state?: repo.State; limit: number; skip: number }) => listTrailers(deps, user, q),
    createTrailer: (user: CurrentUser, b: TrailerIn) => createTrailer(deps, user, b),
    updateTrailer: (user: CurrentUser, id: string, b: TrailerUpd) => updateTrailer(deps, user, id, b),
    deleteTrailer: (user: CurrentUser, id: string) => setTrailerState(deps, user, id, 'deleted'),
    suspendTrailer: (user: CurrentUser, id: string) => setTrailerState(deps, user, id, 'suspended'),
    activateTrailer: (user: CurrentUser, id: string) => setTrailerState(deps, user, id, 'active'),

    // ---------- drivers ----------
    getDriver: (user: CurrentUser, id: string) => getDriver(deps, user, id),
    listDrivers: (user: CurrentUser, q: Parameters<typeof listDrivers>[2]) => listDrivers(deps, user, q),
    createDriver: (user: CurrentUser, b: DriverIn) => createDriver(deps, user, b),
    updateDriver: (user: CurrentUser, id: string, b: DriverUpd) => updateDriver(deps, user, id, b),
    deleteDriver: (user: CurrentUser, id: string) => setDriverState(deps, user, id, 'deleted'),
    suspendDriver: (user: CurrentUser, id: string) => setDriverState(deps, user, id, 'suspended'),
    activateDriver: (user: CurrentUser, id: string) => setDriverState(deps, user, id, 'active'),
    driverLink: (user: CurrentUser, id: string) => signDriverLink(deps, user, id),
    sendDriverLinkSms: (user: CurrentUser, id: string, lang: Language) => sendDriverLinkSms(deps, user, id, lang),

    // ---------- trusted drivers ----------
    trust: (user: CurrentUser, driverId: string) => trustDriver(deps, user, driverId),
    untrust: (user: CurrentUser, driverId: string) => untrustDriver(deps, user, driverId),

    // ---------- fleet table ----------
    fleet: (user: CurrentUser, q: repo.FleetFilter & { limit: number; skip: number }) => listFleet(deps, user, q),

    // ---------- bulk (CSV import) ----------
    bulkInsert: (user: CurrentUser, kind: 'vehicles' | 'trailers' | 'drivers', rows: unknown[], outer?: DbOrTx) =>
      bulkInsertFleet(deps, user, kind, rows, outer),
  };
}
export type FleetService = ReturnType<typeof createFleetService>;
