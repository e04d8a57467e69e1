import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { vehicleViews } from '../fleet.shared.ts';

export type ListVehiclesDeps = Pick<FleetDeps, 'db' | 'files'>;

/** GET /vehicles — a page of the caller's vehicles, newest first (state default: all but deleted). */
export async function listVehicles(deps: ListVehiclesDeps, user: CurrentUser, q: repo.VehicleFilter & { limit: number; skip: number }) {
  const { items, total } = await repo.listVehicles(deps.db, user.id, q, q.limit, q.skip);
  return { items: await vehicleViews(deps.files, deps.db, items), total };
}
