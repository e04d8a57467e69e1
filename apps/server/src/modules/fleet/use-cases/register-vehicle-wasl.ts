import { initialWaslStatus, type WaslResultView } from '@masar/shared';
import { elmPlate } from '../../../gateways/bayan/bayan.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import { askWasl, mustVehicle, storeWasl } from '../fleet.shared.ts';

export type RegisterVehicleWaslDeps = Pick<FleetDeps, 'db' | 'wasl'>;

/**
 * POST /vehicles/:id/wasl — register the vehicle with WASL (plate, plate type, sequence
 * number, IMEI). Under 3.5 t WASL is not required: `not_required`, nothing is sent. WASL's
 * answer is stored: verified, or not_verified with its reasons. Errors: NOT_FOUND,
 * FLEET_ITEM_SUSPENDED, WASL_UNAVAILABLE.
 */
export async function registerVehicleWasl(deps: RegisterVehicleWaslDeps, user: CurrentUser, id: string): Promise<WaslResultView> {
  const v = await mustVehicle(deps.db, user, id);
  if (v.state !== 'active') throw new AppError('FLEET_ITEM_SUSPENDED');
  const now = new Date();
  if (initialWaslStatus(v.weightKg) === 'not_required')
    return storeWasl(deps.db, user, 'vehicle', id, v.waslStatus, { status: 'not_required', reasons: [] }, now);
  const r = await askWasl(() =>
    deps.wasl.registerVehicle({
      sequenceNumber: v.sequenceNumber,
      plateType: v.plateType,
      vehiclePlate: elmPlate(v.plateDigits, v.plateLetters),
      ...(v.imei ? { imeiNumber: v.imei } : {}),
    }),
  );
  return storeWasl(deps.db, user, 'vehicle', id, v.waslStatus, r, now);
}
