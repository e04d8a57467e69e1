import {
  ACTIVE_LOAD_STATUSES,
  toHalalas,
  type AccountRecord,
  type DomainEventInputData,
  type EventInput,
  type Offer,
  type ShipmentEventType,
  type OfferAction,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { actingUser } from '../auth/auth.types.ts';
import { requireApproved } from '../../lib/access.ts';
import { publish } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { dbErrorCode } from '../../lib/errors.ts';
import * as repo from './offers.repository.ts';
import { cancelAcceptedOfLoad, closePendingBetweenUsers, closePendingOfLoad, transitionOffer, withdrawPendingOfCarrier } from './lifecycle.ts';

/**
 * Why a load takes no bid or booking (spec §4 "bidding"): cancelled or deleted →
 * SHIPMENT_CANCELLED; assigned or completed → SHIPMENT_ALREADY_ASSIGNED; unposted or expired →
 * BIDDING_CLOSED. null when it is open.
 */
function closedReason(l: LoadForOffer): 'SHIPMENT_CANCELLED' | 'SHIPMENT_ALREADY_ASSIGNED' | 'BIDDING_CLOSED' | null {
  if (l.deleted || l.status === 'cancelled') return 'SHIPMENT_CANCELLED';
  if ((ACTIVE_LOAD_STATUSES as readonly string[]).includes(l.status) || l.status === 'completed') return 'SHIPMENT_ALREADY_ASSIGNED';
  if (l.status !== 'posted' || l.expired) return 'BIDDING_CLOSED';
  return null;
}

function assertOpen(l: LoadForOffer) {
  const reason = closedReason(l);
  if (reason) throw new AppError(reason);
}

/** The state of the load an offer is about (the loads module's answer). */
export interface LoadForOffer {
  id: string;
  shipper_id: string;
  carrier_id: string | null;
  status: string;
  expired: boolean;
  deleted: boolean;
  /** Book Now at the posted price (issue 19) and who may. */
  book_now: boolean;
  book_now_for: 'verified' | 'vendors' | null;
  /** The posted price, numeric text ("1500.00"). */
  price: string;
}

/**
 * What the offers module asks of the loads module, which owns the loads table (issue 6: one
 * owner per table): the load's state (locked while bidding or answering) and the booking — one
 * call into the load's lifecycle inside the offers transaction. Injected by the container.
 */
export interface LoadLifecycle {
  stateForOffer(tx: DbOrTx, loadId: string, lock: 'share' | 'update' | 'none'): Promise<LoadForOffer | null>;
  /** Book the load on an accepted offer through the loads lifecycle (publishes load.booked); false when it is no longer open. */
  book(tx: DbOrTx, loadId: string, carrierId: string, priceSar: string, actorId: string | null, offerId: string): Promise<boolean>;
  /** Whether `userId` may bid: vendor shipments take bids from their chosen vendors only, own-vehicle ones from nobody. */
  mayBid(tx: DbOrTx, loadId: string, userId: string): Promise<boolean>;
  /** The board changed at this load's place (the search cache's versions): the last statement of the booking transaction. */
  boardChanged(tx: DbOrTx, loadId: string): Promise<void>;
}

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

/** What the offers module asks of the vendors module (injected by the container): Book Now limited to trusted carriers. */
export interface TrustedVendors {
  isVerifiedVendor(db: DbOrTx, ownerId: string, userId: string): Promise<boolean>;
}

/** Whether two users are blocked either way (the relations module's answer; injected by the container). */
export interface BlocksBetween {
  blockedBetween(db: DbOrTx, a: string, b: string): Promise<boolean>;
}

/** An event about a load (offers included: their aggregate is the load, for per-load order). */
/** An offer (or booking) event about a load; `data` names both parties (shipperId, carrierId). */
const offerEvent = <K extends ShipmentEventType>(
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

/**
 * Offers (bids) and bookings (spec §3 offer/bid, §4 bidding; issue 2). A carrier (or broker)
 * bids on a posted load; the party that did not name the last price accepts, rejects or
 * counters; accepting books the load. Exactly one booking per load: the conditional update of
 * the load decides a race, the partial unique index offers_one_accepted backs it.
 */
/** What the offers module asks of the records module (the bidders' fact-based records, issue 19; injected by the container). */
export interface BidderRecords {
  /** The carrier side of these accounts' records, by id (every id present). */
  carriers(db: DbOrTx, accountIds: string[]): Promise<Map<string, AccountRecord>>;
}

export function createOffersService({
  db,
  loads,
  relations,
  vendors,
  records,
}: {
  db: Db;
  loads: LoadLifecycle;
  relations?: BlocksBetween;
  vendors?: TrustedVendors;
  records?: BidderRecords;
}) {
  /** USER_BLOCKED (403) when either of the two blocked the other (spec §6; issue 8). */
  async function notBlocked(tx: DbOrTx, a: string, b: string) {
    if (relations && (await relations.blockedBetween(tx, a, b))) throw new AppError('USER_BLOCKED');
  }

  async function mustGet(tx: DbOrTx, id: string): Promise<Offer> {
    const o = await repo.getOffer(tx, id);
    if (!o) throw new AppError('NOT_FOUND');
    return o;
  }

  return {
    async create(user: CurrentUser, body: { loadId: string; priceSar: string }): Promise<Offer> {
      requireApproved(user);
      let id: string;
      try {
        // the id is made inside the transaction and returned by it: a retry of a request that died
        // after this commit replays the result (Idempotency-Key journal) and reads the same offer back
        id = await db.transaction(async (tx) => {
          const id = newId();
          const load = await loads.stateForOffer(tx, body.loadId, 'share');
          if (!load) throw new AppError('NOT_FOUND');
          if (load.shipper_id === user.id) throw new AppError('OWN_LOAD_BID');
          await notBlocked(tx, user.id, load.shipper_id);
          // A load off the board (unposted, booked, cancelled, deleted) is invisible to a carrier
          // that is not its booked carrier and never bid on it: 404, as GET /loads/:id answers,
          // so a bid does not confirm that the load exists.
          const onBoard = !load.deleted && (load.status === 'posted' || load.expired);
          if (!onBoard && load.carrier_id !== user.id && !(await repo.hasOfferOn(tx, load.id, user.id))) throw new AppError('NOT_FOUND');
          // a vendor shipment is invisible to anyone but its chosen vendors (issue 7)
          if (!(await loads.mayBid(tx, load.id, user.id))) throw new AppError('NOT_FOUND');
          assertOpen(load);
          await repo.insertOffer(tx, {
            id,
            loadId: load.id,
            carrierId: user.id,
            shipperId: load.shipper_id,
            price: body.priceSar,
            originalPrice: body.priceSar,
            lastOfferBy: 'carrier',
            status: 'pending',
          });
          await repo.insertEvent(tx, { id: newId(), offerId: id, byParty: 'carrier', action: 'bid', price: body.priceSar });
          await publish(
            tx,
            offerEvent('offer.created', load.id, load.shipper_id, actingUser(user), { offerId: id, carrierId: user.id, priceSar: body.priceSar }),
          );
          return id;
        });
      } catch (e) {
        if (dbErrorCode(e) === '23505') throw new AppError('DUPLICATE_OFFER');
        throw e;
      }
      return mustGet(db, id);
    },

    /**
     * Answer an offer. Only its two parties may (load owner = shipper side, bidder = carrier
     * side) and only the one that did not name the current price (NOT_YOUR_TURN). Accepting
     * needs a plan (spec §6) and books the load in one transaction.
     */
    async respond(user: CurrentUser, body: { offerId: string; action: OfferAction; priceSar?: string }): Promise<Offer> {
      requireApproved(user);
      const peek = await repo.offerState(db, body.offerId);
      if (!peek || (peek.carrier_id !== user.id && peek.shipper_id !== user.id)) throw new AppError('NOT_FOUND');
      const party: repo.Party = peek.shipper_id === user.id ? 'shipper' : 'carrier';
      await notBlocked(db, peek.shipper_id, peek.carrier_id);
      if (body.action === 'accept' && !user.activeSubscriptionId) throw new AppError('PLAN_REQUIRED');
      try {
        await db.transaction(async (tx) => {
          // load first, offer second: answers on one load queue up on the load row (no deadlock)
          const load = await loads.stateForOffer(tx, peek.load_id, 'update');
          const o = await repo.offerState(tx, body.offerId, true);
          if (!load || !o) throw new AppError('NOT_FOUND');
          if (o.status !== 'pending') {
            const reason = closedReason(load);
            throw new AppError(reason && reason !== 'BIDDING_CLOSED' ? reason : 'OFFER_NOT_PENDING');
          }
          if (o.last_offer_by === party) throw new AppError('NOT_YOUR_TURN');
          const by = { actorId: actingUser(user), party };
          if (body.action === 'reject') {
            await transitionOffer(tx, o.id, 'reject', by);
            return;
          }
          assertOpen(load);
          if (body.action === 'counter') {
            await transitionOffer(tx, o.id, 'counter', by, { priceSar: body.priceSar! }, { price: body.priceSar!, lastOfferBy: party });
            return;
          }
          // offer.accepted, then load.booked (the loads lifecycle), then the other bids close
          await transitionOffer(tx, o.id, 'accept', by, { priceSar: o.price });
          if (!(await loads.book(tx, o.load_id, o.carrier_id, o.price, actingUser(user), o.id))) {
            const now = await loads.stateForOffer(tx, o.load_id, 'none');
            throw new AppError((now && closedReason(now)) || 'SHIPMENT_ALREADY_ASSIGNED');
          }
          await closePendingOfLoad(tx, o.load_id, actingUser(user), o.id);
          await loads.boardChanged(tx, o.load_id);
        });
      } catch (e) {
        // the partial unique index offers_one_accepted: another accept won the race
        if (dbErrorCode(e) === '23505') throw new AppError('SHIPMENT_ALREADY_ASSIGNED');
        throw e;
      }
      return mustGet(db, body.offerId);
    },

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
    async bookNow(user: CurrentUser, body: { loadId: string; priceSar: string }): Promise<Offer> {
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
          await notBlocked(tx, user.id, load.shipper_id);
          assertOpen(load);
          if (!load.book_now) throw new AppError('BOOK_NOW_UNAVAILABLE');
          if (load.book_now_for === 'vendors' && !(vendors && (await vendors.isVerifiedVendor(tx, load.shipper_id, user.id))))
            throw new AppError('BOOK_NOW_NOT_TRUSTED');
          if (toHalalas(load.price) !== toHalalas(body.priceSar)) throw new AppError('BOOK_NOW_PRICE_CHANGED');
          // my own pending bid is superseded by the booking at the posted price
          await withdrawPendingOfCarrier(tx, load.id, user.id, 'book_now');
          const id = newId();
          await repo.insertOffer(tx, {
            id,
            loadId: load.id,
            carrierId: user.id,
            shipperId: load.shipper_id,
            price: load.price,
            originalPrice: load.price,
            // the shipper named the price (posted), the carrier accepts it
            lastOfferBy: 'shipper',
            status: 'pending',
          });
          await transitionOffer(tx, id, 'accept', { actorId: actingUser(user), party: 'carrier' }, { priceSar: load.price, bookNow: true });
          if (!(await loads.book(tx, load.id, user.id, load.price, actingUser(user), id))) {
            const now = await loads.stateForOffer(tx, load.id, 'none');
            throw new AppError((now && closedReason(now)) || 'SHIPMENT_ALREADY_ASSIGNED');
          }
          await closePendingOfLoad(tx, load.id, actingUser(user), id);
          await loads.boardChanged(tx, load.id);
          return id;
        });
      } catch (e) {
        // the partial unique index offers_one_accepted: another booking won the race
        if (dbErrorCode(e) === '23505') throw new AppError('SHIPMENT_ALREADY_ASSIGNED');
        throw e;
      }
      return mustGet(db, id);
    },

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
    async bookForTender(tx: DbOrTx, b: { loadId: string; carrierId: string; priceSar: string; actorId: string; tenderId: string }): Promise<string> {
      const load = await loads.stateForOffer(tx, b.loadId, 'update');
      if (!load || load.deleted) throw new AppError('NOT_FOUND');
      const reason = closedReason(load);
      if (reason && !(reason === 'BIDDING_CLOSED' && load.status === 'unposted')) throw new AppError(reason);
      await withdrawPendingOfCarrier(tx, load.id, b.carrierId, 'tender');
      const id = newId();
      await repo.insertOffer(tx, {
        id,
        loadId: load.id,
        carrierId: b.carrierId,
        shipperId: load.shipper_id,
        price: b.priceSar,
        originalPrice: b.priceSar,
        // the carrier named the amount (its tender answer), the shipper accepts it by awarding
        lastOfferBy: 'carrier',
        status: 'pending',
      });
      await transitionOffer(tx, id, 'accept', { actorId: b.actorId, party: 'shipper' }, { priceSar: b.priceSar, tenderId: b.tenderId });
      if (!(await loads.book(tx, load.id, b.carrierId, b.priceSar, b.actorId, id))) {
        const now = await loads.stateForOffer(tx, load.id, 'none');
        throw new AppError((now && closedReason(now)) || 'SHIPMENT_ALREADY_ASSIGNED');
      }
      await closePendingOfLoad(tx, load.id, b.actorId, id);
      await loads.boardChanged(tx, load.id);
      return id;
    },

    /** The carrier takes back a pending offer. */
    async withdraw(user: CurrentUser, offerId: string): Promise<Offer> {
      requireApproved(user);
      const peek = await repo.offerState(db, offerId);
      if (!peek || peek.carrier_id !== user.id) throw new AppError('NOT_FOUND');
      await db.transaction(async (tx) => {
        await loads.stateForOffer(tx, peek.load_id, 'update');
        await transitionOffer(tx, offerId, 'withdraw', { actorId: actingUser(user), party: 'carrier' });
      });
      return mustGet(db, offerId);
    },

    /**
     * Offers list: `loadId` → the offers on that load (all of them for its owner, only mine for
     * a bidder); `box=sent` → offers I made; `box=received` → offers on my loads; neither →
     * both; `turn=mine` → the open ones waiting for my answer. The offers on my loads carry the
     * bidder's fact-based record (`carrierRecord`).
     */
    async list(user: CurrentUser, q: { loadId?: string; box?: 'sent' | 'received'; turn?: 'mine'; limit: number; skip: number }) {
      let ownerOfLoad = false;
      if (q.loadId) {
        const load = await loads.stateForOffer(db, q.loadId, 'none');
        if (!load) throw new AppError('NOT_FOUND');
        ownerOfLoad = load.shipper_id === user.id;
      }
      const page = await repo.listOffersFor(db, { me: user.id, ...q, ownerOfLoad });
      const received = page.items.filter((o) => o.shipperId === user.id);
      if (!records || !received.length) return page;
      const byCarrier = await records.carriers(
        db,
        received.map((o) => o.carrierId),
      );
      return {
        ...page,
        items: page.items.map((o) => (o.shipperId === user.id && byCarrier.has(o.carrierId) ? { ...o, carrierRecord: byCarrier.get(o.carrierId) } : o)),
      };
    },
  };
}

export type OffersService = ReturnType<typeof createOffersService>;
