import type { Offer, OfferAction } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { OffersDeps } from './deps.ts';
import { cancelAcceptedOfLoad, closePendingBetweenUsers, closePendingOfLoad } from './lifecycle.ts';
import * as repo from './offers.repository.ts';
import { bookForTender } from './use-cases/book-for-tender.ts';
import { bookNow } from './use-cases/book-now.ts';
import { createOffer } from './use-cases/create-offer.ts';
import { listOffers } from './use-cases/list-offers.ts';
import { respondToOffer } from './use-cases/respond-to-offer.ts';
import { withdrawOffer } from './use-cases/withdraw-offer.ts';

export type { BidderRecords, BlocksBetween, LoadForOffer, LoadLifecycle, OffersDeps, TrustedVendors } from './deps.ts';

/**
 * What the loads module may do to a load's offers (owned here): close the pending ones when the
 * load is cancelled, delete them all when its lane or equipment changes (spec §4), and tell
 * whether a carrier ever bid (visibility).
 */
export const offersOfLoad = {
  closePending: (tx: DbOrTx, loadId: string, actorId: string | null = null) => closePendingOfLoad(tx, loadId, actorId),
  deleteAll: (tx: DbOrTx, loadId: string) => repo.deleteOffersOfLoad(tx, loadId),
  cancelAccepted: (tx: DbOrTx, loadId: string, actorId: string | null = null) => cancelAcceptedOfLoad(tx, loadId, actorId),
  hasOfferBy: (db: DbOrTx, loadId: string, carrierId: string) => repo.hasOfferOn(db, loadId, carrierId),
  shiftDates: (tx: DbOrTx, shipperIds: string[], days: number) => repo.shiftOfferDates(tx, shipperIds, days),
};

/** What the relations module may do to offers (owned here): close the pending ones of a pair that one of them blocks (issue 8). */
export const offersOfUsers = {
  closePendingBetween: (tx: DbOrTx, blockerId: string, otherId: string) => closePendingBetweenUsers(tx, blockerId, otherId),
};

/**
 * Offers (bids) and bookings (spec §3 offer/bid, §4 bidding; issue 2). A carrier (or broker)
 * bids on a posted load; the party that did not name the last price accepts, rejects or
 * counters; accepting books the load. Exactly one booking per load: the conditional update of
 * the load decides a race, the partial unique index offers_one_accepted backs it. Each in its
 * use case (use-cases/*.ts); what they share (the load's open check, the booking's end) in
 * offers.shared.ts.
 */
export function createOffersService(deps: OffersDeps) {
  return {
    /** Bid on a posted load (use-cases/create-offer.ts). */
    create: (user: CurrentUser, body: { loadId: string; priceSar: string }): Promise<Offer> => createOffer(deps, user, body),
    /** Accept, reject or counter an offer (use-cases/respond-to-offer.ts). */
    respond: (user: CurrentUser, body: { offerId: string; action: OfferAction; priceSar?: string }): Promise<Offer> => respondToOffer(deps, user, body),
    /** Book a Book Now load at its posted price (use-cases/book-now.ts). */
    bookNow: (user: CurrentUser, body: { loadId: string; priceSar: string }): Promise<Offer> => bookNow(deps, user, body),
    /** Book a load on an awarded tender answer, in the tenders module's transaction (use-cases/book-for-tender.ts). */
    bookForTender: (tx: DbOrTx, b: { loadId: string; carrierId: string; priceSar: string; actorId: string; tenderId: string }): Promise<string> =>
      bookForTender(deps, tx, b),
    /** The carrier takes back a pending offer (use-cases/withdraw-offer.ts). */
    withdraw: (user: CurrentUser, offerId: string): Promise<Offer> => withdrawOffer(deps, user, offerId),
    /** The offers on a load, sent, received or waiting for me (use-cases/list-offers.ts). */
    list: (user: CurrentUser, q: { loadId?: string; box?: 'sent' | 'received'; turn?: 'mine'; limit: number; skip: number }) => listOffers(deps, user, q),
  };
}

export type OffersService = ReturnType<typeof createOffersService>;
