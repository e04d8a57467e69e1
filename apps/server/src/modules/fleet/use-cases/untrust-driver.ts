import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { mustDriver } from '../fleet.shared.ts';

export type UntrustDriverDeps = Pick<FleetDeps, 'db'>;

/** DELETE /trusted-drivers/:id — drop a driver of the caller from their trusted drivers. Errors: NOT_FOUND. */
export async function untrustDriver(deps: UntrustDriverDeps, user: CurrentUser, driverId: string) {
  await mustDriver(deps.db, user, driverId);
  await repo.removeTrusted(deps.db, user.id, driverId);
}
