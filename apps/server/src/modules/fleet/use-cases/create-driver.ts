import { AppError } from '../../../lib/errors.ts';
import type { Driver } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { driverRow, mapUnique, type DriverIn } from '../fleet.shared.ts';
import { getDriver } from './get-driver.ts';

export type CreateDriverDeps = Pick<FleetDeps, 'db' | 'files'>;

/** POST /drivers — add a driver of the caller. Errors: MOI_EXISTS (platform-wide), DRIVER_EXISTS (same ID/Iqama in the caller's fleet), INVALID_FILE. */
export async function createDriver(deps: CreateDriverDeps, user: CurrentUser, b: DriverIn): Promise<Driver> {
  // the id is returned by the transaction: a crash-recovered retry replays it (Idempotency-Key journal)
  const row = driverRow(user.id, b);
  const id = await mapUnique(() =>
    deps.db.transaction(async (tx) => {
      await deps.files.ownedFiles(tx, user.id, [...b.iqamaFileIds, ...b.licenceFileIds, ...(b.photoFileId ? [b.photoFileId] : [])]);
      if (b.moiNumber && (await repo.moiTaken(tx, b.moiNumber))) throw new AppError('MOI_EXISTS');
      if (await repo.driverIdTaken(tx, user.id, b.driverIdNumber)) throw new AppError('DRIVER_EXISTS');
      await repo.insertDrivers(tx, [row]);
      return row.id;
    }),
  );
  return getDriver(deps, user, id);
}
