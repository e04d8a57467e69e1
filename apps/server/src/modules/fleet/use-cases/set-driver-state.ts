import type { Driver } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { changeState, mustDriver, type FleetState, type StateAnswer } from '../fleet.shared.ts';
import { getDriver } from './get-driver.ts';

export type SetDriverStateDeps = Pick<FleetDeps, 'db' | 'files'>;

/**
 * DELETE /drivers/:id, POST /drivers/:id/suspend | activate. Deleting is soft, unassigns the
 * driver from their vehicle and drops them from the trusted drivers. Suspending or deleting
 * kills the driver's job links and trip tokens for good (issue 22). Answers the driver, or null
 * when deleted. Errors: NOT_FOUND.
 */
export function setDriverState<S extends FleetState>(deps: SetDriverStateDeps, user: CurrentUser, id: string, to: S): Promise<StateAnswer<S, Driver>> {
  return changeState(
    deps.db,
    to,
    async (tx) => {
      await mustDriver(tx, user, id);
      if (to === 'deleted') {
        await repo.detachFromVehicles(tx, { driverId: id });
        await repo.removeTrusted(tx, user.id, id);
      }
      await repo.updateDriver(tx, id, { state: to });
      // the driver's job links and trip tokens die with the suspension, also after a reactivation
      if (to !== 'active') await repo.bumpLinkGeneration(tx, id);
    },
    () => getDriver(deps, user, id),
  );
}
