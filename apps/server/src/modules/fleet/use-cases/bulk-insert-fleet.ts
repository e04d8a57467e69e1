import { ACCOUNT_TYPE } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { driverRow, mapUnique, trailerRow, vehicleRow, type DriverIn, type TrailerIn, type VehicleIn } from '../fleet.shared.ts';

export type BulkInsertFleetDeps = Pick<FleetDeps, 'db'>;

/** Imported vehicles of the caller, checked as a whole: known equipment types, no vendor vehicle for a shipper (WRONG_ROLE). */
async function insertImportedVehicles(tx: DbOrTx, user: CurrentUser, vs: VehicleIn[]) {
  for (const code of new Set(vs.map((v) => v.vehicleType))) if (!(await repo.equipmentExists(tx, code))) throw new AppError('INVALID_EQUIPMENT');
  if (user.accountType === ACCOUNT_TYPE.shipper && vs.some((v) => v.source === 'vendor')) throw new AppError('WRONG_ROLE');
  await repo.insertVehicles(
    tx,
    vs.map((v) =>
      vehicleRow(user.id, {
        ...v,
        driverId: undefined,
        trailerId: undefined,
        insuranceFileIds: [],
        imageFileIds: [],
        vendorId: undefined,
        source: 'own',
      }),
    ),
  );
}

/**
 * Insert already-validated imported rows of one kind in one transaction, all or nothing (`outer`:
 * as a savepoint of the caller's). Used by the CSV import for a chunk of good rows; on a
 * constraint error the caller falls back to one row at a time, so a bad row never takes good
 * ones with it. Imported vehicles are own vehicles without driver, trailer or files; imported
 * drivers come without files.
 */
export async function bulkInsertFleet(
  deps: BulkInsertFleetDeps,
  user: CurrentUser,
  kind: 'vehicles' | 'trailers' | 'drivers',
  rows: unknown[],
  outer?: DbOrTx,
) {
  await mapUnique(() =>
    (outer ?? deps.db).transaction(async (tx) => {
      if (kind === 'vehicles') await insertImportedVehicles(tx, user, rows as VehicleIn[]);
      else if (kind === 'trailers')
        await repo.insertTrailers(
          tx,
          (rows as TrailerIn[]).map((t) => trailerRow(user.id, t)),
        );
      else
        await repo.insertDrivers(
          tx,
          (rows as DriverIn[]).map((d) => driverRow(user.id, { ...d, iqamaFileIds: [], licenceFileIds: [], photoFileId: undefined })),
        );
    }),
  );
}
