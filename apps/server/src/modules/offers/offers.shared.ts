import { ACTIVE_LOAD_STATUSES, type DomainEventInputData, type EventInput, type Offer, type ShipmentEventType } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { LoadForOffer, OffersDeps } from './deps.ts';
import { closePendingOfLoad } from './lifecycle.ts';
import * as repo from './offers.repository.ts';

/**
 * Why a load takes no bid or booking (spec §4 "bidding"): cancelled or deleted →
 * SHIPMENT_CANCELLED; assigned or completed → SHIPMENT_ALREADY_ASSIGNED; unposted or expired →
 * BIDDING_CLOSED. null when it is open.
 */
export function closedReason(l: LoadForOffer): 'SHIPMENT_CANCELLED' | 'SHIPMENT_ALREADY_ASSIGNED' | 'BIDDING_CLOSED' | null {
  if (l.deleted || l.status === 'cancelled') return 'SHIPMENT_CANCELLED';
  if ((ACTIVE_LOAD_STATUSES as readonly string[]).includes(l.status) || l.status === 'completed') return 'SHIPMENT_ALREADY_ASSIGNED';
  if (l.status !== 'posted' || l.expired) return 'BIDDING_CLOSED';
  return null;
}

export function assertOpen(l: LoadForOffer) {
  const reason = closedReason(l);
  if (reason) throw new AppError(reason);
}

/** An offer (or booking) event about a load (offers included: their aggregate is the load, for per-load order); `data` names both parties (shipperId, carrierId). */
export const offerEvent = <K extends ShipmentEventType>(
  type: K,
  loadId: string,
  shipperId: string,
  actorId: string,
  data: DomainEventInputData<K>,
): EventInput<K> => ({
  type,
  aggregateType: 'load',
  aggregateId: loadId,
  actorId,
  data: { shipperId, ...data },
});

/** USER_BLOCKED (403) when either of the two blocked the other (spec §6; issue 8). */
export async function notBlocked({ relations }: Pick<OffersDeps, 'relations'>, tx: DbOrTx, a: string, b: string) {
  if (relations && (await relations.blockedBetween(tx, a, b))) throw new AppError('USER_BLOCKED');
}

/** The offer as its API shape; NOT_FOUND when there is none. */
export async function mustGet(tx: DbOrTx, id: string): Promise<Offer> {
  const o = await repo.getOffer(tx, id);
  if (!o) throw new AppError('NOT_FOUND');
  return o;
}

/** A booking's offer, inserted pending at `priceSar` (its original price too) before it is accepted; `lastOfferBy` named the price. */
export function insertBookingOffer(
  tx: DbOrTx,
  o: { id: string; loadId: string; carrierId: string; shipperId: string; priceSar: string; lastOfferBy: repo.Party },
) {
  const { priceSar, ...rest } = o;
  return repo.insertOffer(tx, { ...rest, price: priceSar, originalPrice: priceSar, status: 'pending' });
}

/**
 * The end of every booking (accepting an offer, Book Now, a tender award), after offer.accepted:
 * the load booked through the loads lifecycle (load.booked), refused with the load's reason when
 * it is no longer open (SHIPMENT_ALREADY_ASSIGNED when it has none), then every other pending
 * offer closed and the board versions bumped last.
 */
export async function bookAccepted(
  { loads }: Pick<OffersDeps, 'loads'>,
  tx: DbOrTx,
  b: { loadId: string; carrierId: string; priceSar: string; actorId: string; offerId: string },
) {
  if (!(await loads.book(tx, b.loadId, b.carrierId, b.priceSar, b.actorId, b.offerId))) {
    const now = await loads.stateForOffer(tx, b.loadId, 'none');
    throw new AppError((now && closedReason(now)) || 'SHIPMENT_ALREADY_ASSIGNED');
  }
  await closePendingOfLoad(tx, b.loadId, b.actorId, b.offerId);
  await loads.boardChanged(tx, b.loadId);
}
