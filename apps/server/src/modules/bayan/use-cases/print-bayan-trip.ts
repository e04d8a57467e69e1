import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { gatewayError, mustTrip, withTimeout } from '../bayan.shared.ts';
import type { BayanDeps } from '../deps.ts';

export type PrintBayanTripDeps = Pick<BayanDeps, 'db' | 'gateway' | 'timeoutMs'>;

/** GET /bayan/trips/:id/print: Bayan's PDF of the permit and waybill. */
export async function printBayanTrip(deps: PrintBayanTripDeps, user: CurrentUser, id: string): Promise<{ pdf: Buffer; name: string }> {
  const row = await mustTrip(deps.db, user, id);
  if (!row.tripId) throw new AppError('BAYAN_NOT_ACTIVE');
  const pdf = await withTimeout(deps, deps.gateway.printTrip(row.tripId)).catch(gatewayError);
  return { pdf, name: `bayan-${row.waybillNumber ?? row.tripId}` };
}
