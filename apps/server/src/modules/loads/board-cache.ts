import type { Redis } from 'ioredis';

/**
 * A cached page of the load board (issue 10): the serialized `data` of GET /loads, the board
 * version it was computed under, the shippers of its loads and when it stops being servable.
 */
export interface CachedPage {
  /** board_version.v read BEFORE the search ran (so the page is at least as new as v). */
  v: number;
  /** JSON text of { items, total, totalCapped }, validated by loadListResponse, isMine false everywhere. */
  data: string;
  /** The loads' shipper ids: a viewer among them needs isMine and is answered without the cache. */
  shippers: string[];
  /** Epoch ms: the TTL, or the first expiry among the page's loads if sooner. */
  until: number;
}

/** Where pages live: in this process, or in Redis shared by every instance. Both may lose entries. */
export interface BoardCacheStore {
  get(key: string): Promise<CachedPage | null>;
  set(key: string, page: CachedPage): Promise<void>;
}

/** An in-process LRU of at most `max` pages (Map keeps insertion order; a hit moves to the end). */
export function memoryBoardCache(max: number): BoardCacheStore {
  const m = new Map<string, CachedPage>();
  return {
    get: (key) => {
      const p = m.get(key);
      if (!p) return Promise.resolve(null);
      m.delete(key);
      m.set(key, p);
      return Promise.resolve(p);
    },
    set: (key, page) => {
      m.delete(key);
      m.set(key, page);
      if (m.size > max) m.delete(m.keys().next().value!);
      return Promise.resolve();
    },
  };
}

/**
 * Pages in Redis under `prefix` + key, expiring with the page. A Redis error is a miss (the
 * database answers; the version check, not Redis, is what keeps results fresh).
 */
export function redisBoardCache(redis: Redis, prefix: string): BoardCacheStore {
  return {
    async get(key) {
      try {
        const s = await redis.get(prefix + key);
        return s ? (JSON.parse(s) as CachedPage) : null;
      } catch {
        return null;
      }
    },
    async set(key, page) {
      const ttl = page.until - Date.now();
      if (ttl <= 0) return;
      try {
        await redis.set(prefix + key, JSON.stringify(page), 'PX', ttl);
      } catch {
        // a lost write is a later miss
      }
    },
  };
}
