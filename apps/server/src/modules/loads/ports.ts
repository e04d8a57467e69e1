import type { Load } from '@masar/shared';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { RoutingGateway } from '../../gateways/routing/routing.ts';
import type { BoardCacheStore } from '../../lib/page-cache.ts';

/* What the loads module is given (LoadsDeps) and asks of other modules (injected by the container). */

/** The loads service's dependencies. */
export interface LoadsDeps {
  /** The primary: writes and read-your-writes reads (details, my loads). */
  db: Db;
  /**
   * Where the board search and its cache version are read (DATABASE_READ_URL's replica, or the
   * primary): both from the same server, see searchJson.
   */
  readDb?: Db;
  config: Pick<Config, 'LOAD_EXPIRY_HOURS_AFTER_PICKUP'> & Partial<Pick<Config, 'SEARCH_CACHE_TTL_MS'>>;
  routing: RoutingGateway;
  offers: OffersOfLoad;
  /** The accounts my vendors map to (modules/vendors; vendor shipments). */
  vendors: VendorsOfLoad;
  /** Where board pages are cached (none: every search runs the SQL). */
  cache?: BoardCacheStore;
  /** Blocks between users (modules/relations; issue 8): hidden loads on the board and in details. */
  relations?: BlocksOfViewer;
}

/**
 * What the authoring use cases (use-cases/*.ts: create, edit, duplicate, audience, dates) are
 * given: the loads module's dependencies they touch, and `get`, which reads a load back as
 * `viewerId` sees it (`via`: inside the caller's transaction) — loads.service's read.
 */
export interface AuthoringDeps extends Pick<LoadsDeps, 'db' | 'config' | 'routing' | 'offers' | 'vendors'> {
  get: (id: string, viewerId: string | null, via?: DbOrTx) => Promise<Load>;
}

/** What the loads module asks of the relations module (which owns user_blocks; injected by the container). */
export interface BlocksOfViewer {
  /** The users hidden from `viewerId`: those it blocked and those that blocked it. */
  hidden(db: DbOrTx, viewerId: string): Promise<string[]>;
  blockedBetween(db: DbOrTx, a: string, b: string): Promise<boolean>;
}

/** What the loads module asks of the offers module (which owns offers; injected by the container). */
export interface OffersOfLoad {
  /** Close the load's pending offers (offer lifecycle 'close', offer.closed each); `actorId`: who caused it. */
  closePending(tx: DbOrTx, loadId: string, actorId?: string | null): Promise<number>;
  deleteAll(tx: DbOrTx, loadId: string): Promise<void>;
  /** A booked shipment was cancelled: its accepted offer becomes cancelled (offer.cancelled). */
  cancelAccepted(tx: DbOrTx, loadId: string, actorId?: string | null): Promise<number>;
  hasOfferBy(db: DbOrTx, loadId: string, carrierId: string): Promise<boolean>;
  /** Move the times of the offers on loads of `shipperIds` (and their history) forward by `days` (the demo refresh). */
  shiftDates(tx: DbOrTx, shipperIds: string[], days: number): Promise<void>;
}

/** What the loads module asks of the vendors module (injected by the container). */
export interface VendorsOfLoad {
  /** The account of each vendor of `ownerId` among `vendorIds` (absent: not mine or deleted; null: no account). */
  accounts(tx: DbOrTx, ownerId: string, vendorIds: string[]): Promise<{ vendorId: string; userId: string | null }[]>;
}
