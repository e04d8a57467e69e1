import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { driverViews } from '../fleet.shared.ts';

export type ListDriversDeps = Pick<FleetDeps, 'db' | 'files'>;

/** GET /drivers and GET /trusted-drivers (`trustedOnly`) — a page of the caller's drivers, newest first. */
export async function listDrivers(
  deps: ListDriversDeps,
  user: CurrentUser,
  q: { search?: string; state?: repo.State; limit: number; skip: number; trustedOnly?: boolean; wasl?: repo.DriverRow['waslStatus'] },
) {
  const { items, total } = await repo.listDrivers(deps.db, user.id, q, q.limit, q.skip);
  return { items: await driverViews(deps.files, deps.db, user.id, items), total };
}
