import type { Redis } from 'ioredis';

/**
 * A cached page of the load board (issue 10): the serialized `data` of GET /loads, the board
 * version it was computed under, the shippers of its loads and when it stops being servable.
 */
export interface CachedPage {
  /** The version of the page's places (boardPageVersion) read BEFORE the search ran (so the page is at least as new as v). */
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
  /**
   * A store shared by several instances: claim the computation of `flight` (a version and key) for
   * `ms`. True for the one caller that should search; the others wait for its page (single flight
   * across instances). Absent: this process's own single flight is enough.
   */
  claim?(flight: string, ms: number): Promise<boolean>;
}

/** What a page costs the in-process store: its key, JSON text and shipper ids, in UTF-8 bytes. */
export const pageBytes = (key: string, page: CachedPage) => Buffer.byteLength(key) + Buffer.byteLength(page.data) + 40 * page.shippers.length + 64;

/**
 * An in-process LRU bounded by the total size of its pages (`maxBytes`, pageBytes) and by their
 * count (`max`): Map keeps insertion order, a hit moves to the end, the oldest go first. A page
 * larger than the whole bound is not kept. `bytes()` is the current total (tests, metrics).
 */
export function memoryBoardCache(max: number, maxBytes = 64 * 1024 * 1024): BoardCacheStore & { bytes(): number } {
  const m = new Map<string, { page: CachedPage; size: number }>();
  let total = 0;
  const drop = (key: string) => {
    const e = m.get(key);
    if (!e) return;
    m.delete(key);
    total -= e.size;
  };
  return {
    get: (key) => {
      const e = m.get(key);
      if (!e) return Promise.resolve(null);
      m.delete(key);
      m.set(key, e);
      return Promise.resolve(e.page);
    },
    set: (key, page) => {
      drop(key);
      const size = pageBytes(key, page);
      if (size > maxBytes) return Promise.resolve();
      m.set(key, { page, size });
      total += size;
      while (m.size > max || total > maxBytes) drop(m.keys().next().value!);
      return Promise.resolve();
    },
    bytes: () => total,
  };
}

/**
 * Pages in Redis under `prefix` + key, expiring with the page (every key has a TTL of at most
 * SEARCH_CACHE_TTL_MS, so a Redis with `maxmemory-policy volatile-lru` or `allkeys-lru` evicts
 * them first and they never pile up). A Redis error is a miss (the database answers; the version
 * check, not Redis, is what keeps results fresh).
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
    async claim(flight, ms) {
      try {
        return (await redis.set(`${prefix}flight:${flight}`, '1', 'PX', ms, 'NX')) === 'OK';
      } catch {
        // Redis away: every instance searches for itself, as without it
        return true;
      }
    },
  };
}
