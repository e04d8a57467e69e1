import type { Vehicle } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { checkFree, mapUnique, mustVehicle } from '../fleet.shared.ts';
import { getVehicle } from './get-vehicle.ts';

export type SetVehiclePartDeps = Pick<FleetDeps, 'db' | 'files'>;

/**
 * POST /vehicles/:id/assign-driver | unassign-driver and /link-trailer | unlink-trailer: put a
 * free driver or trailer (`part`) of the caller on the vehicle (`partId`), or take it off (null).
 * Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED, DRIVER_ALREADY_ASSIGNED / TRAILER_ALREADY_LINKED.
 */
export async function setVehiclePart(
  deps: SetVehiclePartDeps,
  user: CurrentUser,
  id: string,
  part: 'driver' | 'trailer',
  partId: string | null,
): Promise<Vehicle> {
  await mapUnique(() =>
    deps.db.transaction(async (tx) => {
      await mustVehicle(tx, user, id, true);
      if (partId) await checkFree(tx, user, part, partId, id);
      await repo.updateVehicle(tx, id, part === 'driver' ? { driverId: partId } : { trailerId: partId });
    }),
  );
  return getVehicle(deps, user, id);
}
