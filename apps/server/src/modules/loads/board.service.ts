import { LRUCache } from 'lru-cache';
import { loadListResponse, type BoardCount } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import * as board from './board.repository.ts';
import * as repo from './loads.repository.ts';
import { FLIGHT_WAIT_MS, pageFlights, storedPage, type BoardCacheStore, type PageCacheStats } from '../../lib/page-cache.ts';

export { FLIGHT_CLAIM_MS, FLIGHT_WAIT_MS } from '../../lib/page-cache.ts';

/** What the load board's cache did in this process since start (PageCacheStats; bench/traffic.bench.ts reads it). */
export const boardCacheStats: PageCacheStats = { hits: 0, misses: 0, joined: 0, bypass: 0 };

/** Remembered board counts (GET /loads/count) at most, least recently used out first. */
export const COUNTS_MAX = 5_000;

/** The filters of a board query, the only part its count depends on (paging, sort and `count` dropped): the count's cache key. */
export function countFilters(q: board.BoardQuery): board.BoardQuery {
  const { limit: _l, skip: _s, cursor: _c, sort: _o, count: _n, ...filters } = q;
  return { ...filters, sort: 'newest', limit: 1, skip: 0 };
}

/**
 * The load board search (DESIGN §6; GET /loads) and its cache: pages read on `readDb` (the
 * replica, or the primary), cached under the versions of the places they cover (issue 24,
 * docs/load-board.md). `searchPage` and `pageVersion` are the repository's; tests and
 * bench/cache.bench.ts pass their own (a counting search; the old global version).
 */
export function createBoardSearch(deps: {
  readDb: Db;
  cache?: BoardCacheStore;
  cacheTtlMs: number;
  hiddenFrom: (viewerId: string | null) => Promise<string[]>;
  searchPage?: typeof board.searchBoard;
  countPage?: typeof board.countBoard;
  pageVersion?: typeof repo.boardPageVersion;
  /** How long to wait for another instance's page (FLIGHT_WAIT_MS; tests on a busy machine give more). */
  flightWaitMs?: number;
}) {
  const { readDb, cache, cacheTtlMs, hiddenFrom } = deps;
  const searchPage = deps.searchPage ?? board.searchBoard;
  const pageVersion = deps.pageVersion ?? repo.boardPageVersion;
  const serve = cache ? pageFlights(cache, boardCacheStats, deps.flightWaitMs ?? FLIGHT_WAIT_MS) : null;
  const countPage = deps.countPage ?? board.countBoard;
  /** key → the count and the places' version it was computed under; least recently used out, each kept cacheTtlMs */
  const counts = new LRUCache<string, { v: number; n: BoardCount }>({ max: COUNTS_MAX, ttl: Math.max(1, cacheTtlMs) });
  return {
    search: async (q: board.BoardQuery, viewerId: string | null) => searchPage(readDb, q, viewerId, await hiddenFrom(viewerId)),

    /**
     * The board's capped count for `q`'s filters (GET /loads/count; issue 45: off the page's miss
     * path). Remembered in this process under the version of the places the search covers, as
     * the pages are (a write there bumps it), for at most cacheTtlMs (a load's expiry bumps no
     * version), up to COUNTS_MAX counts; a viewer with blocks gets its own count, never remembered.
     */
    async count(q: board.BoardQuery, viewerId: string | null): Promise<BoardCount> {
      const f = countFilters(q);
      const [hidden, v] = await Promise.all([hiddenFrom(viewerId), pageVersion(readDb, f)]);
      if (hidden.length || cacheTtlMs <= 0) return countPage(readDb, f, hidden);
      const key = JSON.stringify(f);
      const known = counts.get(key);
      if (known?.v === v) return known.n;
      const n = await countPage(readDb, f);
      counts.set(key, { v, n });
      return n;
    },

    /**
     * The board search as the UTF-8 JSON text of GET /loads' `data` ({ items, total, totalCapped },
     * validated by loadListResponse), serialized once per cached page. Fresh by construction: the
     * version of the page's places (its pickup city, the grid cells around its circle, or the
     * whole board; for its equipment) is read first and a cached page is served only if it was
     * computed under that same version. Every write that changes what the board shows (post,
     * book, cancel, unpost, repost, edit, expire) bumps the versions of its load's place in its
     * own transaction, so a load changed before this search began is never returned, and a write
     * elsewhere leaves the page cached. A page also stops at the first expiry among its loads and
     * after SEARCH_CACHE_TTL_MS. Concurrent misses on one key and version run ONE search in this
     * process (single flight; computed for no viewer, isMine false everywhere); a viewer who owns a
     * load of the page gets it computed (isMine); so does a viewer with blocks, its hidden
     * shippers filtered out (issue 8). With a shared store (Redis), misses on one key and version
     * across instances run one search too: the first to claim it searches, the others wait up to
     * FLIGHT_WAIT_MS for its page. Without a cache store or with a TTL of 0, every search runs the SQL.
     */
    async searchJson(q: board.BoardQuery, viewerId: string | null): Promise<Buffer> {
      const own = async (hidden: string[]) => {
        boardCacheStats.bypass++;
        return Buffer.from(JSON.stringify(loadListResponse.parse(await searchPage(readDb, q, viewerId, hidden))));
      };
      if (!cache || !serve || cacheTtlMs <= 0) return own(await hiddenFrom(viewerId));
      const key = JSON.stringify(q);
      // The version and the search come from the SAME server (readDb: the replica, or the
      // primary without one). A replica replays the primary's commits in order, so a search on
      // it sees at least every write the version it read counts. A version read on the primary
      // with the search on a lagging replica would store a page older than its version, and
      // that page would be served as fresh until the next bump (docs/load-board.md). The
      // viewer's blocks are read beside them (one round trip, not two): the version is still
      // read before any search begins.
      const [hidden, v, hit] = await Promise.all([hiddenFrom(viewerId), pageVersion(readDb, q), cache.get(key)]);
      // a viewer with blocks (either way) gets its own page, never the shared cache (issue 8)
      if (hidden.length) return own(hidden);
      return serve({
        key,
        v,
        hit,
        viewerId,
        own: () => own(hidden),
        compute: async () =>
          storedPage(
            loadListResponse.parse(await searchPage(readDb, q, null)),
            cacheTtlMs,
            (l) => l.shipperId,
            (l) => l.expiresAt,
          ),
      });
    },
  };
}
