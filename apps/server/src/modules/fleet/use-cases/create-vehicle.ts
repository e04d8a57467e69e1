import { AppError } from '../../../lib/errors.ts';
import type { Vehicle } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { checkVehicleRefs, mapUnique, vehicleRow, type VehicleIn } from '../fleet.shared.ts';
import { getVehicle } from './get-vehicle.ts';

export type CreateVehicleDeps = Pick<FleetDeps, 'db' | 'files'>;

/**
 * POST /vehicles — add a vehicle of the caller. Errors: DUPLICATE_PLATE (a live vehicle on the
 * platform has this plate), INVALID_EQUIPMENT, INVALID_VENDOR, INVALID_FILE,
 * DRIVER_ALREADY_ASSIGNED, TRAILER_ALREADY_LINKED, WRONG_ROLE (shipper with a vendor vehicle).
 */
export async function createVehicle(deps: CreateVehicleDeps, user: CurrentUser, b: VehicleIn): Promise<Vehicle> {
  // the id is returned by the transaction: a crash-recovered retry replays it (Idempotency-Key journal)
  const row = vehicleRow(user.id, b);
  const id = await mapUnique(() =>
    deps.db.transaction(async (tx) => {
      await checkVehicleRefs(deps.files, tx, user, b);
      if (await repo.plateTaken(tx, row.plateDigits, row.plateLetters)) throw new AppError('DUPLICATE_PLATE');
      await repo.insertVehicles(tx, [row]);
      return row.id;
    }),
  );
  return getVehicle(deps, user, id);
}
