import { loadListResponse } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import * as board from './board.repository.ts';
import * as repo from './loads.repository.ts';
import type { BoardCacheStore } from './board-cache.ts';

/**
 * The load board search (DESIGN §6; GET /loads) and its cache: pages read on `readDb` (the
 * replica, or the primary), cached under the board version (docs/load-board.md).
 */
export function createBoardSearch(deps: {
  readDb: Db;
  cache?: BoardCacheStore;
  cacheTtlMs: number;
  hiddenFrom: (viewerId: string | null) => Promise<string[]>;
}) {
  const { readDb, cache, cacheTtlMs, hiddenFrom } = deps;
  return {
    search: async (q: board.BoardQuery, viewerId: string | null) => board.searchBoard(readDb, q, viewerId, await hiddenFrom(viewerId)),

    /**
     * The board search as the JSON text of GET /loads' `data` ({ items, total, totalCapped },
     * validated by loadListResponse), serialized once per cached page. Fresh by construction: the
     * board version is read first and a cached page is served only if it was computed under that
     * same version, so a load booked, cancelled, unposted, edited or expired (each bumps the
     * version in its own transaction) before this search began is never returned; a page also
     * stops at the first expiry among its loads and after SEARCH_CACHE_TTL_MS (new posts do not
     * bump the version: they show up within that TTL). A viewer who owns a load of the page gets
     * it computed (isMine); so does a viewer with blocks, its hidden shippers filtered out (issue 8).
     * Without a cache store or with a TTL of 0, every search runs the SQL.
     */
    async searchJson(q: board.BoardQuery, viewerId: string | null): Promise<string> {
      // a viewer with blocks (either way) gets its own page, never the shared cache (issue 8)
      const hidden = await hiddenFrom(viewerId);
      if (hidden.length) return JSON.stringify(loadListResponse.parse(await board.searchBoard(readDb, q, viewerId, hidden)));
      if (!cache || cacheTtlMs <= 0) return JSON.stringify(loadListResponse.parse(await board.searchBoard(readDb, q, viewerId)));
      const key = JSON.stringify(q);
      // The version and the search come from the SAME server (readDb: the replica, or the
      // primary without one). A replica replays the primary's commits in order, so a search on
      // it sees at least every write the version it read counts. A version read on the primary
      // with the search on a lagging replica would store a page older than its version, and
      // that page would be served as fresh until the next bump (docs/load-board.md).
      const [v, hit] = await Promise.all([repo.boardVersion(readDb), cache.get(key)]);
      const now = Date.now();
      if (hit && hit.v === v && hit.until > now && !(viewerId && hit.shippers.includes(viewerId))) return hit.data;
      const page = loadListResponse.parse(await board.searchBoard(readDb, q, viewerId));
      const data = JSON.stringify(page);
      if (!page.items.some((l) => l.isMine)) {
        // 1 s before the first expiry: instance clocks and the database's may differ a little
        const firstExpiry = Math.min(...page.items.map((l) => (l.expiresAt ? Date.parse(l.expiresAt) - 1000 : Infinity)));
        const until = Math.min(now + cacheTtlMs, firstExpiry);
        if (until > now) await cache.set(key, { v, data, shippers: [...new Set(page.items.map((l) => l.shipperId))], until });
      }
      return data;
    },
  };
}
