import type { Vehicle } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { checkFree, mapUnique, mustVehicle } from '../fleet.shared.ts';
import { getVehicle } from './get-vehicle.ts';

export type LinkTrailerDeps = Pick<FleetDeps, 'db'>;

/**
 * POST /vehicles/:id/link-trailer (`trailerId`) and /unlink-trailer (null): link a free trailer of
 * the caller to the vehicle, or unlink it. Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED,
 * TRAILER_ALREADY_LINKED.
 */
export async function linkTrailer(deps: LinkTrailerDeps, user: CurrentUser, id: string, trailerId: string | null): Promise<Vehicle> {
  await mapUnique(() =>
    deps.db.transaction(async (tx) => {
      await mustVehicle(tx, user, id, true);
      if (trailerId) await checkFree(tx, user, 'trailer', trailerId, id);
      await repo.updateVehicle(tx, id, { trailerId });
    }),
  );
  return getVehicle(deps, user, id);
}
