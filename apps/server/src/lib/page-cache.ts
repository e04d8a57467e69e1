import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';

/*
 * A cache of search result pages for the boards (issues 10, 24: the load board; issue 19: the
 * truck board), keyed on the versions of the places a search covers (db/place-versions.ts), so a
 * write invalidates only the pages it can change. Pages are stored serialized: a hit is sent as is.
 */

/**
 * A cached page: the serialized `data` of the response, the place version it was computed under,
 * the owners of its items and when it stops being servable.
 */
export interface CachedPage {
  /** The version of the page's places read BEFORE the search ran (so the page is at least as new as v). */
  v: number;
  /**
   * The JSON text of the response's data in UTF-8, validated by its response schema, computed for
   * no viewer (isMine false everywhere). Bytes, not a JS string: a page with Arabic names is a
   * two-byte string in V8 (about twice its UTF-8 size, on the collected heap, encoded again on
   * every send); a Buffer is its exact size, outside the V8 heap, and is written as is.
   */
  data: Buffer;
  /** The owners of its items (the loads' shippers, the trucks' carriers): a viewer among them needs isMine and is answered without the cache. */
  owners: string[];
  /** Epoch ms: the TTL, or the first expiry among the page's items if sooner. */
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

/** What a page costs the in-process store: its key, JSON text and owner ids, in UTF-8 bytes. */
export const pageBytes = (key: string, page: CachedPage) => Buffer.byteLength(key) + page.data.length + 40 * page.owners.length + 64;

const CLOSE = Buffer.from('}');

/** A board's response body, `{"message":…,"data":…}`, from the page's UTF-8 JSON (sent as is: no serializer, no encoding). */
export const envelopeBytes = (message: string, data: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`{"message":${JSON.stringify(message)},"data":`), data, CLOSE]);

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
 * check, not Redis, is what keeps results fresh). A value is one line of JSON, `{v, owners, until}`
 * (JSON.stringify never writes a raw newline), a newline, then the page's UTF-8 bytes; a value in
 * another shape (an older release's) is a miss.
 */
export function redisBoardCache(redis: Redis, prefix: string): BoardCacheStore {
  return {
    async get(key) {
      try {
        const b = await redis.getBuffer(prefix + key);
        const nl = b ? b.indexOf(10) : -1;
        if (!b || nl < 0) return null;
        const meta = JSON.parse(b.subarray(0, nl).toString()) as Partial<Omit<CachedPage, 'data'>>;
        if (typeof meta.v !== 'number' || typeof meta.until !== 'number' || !Array.isArray(meta.owners)) return null;
        return { v: meta.v, owners: meta.owners, until: meta.until, data: b.subarray(nl + 1) };
      } catch {
        return null;
      }
    },
    async set(key, page) {
      const ttl = page.until - Date.now();
      if (ttl <= 0) return;
      try {
        const meta = JSON.stringify({ v: page.v, owners: page.owners, until: page.until });
        await redis.set(prefix + key, Buffer.concat([Buffer.from(`${meta}\n`), page.data]), 'PX', ttl);
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

/** How long an instance's claim on a miss lasts in a shared store (a crashed searcher frees it then). */
export const FLIGHT_CLAIM_MS = 2_000;
/** How long another instance waits for the claimer's page before it searches itself. */
export const FLIGHT_WAIT_MS = 500;

/**
 * What a page cache did in this process since start: `hits` served from a cached page, `misses`
 * that ran (or joined, `joined`) a search, `bypass` searches that skip the cache (a viewer with
 * blocks, a viewer owning an item of the page, no cache). Counters only grow; read by the benches
 * (hit/miss per scenario) and available to a metrics exporter.
 */
export interface PageCacheStats {
  hits: number;
  misses: number;
  joined: number;
  bypass: number;
}

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

/** Epoch ms a page of items expiring at `expiries` (ISO; null: never) may be served until: the TTL, or 1 s before the first expiry (instance and database clocks may differ a little). */
export function pageUntil(ttlMs: number, expiries: (string | null | undefined)[]): number {
  const firstExpiry = Math.min(...expiries.map((e) => (e ? Date.parse(e) - 1000 : Infinity)));
  return Math.min(Date.now() + ttlMs, firstExpiry);
}

/** A search page as a cache stores it: its JSON in UTF-8, the distinct owners of its items, and until when it may be served (pageUntil of their expiries). */
export function storedPage<I>(
  page: { items: I[] },
  ttlMs: number,
  ownerOf: (item: I) => string,
  expiryOf: (item: I) => string | null | undefined,
): Omit<CachedPage, 'v'> {
  return {
    data: Buffer.from(JSON.stringify(page)),
    owners: [...new Set(page.items.map(ownerOf))],
    until: pageUntil(ttlMs, page.items.map(expiryOf)),
  };
}

/** What a page cache serves one request from: the key, the version read first, the stored page read beside it. */
export interface PageRequest {
  key: string;
  /** The version of the page's places, read before any search starts. */
  v: number;
  /** The store's page of `key` (read beside the version), or null. */
  hit: CachedPage | null;
  viewerId: string | null;
  /** The search for no viewer: its JSON, its items' owners, until when it may be served. */
  compute: () => Promise<Omit<CachedPage, 'v'>>;
  /** The search for this viewer (isMine set), uncached, as UTF-8 JSON: a viewer who owns an item of the page. */
  own: () => Promise<Buffer>;
}

/**
 * The shared part of the boards' page caches: serve a hit computed under the same version and
 * still servable; otherwise ONE search per version and key in this process (concurrent misses
 * join it: single flight) and, with a shared store (Redis), one across instances (the first to
 * claim it searches, the others wait up to `flightWaitMs` for its page, then search themselves).
 * A page is computed for no viewer; a viewer who owns one of its items gets `own()` (isMine).
 * A waiter joins only a flight started under the same version: no write to these places
 * committed between the two version reads, and the flight's search began after the first.
 */
export function pageFlights(cache: BoardCacheStore, stats: PageCacheStats, flightWaitMs = FLIGHT_WAIT_MS) {
  const flights = new Map<string, Promise<{ data: Buffer; owners: string[] }>>();
  return async function serve(r: PageRequest): Promise<Buffer> {
    const mine = (owners: string[]) => r.viewerId != null && owners.includes(r.viewerId);
    if (r.hit && r.hit.v === r.v && r.hit.until > Date.now()) {
      if (mine(r.hit.owners)) return r.own();
      stats.hits++;
      return r.hit.data;
    }
    const fk = `${r.v}:${r.key}`;
    let flight = flights.get(fk);
    if (flight) stats.joined++;
    else {
      stats.misses++;
      flight = (async () => {
        // another instance is searching this page under this version: wait for its page, then
        // search here after all (it may have died or be slow)
        if (cache.claim && !(await cache.claim(fk, FLIGHT_CLAIM_MS))) {
          const theirs = await waitForPage(cache, r.key, r.v, flightWaitMs);
          if (theirs) return { data: theirs.data, owners: theirs.owners };
        }
        const page = await r.compute();
        if (page.until > Date.now()) await cache.set(r.key, { v: r.v, ...page });
        return { data: page.data, owners: page.owners };
      })().finally(() => flights.delete(fk));
      flights.set(fk, flight);
    }
    const page = await flight;
    return mine(page.owners) ? r.own() : page.data;
  };
}

/**
 * A board count's answer (GET /loads/count, GET /searchTrucks/count; issue 45): the envelope
 * `{ message, data: count }`, which the browser may keep 15 s (`Cache-Control: private, max-age=15`).
 */
export async function countReply<T>(reply: FastifyReply, message: string, count: Promise<T>): Promise<{ message: string; data: T }> {
  void reply.header('cache-control', 'private, max-age=15');
  return { message, data: await count };
}
