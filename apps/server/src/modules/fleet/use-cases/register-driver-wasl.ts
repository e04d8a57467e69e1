import { toHijriDate, type WaslResultView } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import { askWasl, mustDriver, storeWasl } from '../fleet.shared.ts';

export type RegisterDriverWaslDeps = Pick<FleetDeps, 'db' | 'wasl'>;

/**
 * POST /drivers/:id/wasl — register the driver with WASL (identity, date of birth in Hijri
 * (Umm al-Qura) and Gregorian, mobile). Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED, WASL_UNAVAILABLE.
 */
export async function registerDriverWasl(deps: RegisterDriverWaslDeps, user: CurrentUser, id: string): Promise<WaslResultView> {
  const d = await mustDriver(deps.db, user, id);
  if (d.state !== 'active') throw new AppError('FLEET_ITEM_SUSPENDED');
  const now = new Date();
  const r = await askWasl(() =>
    deps.wasl.registerDriver({
      identityNumber: d.driverIdNumber,
      dateOfBirthGregorian: d.dateOfBirth,
      dateOfBirthHijri: toHijriDate(d.dateOfBirth) ?? '',
      mobileNumber: d.phone,
    }),
  );
  return storeWasl(deps.db, user, 'driver', id, d.waslStatus, r, now);
}
