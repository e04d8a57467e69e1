import type { Vehicle } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { changeState, mustVehicle, type FleetState, type StateAnswer } from '../fleet.shared.ts';
import { getVehicle } from './get-vehicle.ts';

export type SetVehicleStateDeps = Pick<FleetDeps, 'db' | 'files'>;

/**
 * DELETE /vehicles/:id, POST /vehicles/:id/suspend | activate. A vehicle on a job (busy) can be
 * neither suspended nor deleted (VEHICLE_BUSY); deleting is soft and frees its driver and
 * trailer. Answers the vehicle, or null when deleted. Errors: NOT_FOUND, VEHICLE_BUSY.
 */
export function setVehicleState<S extends FleetState>(deps: SetVehicleStateDeps, user: CurrentUser, id: string, to: S): Promise<StateAnswer<S, Vehicle>> {
  return changeState(
    deps.db,
    to,
    async (tx) => {
      const v = await mustVehicle(tx, user, id, true);
      if (to !== 'active' && v.availability === 'busy') throw new AppError('VEHICLE_BUSY');
      await repo.updateVehicle(tx, id, to === 'deleted' ? { state: to, driverId: null, trailerId: null } : { state: to });
    },
    () => getVehicle(deps, user, id),
  );
}
