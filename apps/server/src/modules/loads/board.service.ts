import { loadListResponse } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import * as board from './board.repository.ts';
import * as repo from './loads.repository.ts';
import type { BoardCacheStore, CachedPage } from './board-cache.ts';

/** How long an instance's claim on a miss lasts in a shared store (a crashed searcher frees it then). */
export const FLIGHT_CLAIM_MS = 2_000;
/** How long another instance waits for the claimer's page before it searches itself. */
export const FLIGHT_WAIT_MS = 500;

/**
 * What the board cache did in this process since start: `hits` served from a cached page,
 * `misses` that ran (or joined, `joined`) a search, `bypass` searches that skip the cache (a
 * viewer with blocks, a viewer owning a load of the page, no cache). Counters only grow; read by
 * bench/traffic.bench.ts (hit/miss per scenario) and available to a metrics exporter.
 */
export const boardCacheStats = { hits: 0, misses: 0, joined: 0, bypass: 0 };

/** The page of `key` computed under version `v`, as soon as the store has it (polled every 20 ms), or null after `waitMs`. */
async function waitForPage(cache: BoardCacheStore, key: string, v: number, waitMs: number): Promise<CachedPage | null> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    const p = await cache.get(key);
    if (p && p.v === v && p.until > Date.now()) return p;
  }
  return null;
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
  pageVersion?: typeof repo.boardPageVersion;
  /** How long to wait for another instance's page (FLIGHT_WAIT_MS; tests on a busy machine give more). */
  flightWaitMs?: number;
}) {
  const { readDb, cache, cacheTtlMs, hiddenFrom } = deps;
  const searchPage = deps.searchPage ?? board.searchBoard;
  const pageVersion = deps.pageVersion ?? repo.boardPageVersion;
  /** Misses being computed in this process, by version and key: concurrent misses share one search. */
  const flights = new Map<string, Promise<{ data: string; shippers: string[] }>>();
  return {
    search: async (q: board.BoardQuery, viewerId: string | null) => searchPage(readDb, q, viewerId, await hiddenFrom(viewerId)),

    /**
     * The board search as the JSON text of GET /loads' `data` ({ items, total, totalCapped },
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
    async searchJson(q: board.BoardQuery, viewerId: string | null): Promise<string> {
      const own = async (hidden: string[]) => {
        boardCacheStats.bypass++;
        return JSON.stringify(loadListResponse.parse(await searchPage(readDb, q, viewerId, hidden)));
      };
      if (!cache || cacheTtlMs <= 0) return own(await hiddenFrom(viewerId));
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
      const mine = (shippers: string[]) => viewerId != null && shippers.includes(viewerId);
      if (hit && hit.v === v && hit.until > Date.now()) {
        if (mine(hit.shippers)) return own(hidden);
        boardCacheStats.hits++;
        return hit.data;
      }
      // A waiter joins only a flight started under the same version: no write to these places
      // committed between the two version reads, and the flight's search began after the first.
      const fk = `${v}:${key}`;
      let flight = flights.get(fk);
      if (flight) boardCacheStats.joined++;
      else {
        boardCacheStats.misses++;
        flight = (async () => {
          // another instance is searching this page under this version: wait for its page (up to
          // FLIGHT_WAIT_MS), then search here after all (it may have died or be slow)
          if (cache.claim && !(await cache.claim(fk, FLIGHT_CLAIM_MS))) {
            const theirs = await waitForPage(cache, key, v, deps.flightWaitMs ?? FLIGHT_WAIT_MS);
            if (theirs) return { data: theirs.data, shippers: theirs.shippers };
          }
          const page = loadListResponse.parse(await searchPage(readDb, q, null));
          const data = JSON.stringify(page);
          const shippers = [...new Set(page.items.map((l) => l.shipperId))];
          // 1 s before the first expiry: instance clocks and the database's may differ a little
          const now = Date.now();
          const firstExpiry = Math.min(...page.items.map((l) => (l.expiresAt ? Date.parse(l.expiresAt) - 1000 : Infinity)));
          const until = Math.min(now + cacheTtlMs, firstExpiry);
          if (until > now) await cache.set(key, { v, data, shippers, until });
          return { data, shippers };
        })().finally(() => flights.delete(fk));
        flights.set(fk, flight);
      }
      const page = await flight;
      return mine(page.shippers) ? own(hidden) : page.data;
    },
  };
}
