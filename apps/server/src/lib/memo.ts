import { LRUCache } from 'lru-cache';

/**
 * A memo of promises with a time to live, bounded in entries (lru-cache, least recently used out
 * first). `memo(key, load)` returns the value loaded under `key` less than `ttlMs` ago, else calls
 * `load`; concurrent calls for one key share one load (single flight); a load that fails is
 * forgotten at once. `fresh: true` loads again and replaces what was kept (a "refresh" the user
 * asked for). In-process: every instance keeps its own. For figures that may be `ttlMs` old, such
 * as the in/out logs' counts and 24 h ratio (issue 19), never for what a write must change at once.
 */
export function ttlMemo(max: number, ttlMs: number) {
  const kept = new LRUCache<string, Promise<unknown>>({ max, ttl: ttlMs });
  return <T>(key: string, load: () => Promise<T>, fresh = false): Promise<T> => {
    const hit = fresh ? undefined : (kept.get(key) as Promise<T> | undefined);
    if (hit) return hit;
    const p = load();
    kept.set(key, p);
    p.catch(() => {
      if (kept.get(key) === p) kept.delete(key);
    });
    return p;
  };
}

/** The memo key of an area and window (city, radius, from and to to the minute): what the in/out logs' figures are kept under. */
export const areaWindowKey = (a: { cityId: number; radius?: number | null; from: Date; to: Date }) =>
  `${a.cityId}:${a.radius ?? 0}:${Math.floor(a.from.getTime() / 60_000)}:${Math.floor(a.to.getTime() / 60_000)}`;
