import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type { OffersDeps } from '../deps.ts';
import { transitionOffer, withdrawPendingOfCarrier } from '../lifecycle.ts';
import { bookAccepted, closedReason, insertBookingOffer } from '../offers.shared.ts';

export type BookForTenderDeps = Pick<OffersDeps, 'loads'>;

/**
 * Book a load on an awarded tender answer (issue 19 "Tendering"), inside the tenders module's
 * transaction: the same path as accepting an offer. The load row is locked FOR UPDATE; it must
 * be posted (not past its expiry) or unposted and not booked (SHIPMENT_ALREADY_ASSIGNED /
 * SHIPMENT_CANCELLED / BIDDING_CLOSED otherwise). The carrier's own pending bid on it is
 * withdrawn, the answer is recorded as its offer at `priceSar` and accepted by the shipper's
 * side through transitionOffer (offer.accepted { tenderId }), the load is booked through the
 * loads lifecycle (load.booked, agreed price = `priceSar`) and every other pending offer is
 * closed; the board versions are bumped last. Returns the offer's id.
 */
export async function bookForTender(
  deps: BookForTenderDeps,
  tx: DbOrTx,
  b: { loadId: string; carrierId: string; priceSar: string; actorId: string; tenderId: string },
): Promise<string> {
  const load = await deps.loads.stateForOffer(tx, b.loadId, 'update');
  if (!load || load.deleted) throw new AppError('NOT_FOUND');
  const reason = closedReason(load);
  if (reason && !(reason === 'BIDDING_CLOSED' && load.status === 'unposted')) throw new AppError(reason);
  await withdrawPendingOfCarrier(tx, load.id, b.carrierId, 'tender');
  const id = newId();
  // the carrier named the amount (its tender answer), the shipper accepts it by awarding
  await insertBookingOffer(tx, { id, loadId: load.id, carrierId: b.carrierId, shipperId: load.shipper_id, priceSar: b.priceSar, lastOfferBy: 'carrier' });
  await transitionOffer(tx, id, 'accept', { actorId: b.actorId, party: 'shipper' }, { priceSar: b.priceSar, tenderId: b.tenderId });
  await bookAccepted(deps, tx, { loadId: load.id, carrierId: b.carrierId, priceSar: b.priceSar, actorId: b.actorId, offerId: id });
  return id;
}
