import type { BayanTripView } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { BayanCancelReason } from '../../../gateways/bayan/bayan.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { gatewayError, mustTrip, view, withTimeout } from '../bayan.shared.ts';
import type { BayanDeps } from '../deps.ts';
import { transitionTrip } from '../lifecycle.ts';

export type CancelBayanTripDeps = Pick<BayanDeps, 'db' | 'gateway' | 'loads' | 'timeoutMs'>;

/**
 * POST /bayan/trips/:id/cancel: Bayan cancels the waybill with the reason (a pending trip
 * was never filed: nothing to send), then (one transaction) the trip and the shipment are
 * cancelled. Errors as close.
 */
export async function cancelBayanTrip(deps: CancelBayanTripDeps, user: CurrentUser, id: string, reason: BayanCancelReason): Promise<BayanTripView> {
  const { db } = deps;
  const row = await mustTrip(db, user, id);
  if (row.status !== 'active' && row.status !== 'pending') throw new AppError('BAYAN_NOT_ACTIVE');
  if (row.status === 'active' && row.waybillId) await withTimeout(deps, deps.gateway.cancelWaybill(row.waybillId, reason)).catch(gatewayError);
  await db.transaction(async (tx) => {
    const r = await mustTrip(tx, user, id, true);
    if (r.status !== 'active' && r.status !== 'pending') throw new AppError('BAYAN_NOT_ACTIVE');
    await transitionTrip(tx, deps.loads, r, 'cancel', user.id, {
      set: { cancelReason: reason },
      data: { tripId: row.tripId, waybillNumber: row.waybillNumber, reason },
    });
  });
  return view(db, id);
}
