import type { BayanTripView } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { gatewayError, mustTrip, riyadhDate, view, withTimeout } from '../bayan.shared.ts';
import type { BayanDeps } from '../deps.ts';
import { transitionTrip } from '../lifecycle.ts';

export type CloseBayanTripDeps = Pick<BayanDeps, 'db' | 'gateway' | 'loads' | 'timeoutMs'>;

/**
 * POST /bayan/trips/:id/close: Bayan closes the waybill with the actual delivery date, then
 * (one transaction) the trip is closed and the shipment completed. Delivery first (issue 22):
 * the driver must have completed the job (proof of drop, loads.delivered_at), or the shipper
 * overrides with `overrideReason`, recorded as a `load.delivery_override` event in the same
 * transaction. Errors: NOT_FOUND, BAYAN_NOT_ACTIVE, INVALID_TRANSITION, NOT_DELIVERED,
 * DELIVERY_OVERRIDE_FORBIDDEN (an override by the carrier), BAYAN_UNAVAILABLE, BAYAN_REJECTED.
 */
export async function closeBayanTrip(
  deps: CloseBayanTripDeps,
  user: CurrentUser,
  id: string,
  deliveredAt: Date,
  overrideReason?: string,
): Promise<BayanTripView> {
  const { db, loads } = deps;
  const row = await mustTrip(db, user, id);
  if (row.status !== 'active' || !row.waybillId) throw new AppError('BAYAN_NOT_ACTIVE');
  const load = await loads.trip(db, row.loadId);
  if (load?.status !== 'assigned') throw new AppError('INVALID_TRANSITION');
  /** The precondition of the bayan_closed transition: delivered, or the shipper's override. */
  const mustBeDelivered = (l: NonNullable<typeof load>) => {
    if (l.delivered_at) return false;
    if (!overrideReason) throw new AppError('NOT_DELIVERED');
    if (l.shipper_id !== user.id) throw new AppError('DELIVERY_OVERRIDE_FORBIDDEN');
    return true;
  };
  mustBeDelivered(load);
  await withTimeout(deps, deps.gateway.closeWaybill(row.waybillId, riyadhDate(deliveredAt))).catch(gatewayError);
  await db.transaction(async (tx) => {
    const r = await mustTrip(tx, user, id, true);
    if (r.status !== 'active') throw new AppError('BAYAN_NOT_ACTIVE');
    const l = await loads.trip(tx, row.loadId, true);
    if (!l) throw new AppError('NOT_FOUND');
    const overridden = mustBeDelivered(l);
    if (overridden) await loads.event(tx, 'load.delivery_override', row.loadId, l.shipper_id, user.id, { reason: overrideReason, action: 'bayan_closed' });
    await transitionTrip(tx, loads, r, 'close', user.id, {
      set: { deliveredAt },
      loadSet: l.delivered_at ? {} : { deliveredAt },
      data: { tripId: row.tripId, waybillNumber: row.waybillNumber },
    });
  });
  return view(db, id);
}
