import type { Driver } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { mustDriver } from '../fleet.shared.ts';
import { getDriver } from './get-driver.ts';

export type TrustDriverDeps = Pick<FleetDeps, 'db' | 'files'>;

/** POST /trusted-drivers — mark a driver of the caller's own fleet as trusted (again: no change). Errors: NOT_FOUND. */
export async function trustDriver(deps: TrustDriverDeps, user: CurrentUser, driverId: string): Promise<Driver> {
  await mustDriver(deps.db, user, driverId);
  await repo.addTrusted(deps.db, user.id, driverId);
  return getDriver(deps, user, driverId);
}
