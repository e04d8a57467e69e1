import type { Vehicle } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { checkFree, mapUnique, mustVehicle } from '../fleet.shared.ts';
import { getVehicle } from './get-vehicle.ts';

export type AssignDriverDeps = Pick<FleetDeps, 'db'>;

/**
 * POST /vehicles/:id/assign-driver (`driverId`) and /unassign-driver (null): put a free driver of
 * the caller on the vehicle, or take the driver off. Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED,
 * DRIVER_ALREADY_ASSIGNED.
 */
export async function assignDriver(deps: AssignDriverDeps, user: CurrentUser, id: string, driverId: string | null): Promise<Vehicle> {
  await mapUnique(() =>
    deps.db.transaction(async (tx) => {
      await mustVehicle(tx, user, id, true);
      if (driverId) await checkFree(tx, user, 'driver', driverId, id);
      await repo.updateVehicle(tx, id, { driverId });
    }),
  );
  return getVehicle(deps, user, id);
}
