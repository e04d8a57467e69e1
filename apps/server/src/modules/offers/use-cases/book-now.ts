import { toHalalas, type Offer } from '@masar/shared';
import { requireApproved } from '../../../lib/access.ts';
import { AppError, dbErrorCode } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import type { OffersDeps } from '../deps.ts';
import { transitionOffer, withdrawPendingOfCarrier } from '../lifecycle.ts';
import { assertOpen, bookAccepted, insertBookingOffer, mustGet, notBlocked } from '../offers.shared.ts';
import * as repo from '../offers.repository.ts';

export type BookNowDeps = Pick<OffersDeps, 'db' | 'loads' | 'relations' | 'vendors'>;

/**
 * Book Now (issue 19): a verified carrier or broker with a plan books a Book Now load at its
 * posted price in one step. One transaction, the load row locked FOR UPDATE first (racing
 * carriers queue on it: exactly one books, the others then see it booked and hear
 * SHIPMENT_ALREADY_ASSIGNED). The booking is recorded as the carrier's offer at the posted
 * price (its own earlier pending bid on the load is withdrawn), accepted through
 * transitionOffer (offer.accepted), the load booked through the loads lifecycle
 * (load.booked, agreed price = posted price), and every other pending offer closed — the
 * same events, in the same order, as accepting an offer. Refusals: NOT_FOUND (not visible to
 * me), OWN_LOAD_BID, USER_BLOCKED, SHIPMENT_ALREADY_ASSIGNED / SHIPMENT_CANCELLED /
 * BIDDING_CLOSED, BOOK_NOW_UNAVAILABLE (not a Book Now load), BOOK_NOW_NOT_TRUSTED (limited
 * to the shipper's vendors), BOOK_NOW_PRICE_CHANGED (`priceSar` is not the posted price).
 */
export async function bookNow(deps: BookNowDeps, user: CurrentUser, body: { loadId: string; priceSar: string }): Promise<Offer> {
  const { db, loads, vendors } = deps;
  requireApproved(user);
  if (!user.activeSubscriptionId) throw new AppError('PLAN_REQUIRED');
  let id: string;
  try {
    id = await db.transaction(async (tx) => {
      const load = await loads.stateForOffer(tx, body.loadId, 'update');
      if (!load || load.deleted) throw new AppError('NOT_FOUND');
      if (load.shipper_id === user.id) throw new AppError('OWN_LOAD_BID');
      // a load that never was Book Now answers as a bid would (404 when off the board)
      const onBoard = load.status === 'posted' || load.expired;
      if (!load.book_now && !onBoard && load.carrier_id !== user.id && !(await repo.hasOfferOn(tx, load.id, user.id))) throw new AppError('NOT_FOUND');
      if (!(await loads.mayBid(tx, load.id, user.id))) throw new AppError('NOT_FOUND');
      await notBlocked(deps, tx, user.id, load.shipper_id);
      assertOpen(load);
      if (!load.book_now) throw new AppError('BOOK_NOW_UNAVAILABLE');
      if (load.book_now_for === 'vendors' && !(vendors && (await vendors.isVerifiedVendor(tx, load.shipper_id, user.id))))
        throw new AppError('BOOK_NOW_NOT_TRUSTED');
      if (toHalalas(load.price) !== toHalalas(body.priceSar)) throw new AppError('BOOK_NOW_PRICE_CHANGED');
      // my own pending bid is superseded by the booking at the posted price
      await withdrawPendingOfCarrier(tx, load.id, user.id, 'book_now');
      const id = newId();
      // the shipper named the price (posted), the carrier accepts it
      await insertBookingOffer(tx, { id, loadId: load.id, carrierId: user.id, shipperId: load.shipper_id, priceSar: load.price, lastOfferBy: 'shipper' });
      await transitionOffer(tx, id, 'accept', { actorId: actingUser(user), party: 'carrier' }, { priceSar: load.price, bookNow: true });
      await bookAccepted(deps, tx, { loadId: load.id, carrierId: user.id, priceSar: load.price, actorId: actingUser(user), offerId: id });
      return id;
    });
  } catch (e) {
    // the partial unique index offers_one_accepted: another booking won the race
    if (dbErrorCode(e) === '23505') throw new AppError('SHIPMENT_ALREADY_ASSIGNED');
    throw e;
  }
  return mustGet(db, id);
}
