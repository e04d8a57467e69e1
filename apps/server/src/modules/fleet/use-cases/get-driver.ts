import type { Driver } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import { driverViews, mustDriver } from '../fleet.shared.ts';

export type GetDriverDeps = Pick<FleetDeps, 'db' | 'files'>;

/** GET /drivers/:id — a live driver of the caller. Errors: NOT_FOUND (also another owner's). */
export async function getDriver(deps: GetDriverDeps, user: CurrentUser, id: string): Promise<Driver> {
  return (await driverViews(deps.files, deps.db, user.id, [await mustDriver(deps.db, user, id)]))[0];
}
