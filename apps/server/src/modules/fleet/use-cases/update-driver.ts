import { AppError } from '../../../lib/errors.ts';
import type { Driver } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { mapUnique, mustDriver, type DriverUpd } from '../fleet.shared.ts';
import { getDriver } from './get-driver.ts';

export type UpdateDriverDeps = Pick<FleetDeps, 'db' | 'files'>;

/**
 * PATCH /drivers/:id — edit a driver of the caller. The manager's phone may not be the driver's
 * own (VALIDATION_FAILED on managerPhone, checked against the stored values too). Errors:
 * NOT_FOUND, MOI_EXISTS, DRIVER_EXISTS, INVALID_FILE.
 */
export async function updateDriver(deps: UpdateDriverDeps, user: CurrentUser, id: string, b: DriverUpd): Promise<Driver> {
  await mapUnique(() =>
    deps.db.transaction(async (tx) => {
      const d = await mustDriver(tx, user, id);
      const phone = b.phone ?? d.phone;
      const managerPhone = b.managerPhone ?? d.managerPhone;
      if (managerPhone && managerPhone === phone)
        throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'managerPhone', message: 'v.managerPhoneSame' }] });
      await deps.files.ownedFiles(tx, user.id, [...(b.iqamaFileIds ?? []), ...(b.licenceFileIds ?? []), ...(b.photoFileId ? [b.photoFileId] : [])]);
      if (b.moiNumber && (await repo.moiTaken(tx, b.moiNumber, id))) throw new AppError('MOI_EXISTS');
      if (b.driverIdNumber && (await repo.driverIdTaken(tx, user.id, b.driverIdNumber, id))) throw new AppError('DRIVER_EXISTS');
      const patch: Partial<repo.NewDriver> = {};
      for (const [k, v] of Object.entries(b)) if (v !== undefined) (patch as Record<string, unknown>)[k] = v;
      await repo.updateDriver(tx, id, patch);
    }),
  );
  return getDriver(deps, user, id);
}
