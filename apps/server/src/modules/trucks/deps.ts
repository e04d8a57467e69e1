import type { Db } from '../../db/client.ts';
import type { ttlMemo } from '../../lib/memo.ts';
import type { BoardCacheStore, pageFlights } from '../../lib/page-cache.ts';
import type { LoadMatchOf, LoadsForTrucks, LoadsOfArea, TruckOwnerRecords } from './ports.ts';

/** What the container passes to createTrucksService. */
export interface TrucksServiceDeps {
  db: Db;
  readDb?: Db;
  records?: TruckOwnerRecords;
  loads: LoadsForTrucks & LoadsOfArea;
  /** The loads module's row → API shape of a matching load (injected by the container). */
  toLoadMatch: LoadMatchOf;
  /** The boards' page store (lib/page-cache.ts; shared with the load board) and how long a page lives (SEARCH_CACHE_TTL_MS; 0: no cache). */
  cache?: BoardCacheStore;
  cacheTtlMs?: number;
}

/**
 * What the trucks use cases pick from: TrucksServiceDeps with its defaults filled in, and the
 * state one service keeps for its life (built once by createTrucksService).
 */
export interface TrucksDeps {
  db: Db;
  /** The replica when there is one (the board, the in/out logs, the ratio), else `db`. */
  readDb: Db;
  records?: TruckOwnerRecords;
  loads: LoadsForTrucks & LoadsOfArea;
  toLoadMatch: LoadMatchOf;
  cache?: BoardCacheStore;
  /** SEARCH_CACHE_TTL_MS (0: no cache). */
  cacheTtlMs: number;
  /** The board pages' single flight over `cache` (lib/page-cache.ts); null without a cache. */
  serve: ReturnType<typeof pageFlights> | null;
  /** The in/out logs' area figures (truck counts, the 24 h ratio), kept INOUT_FIGURES_TTL_MS per area and window (issue 19). */
  areaFigures: ReturnType<typeof ttlMemo>;
}
