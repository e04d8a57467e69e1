import type { AccountRecord, BackhaulsResponse, InOutDirection, Load } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { toLoadMatch } from '../loads/loads.service.ts';

/* What the trucks module asks of other modules (injected by the container). */

/**
 * What the trucks module asks of the loads module (which owns loads; the loads service), for the
 * shipment in/out log and the load-to-truck ratio (issue 19).
 */
export interface LoadsOfArea {
  /**
   * One page of open marketplace loads picking up in (out) / delivering to (in) the circle in the
   * window, and both counts (uncapped up to COUNT_CAP + 1; up to INOUT_FIGURES_TTL_MS old unless
   * `fresh`).
   */
  inOutLog(
    a: { cityId: number; radius?: number | null; from: Date; to: Date },
    direction: InOutDirection,
    limit: number,
    cursor: string | undefined,
    viewerId: string | null,
    fresh?: boolean,
  ): Promise<{ counts: Record<InOutDirection, number>; items: Load[]; nextCursor: string | null }>;
  /** Marketplace loads first picked up in the circle posted since `since`. */
  loadsPostedInArea(cityId: number, radius: number | null | undefined, since: Date): Promise<number>;
}

/**
 * An open load as a match for a truck (`BackhaulsResponse` items): the loads module's `toLoadMatch`
 * of a row of the trucks matching query, which has the board backhaul query's columns.
 */
export type LoadMatchOf = typeof toLoadMatch;

/** What the trucks module asks of the records module (the owners' fact-based records; injected by the container). */
export interface TruckOwnerRecords {
  /** The carrier side of these accounts' records, by id (every id present). */
  carriers(db: DbOrTx, accountIds: string[]): Promise<Map<string, AccountRecord>>;
}

/** What the trucks module asks of the loads module (which owns loads; injected by the container). */
export interface LoadsForTrucks {
  /** Open loads picked up within `radiusKm` of `cityId` on or after `after`, for `viewerId`, ranked by deadhead then rate per km. */
  backhaulsFrom(
    viewerId: string,
    from: { cityId: number; after: Date; radiusKm?: number; equipmentType?: string; limit: number },
    names?: { en: string; ar: string },
  ): Promise<BackhaulsResponse>;
}
