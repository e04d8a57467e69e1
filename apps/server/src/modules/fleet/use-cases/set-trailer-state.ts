import type { Trailer } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { changeState, mustTrailer, type FleetState, type StateAnswer } from '../fleet.shared.ts';
import { getTrailer } from './get-trailer.ts';

export type SetTrailerStateDeps = Pick<FleetDeps, 'db'>;

/**
 * DELETE /trailers/:id, POST /trailers/:id/suspend | activate. Deleting is soft and unlinks the
 * trailer from its vehicle. Answers the trailer, or null when deleted. Errors: NOT_FOUND.
 */
export function setTrailerState<S extends FleetState>(deps: SetTrailerStateDeps, user: CurrentUser, id: string, to: S): Promise<StateAnswer<S, Trailer>> {
  return changeState(
    deps.db,
    to,
    async (tx) => {
      await mustTrailer(tx, user, id);
      if (to === 'deleted') await repo.detachFromVehicles(tx, { trailerId: id });
      await repo.updateTrailer(tx, id, { state: to });
    },
    () => getTrailer(deps, user, id),
  );
}
