import type { Db, DbOrTx } from '../../db/client.ts';

/** The loads module's answers and actions a tender needs (its lifecycle; injected by the container). */
export interface TenderLoads {
  stateForOffer(
    tx: DbOrTx,
    loadId: string,
    lock: 'share' | 'update' | 'none',
  ): Promise<{ id: string; shipper_id: string; status: string; expired: boolean; deleted: boolean; price: string } | null>;
  /** Post an unposted load to the board through its lifecycle (load.posted); false when it is not unposted. */
  postToBoard(tx: DbOrTx, loadId: string, actorId: string | null, data?: Record<string, unknown>): Promise<boolean>;
  boardChanged(tx: DbOrTx, loadId: string): Promise<void>;
}
/** The offers module's booking path (accepting an offer), used by the award. */
export interface TenderBooking {
  bookForTender(tx: DbOrTx, b: { loadId: string; carrierId: string; priceSar: string; actorId: string; tenderId: string }): Promise<string>;
}
/** The vendors module's answer: the Masar accounts of my vendors (null: no account yet). */
export interface TenderVendors {
  accounts(tx: DbOrTx, ownerId: string, vendorIds: string[]): Promise<{ vendorId: string; userId: string | null }[]>;
}
/** The relations module's answer: a block either way (issue 8). */
export interface TenderBlocks {
  blockedBetween(db: DbOrTx, a: string, b: string): Promise<boolean>;
}

/**
 * What the tenders module's use cases may touch; each use case names its share with
 * `Pick<TendersDeps, …>`. The container builds it (container.ts).
 */
export interface TendersDeps {
  db: Db;
  loads: TenderLoads;
  offers: TenderBooking;
  vendors?: TenderVendors;
  relations?: TenderBlocks;
}
