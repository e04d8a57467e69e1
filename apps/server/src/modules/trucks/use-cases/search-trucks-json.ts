import { type SearchTrucksQuery, truckPage } from '@masar/shared';
import { storedPage } from '../../../lib/page-cache.ts';
import * as repo from '../trucks.repository.ts';
import type { TrucksDeps } from '../deps.ts';
import { truckCacheStats } from '../trucks.shared.ts';
import { searchTrucks } from './search-trucks.ts';

export type SearchTrucksJsonDeps = Pick<TrucksDeps, 'readDb' | 'records' | 'cache' | 'cacheTtlMs' | 'serve'>;

/** Keys of truck board pages in the boards' shared page store (the load board's keys start with `{`). */
const TRUCK_PAGE_KEY = 'trucks:';

/**
 * The truck board search as the UTF-8 JSON text of GET /searchTrucks' `data` (validated by
 * truckPage), from the boards' page cache (lib/page-cache.ts) when SEARCH_CACHE_TTL_MS > 0.
 * Fresh by construction, as the load board's: the version of the truck origins the search
 * covers (its origin city, the grid cells around its circle, or the whole board; for its
 * equipment; migration 0130) is read first, and a page is served only if it was computed under
 * that version. Every truck write (post, edit, unpost, repost, delete, expire) bumps its
 * origin's versions in its transaction, so a truck changed before this search began is never
 * returned; a write elsewhere leaves the page cached. A page also stops 1 s before the first
 * end of window among its trucks, and after the TTL: the owners' names, verification, vehicle
 * and record may be that old. Concurrent misses on one key run one search (single flight); the
 * owner of a truck on the page gets it computed for itself (isMine).
 */
export async function searchTrucksJson(deps: SearchTrucksJsonDeps, q: SearchTrucksQuery, viewerId: string | null): Promise<Buffer> {
  const own = async () => {
    truckCacheStats.bypass++;
    return Buffer.from(JSON.stringify(truckPage.parse(await searchTrucks(deps, q, viewerId))));
  };
  if (!deps.serve || !deps.cache) return own();
  const key = TRUCK_PAGE_KEY + JSON.stringify(q);
  const [v, hit] = await Promise.all([repo.truckBoardVersion(deps.readDb, q), deps.cache.get(key)]);
  return deps.serve({
    key,
    v,
    hit,
    viewerId,
    own,
    compute: async () =>
      storedPage(
        truckPage.parse(await searchTrucks(deps, q, null)),
        deps.cacheTtlMs,
        (t) => t.ownerId,
        (t) => t.availableTo,
      ),
  });
}
