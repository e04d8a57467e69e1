import type { BoardCount, SearchTrucksQuery } from '@masar/shared';
import type { LRUCache } from 'lru-cache';
import * as repo from '../trucks.repository.ts';
import type { TrucksDeps } from '../deps.ts';

export type CountTrucksDeps = Pick<TrucksDeps, 'readDb' | 'cacheTtlMs'> & {
  /** Remembered counts by filters: the count and the truck origins' version it was computed under (TRUCK_COUNTS_MAX, each at most cacheTtlMs). */
  counts: LRUCache<string, { v: number; n: BoardCount }>;
};

/** The filters of a truck board query, the only part its count depends on (paging and sort dropped): the count's key. */
export function truckCountFilters(q: SearchTrucksQuery): SearchTrucksQuery {
  const { limit: _l, cursor: _c, sort: _s, ...filters } = q;
  return { ...filters, sort: 'date', limit: 1 };
}

/**
 * The truck board's capped count for `q`'s filters (GET /searchTrucks/count; issue 45: off the
 * page, fetched after its rows): `{ total ≤ 1,000, totalCapped }`. Remembered in this process
 * under the version of the truck origins the search covers, as the pages are (every truck write
 * bumps its origin's versions in its transaction, so a post, unpost or edit there changes the
 * answer at once), for at most SEARCH_CACHE_TTL_MS (a window's end bumps no version); with a TTL
 * of 0 every count runs the SQL. Read on the replica when there is one (version and count both).
 */
export async function countTrucks(deps: CountTrucksDeps, q: SearchTrucksQuery): Promise<BoardCount> {
  const f = truckCountFilters(q);
  if (deps.cacheTtlMs <= 0) return repo.countTruckBoard(deps.readDb, f);
  const v = await repo.truckBoardVersion(deps.readDb, f);
  const key = JSON.stringify(f);
  const known = deps.counts.get(key);
  if (known?.v === v) return known.n;
  const n = await repo.countTruckBoard(deps.readDb, f);
  deps.counts.set(key, { v, n });
  return n;
}
