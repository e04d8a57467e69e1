import { describe, expect, it } from 'vitest';
import { envelopeBytes, memoryBoardCache, pageFlights, pageUntil, type PageCacheStats, type PageRequest } from './page-cache.ts';

// The boards' page cache core (lib/page-cache.ts): single flight per version and key, hits only
// under the same version, the owner's own page. No database: the search is a counting stub whose
// answer the test controls, so the counts are the cache's doing.

const stats = (): PageCacheStats => ({ hits: 0, misses: 0, joined: 0, bypass: 0 });
const OWNER = '00000000-0000-7000-8000-000000000001';
/** A page's bytes, as a store keeps them. */
const b = (s: string) => Buffer.from(s);
/** What a served page says. */
const text = async (p: Promise<Buffer>) => (await p).toString();

/** A counting search that answers `data` once `release` is called. */
function gatedSearch(data: string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const s = {
    runs: 0,
    release: () => release(),
    compute: async () => {
      s.runs++;
      await gate;
      return { data: b(data), owners: [OWNER], until: Date.now() + 60_000 };
    },
  };
  return s;
}

describe('pageFlights', () => {
  it('runs one search for 25 concurrent misses on one key and version, and serves the next request from the store', async () => {
    const cache = memoryBoardCache(100);
    const st = stats();
    const serve = pageFlights(cache, st);
    const s = gatedSearch('{"items":[1]}');
    const req = (viewerId: string | null): PageRequest => ({ key: 'k', v: 7, hit: null, viewerId, compute: s.compute, own: () => Promise.resolve(b('own')) });
    const pending = Array.from({ length: 25 }, () => text(serve(req(null))));
    await new Promise((r) => setTimeout(r, 10));
    s.release();
    expect(new Set(await Promise.all(pending))).toEqual(new Set(['{"items":[1]}']));
    expect(s.runs).toBe(1);
    expect(st).toMatchObject({ misses: 1, joined: 24, hits: 0 });
    const stored = await cache.get('k');
    expect(stored).toMatchObject({ v: 7, owners: [OWNER] });
    expect(stored!.data.toString()).toBe('{"items":[1]}');
    expect(await text(serve({ ...req(null), hit: stored }))).toBe('{"items":[1]}');
    expect(st.hits).toBe(1);
  });

  it('does not serve a page stored under another version or past its end, and gives an owner its own page', async () => {
    const cache = memoryBoardCache(100);
    const st = stats();
    const serve = pageFlights(cache, st);
    let runs = 0;
    const compute = () => Promise.resolve({ data: b(`run ${++runs}`), owners: [OWNER], until: Date.now() + 60_000 });
    const own = () => Promise.resolve(b('own page'));
    const old = { v: 1, data: b('old'), owners: [OWNER], until: Date.now() + 60_000 };
    expect(await text(serve({ key: 'k', v: 2, hit: old, viewerId: null, compute, own }))).toBe('run 1');
    const ended = { v: 2, data: b('ended'), owners: [], until: Date.now() - 1 };
    expect(await text(serve({ key: 'k', v: 2, hit: ended, viewerId: null, compute, own }))).toBe('run 2');
    const fresh = (await cache.get('k'))!;
    expect(await text(serve({ key: 'k', v: 2, hit: fresh, viewerId: OWNER, compute, own }))).toBe('own page');
    expect(await text(serve({ key: 'k', v: 2, hit: fresh, viewerId: 'someone else', compute, own }))).toBe('run 2');
    expect(st).toMatchObject({ misses: 2, hits: 1 });
  });

  it('wraps a page in the response envelope byte for byte, Arabic included', () => {
    const data = { items: [{ cityNameAr: 'الرياض', priceSar: '3000.00' }] };
    const body = envelopeBytes('تمت العملية', b(JSON.stringify(data)));
    expect(JSON.parse(body.toString())).toEqual({ message: 'تمت العملية', data });
  });

  it('ends a page 1 s before the first expiry among its items, or at the TTL', () => {
    const now = Date.now();
    const soon = new Date(now + 30_000).toISOString();
    expect(pageUntil(5_000, [null, soon])).toBeGreaterThanOrEqual(now + 5_000);
    expect(pageUntil(5_000, [null, soon])).toBeLessThan(now + 6_000);
    expect(pageUntil(60_000, [null, soon, new Date(now + 50_000).toISOString()])).toBe(Date.parse(soon) - 1000);
  });
});
