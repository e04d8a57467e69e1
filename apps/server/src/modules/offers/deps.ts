import type { AccountRecord } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';

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

/** What the offers module asks of the vendors module (injected by the container): Book Now limited to trusted carriers. */
export interface TrustedVendors {
  isVerifiedVendor(db: DbOrTx, ownerId: string, userId: string): Promise<boolean>;
}

/** Whether two users are blocked either way (the relations module's answer; injected by the container). */
export interface BlocksBetween {
  blockedBetween(db: DbOrTx, a: string, b: string): Promise<boolean>;
}

/** What the offers module asks of the records module (the bidders' fact-based records, issue 19; injected by the container). */
export interface BidderRecords {
  /** The carrier side of these accounts' records, by id (every id present). */
  carriers(db: DbOrTx, accountIds: string[]): Promise<Map<string, AccountRecord>>;
}

/**
 * What the offers module's use cases may touch; each use case names its share with
 * `Pick<OffersDeps, …>`. The container builds it (container.ts).
 */
export interface OffersDeps {
  db: Db;
  loads: LoadLifecycle;
  relations?: BlocksBetween;
  vendors?: TrustedVendors;
  records?: BidderRecords;
}
