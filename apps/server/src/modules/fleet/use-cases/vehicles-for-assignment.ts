import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { vehicleViews } from '../fleet.shared.ts';

export type VehiclesForAssignmentDeps = Pick<FleetDeps, 'db' | 'files'>;

/**
 * Vehicles ready for a job: active, free, with an active driver and a linked active trailer (spec §5).
 * None → NO_VEHICLES_FOR_ASSIGNMENT (spec §8).
 */
export async function vehiclesForAssignment(deps: VehiclesForAssignmentDeps, user: CurrentUser) {
  const rows = await repo.vehiclesForAssignment(deps.db, user.id);
  if (rows.length === 0) throw new AppError('NO_VEHICLES_FOR_ASSIGNMENT');
  const items = await vehicleViews(deps.files, deps.db, rows);
  return { items, total: items.length };
}
