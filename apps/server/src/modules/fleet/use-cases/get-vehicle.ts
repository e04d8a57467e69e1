import type { Vehicle } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import { mustVehicle, vehicleViews } from '../fleet.shared.ts';

export type GetVehicleDeps = Pick<FleetDeps, 'db' | 'files'>;

/** GET /vehicles/:id — a live vehicle of the caller. Errors: NOT_FOUND (also another owner's). */
export async function getVehicle(deps: GetVehicleDeps, user: CurrentUser, id: string): Promise<Vehicle> {
  return (await vehicleViews(deps.files, deps.db, [await mustVehicle(deps.db, user, id)]))[0];
}
