import { mayMarkPaymentReceived } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import { AppError } from '../../../lib/errors.ts';
import type { TripsDeps } from '../deps.ts';
import { round1 } from '../trips.shared.ts';

export type MarkPaymentReceivedDeps = Pick<TripsDeps, 'db' | 'loads' | 'now'>;

/**
 * POST /loads/:id/payment-received: the awarded carrier marks the payment received (now), only
 * once the shipment is completed (issue 48; `mayMarkPaymentReceived`, packages/shared
 * rules/lifecycle.ts — before, a delivered but still `assigned` shipment was accepted).
 * Publishes 'load.payment_received' `{at, daysToPay}` (days from delivery, one decimal). Errors:
 * NOT_FOUND (not a party), FORBIDDEN (the shipper), INVALID_TRANSITION (cancelled),
 * SHIPMENT_NOT_COMPLETED (409: any other status), PAYMENT_ALREADY_RECEIVED.
 */
export async function markPaymentReceived(deps: MarkPaymentReceivedDeps, user: CurrentUser, loadId: string) {
  const { loads } = deps;
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    const trip = await loads.trip(tx, loadId, true);
    if (!trip || (user.id !== trip.carrier_id && user.id !== trip.shipper_id)) throw new AppError('NOT_FOUND');
    if (user.id !== trip.carrier_id) throw new AppError('FORBIDDEN');
    if (trip.status === 'cancelled') throw new AppError('INVALID_TRANSITION');
    if (!mayMarkPaymentReceived(trip.status)) throw new AppError('SHIPMENT_NOT_COMPLETED');
    if (trip.payment_received_at) throw new AppError('PAYMENT_ALREADY_RECEIVED');
    await loads.markPaymentReceived(tx, loadId, at);
    const days = trip.delivered_at ? round1((at.getTime() - new Date(trip.delivered_at).getTime()) / 86_400_000) : null;
    await loads.event(tx, 'load.payment_received', loadId, trip.shipper_id, actingUser(user), { at: at.toISOString(), daysToPay: days });
  });
  return { loadId, paymentReceivedAt: at.toISOString() };
}
