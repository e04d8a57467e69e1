import { initialWaslStatus, storedPlateLetters, type Vehicle } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { checkVehicleRefs, mapUnique, mustVehicle, type VehicleUpd } from '../fleet.shared.ts';
import { getVehicle } from './get-vehicle.ts';

export type UpdateVehicleDeps = Pick<FleetDeps, 'db' | 'files'>;

/** The fields an edit copies as they come (plate, weight, source and vendor have rules of their own). */
const PLAIN = [
  'vehicleType',
  'year',
  'make',
  'model',
  'colour',
  'plateType',
  'registrationNumber',
  'sequenceNumber',
  'imei',
  'driverId',
  'trailerId',
  'insuranceFileIds',
  'imageFileIds',
] as const;

/**
 * PATCH /vehicles/:id — edit a vehicle of the caller. A vendor vehicle needs a vendor
 * (VALIDATION_FAILED on vendorId); going back to 'own' drops it. A new weight re-derives the WASL
 * status only where it is local (not_required / not_submitted), or where the vehicle falls under
 * 3.5 t. Errors: as createVehicle, and NOT_FOUND.
 */
export async function updateVehicle(deps: UpdateVehicleDeps, user: CurrentUser, id: string, b: VehicleUpd): Promise<Vehicle> {
  await mapUnique(() =>
    deps.db.transaction(async (tx) => {
      const v = await mustVehicle(tx, user, id, true);
      const source = b.source ?? v.source;
      const vendorId = b.vendorId ?? (b.source === 'own' ? undefined : (v.vendorId ?? undefined));
      if (source === 'vendor' && !vendorId) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'vendorId', message: 'v.vendorRequired' }] });
      await checkVehicleRefs(deps.files, tx, user, { ...b, source, vendorId }, id);
      const patch: Partial<repo.NewVehicle> = {};
      for (const k of PLAIN) {
        if (b[k] !== undefined) (patch as Record<string, unknown>)[k] = b[k];
      }
      patch.source = source;
      patch.vendorId = source === 'vendor' ? vendorId : null;
      if (b.plate) {
        patch.plateDigits = b.plate.digits;
        patch.plateLetters = storedPlateLetters(b.plate);
        if (await repo.plateTaken(tx, patch.plateDigits, patch.plateLetters, id)) throw new AppError('DUPLICATE_PLATE');
      }
      if (b.weightKg !== undefined) {
        patch.weightKg = b.weightKg;
        // verified/not_verified came from WASL for the old weight; re-derive only the local states
        if (v.waslStatus === 'not_required' || v.waslStatus === 'not_submitted' || initialWaslStatus(b.weightKg) === 'not_required')
          patch.waslStatus = initialWaslStatus(b.weightKg);
      }
      await repo.updateVehicle(tx, id, patch);
    }),
  );
  return getVehicle(deps, user, id);
}
