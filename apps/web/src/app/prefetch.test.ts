import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { prefetchRouteData } from './routes';
import { searchLoadsQuery } from '../features/loads/api/loads';
import { boardQueryOf, parseFilters } from '../features/loads/utils/searchParams';
import { readFetch } from '../test/render';

/**
 * Issue 23: the board's first search starts before the page renders (main.tsx), under the page's
 * own query key, so the page finds it and sends no second request; only where the route guard lets
 * the reader stay.
 */
afterEach(() => vi.unstubAllGlobals());

const carrier = { isSignedIn: true, accountType: 2 };

function fakeBoard() {
  const urls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | Request, init?: RequestInit) => {
      const req = await readFetch(input, init);
      urls.push(req.url);
      return new Response(JSON.stringify({ message: 'OK', data: { items: [{ id: 'l1' }], total: 1 } }), { status: 200 });
    }),
  );
  return urls;
}

describe('prefetchRouteData', () => {
  it("sends the load search's first query from the URL's filters and caches it under the page's key", async () => {
    const urls = fakeBoard();
    const qc = new QueryClient();
    const search = '?pickupCityId=3&radius=100&sort=price&size=50&page=2';
    expect(prefetchRouteData('/carriers/load-search', search, qc, carrier)).toBe(true);
    const key = searchLoadsQuery(boardQueryOf(parseFilters(new URLSearchParams(search)))).queryKey;
    await vi.waitFor(() => expect(qc.getQueryData(key)).toEqual({ items: [{ id: 'l1' }], total: 1 }));
    const loads = urls.filter((u) => u.pathname === '/api/v1/loads');
    expect(loads).toHaveLength(1);
    expect(Object.fromEntries(loads[0].searchParams)).toMatchObject({ pickupCityId: '3', radius: '100', sort: 'price', limit: '50', skip: '50' });
  });

  it('the map view asks for 100 pins, as the page does', async () => {
    const urls = fakeBoard();
    const qc = new QueryClient();
    prefetchRouteData('/brokers/load-search', '?view=map', qc, { isSignedIn: true, accountType: 3 });
    await vi.waitFor(() => expect(urls.some((u) => u.pathname === '/api/v1/loads')).toBe(true));
    expect(urls.find((u) => u.pathname === '/api/v1/loads')!.searchParams.get('limit')).toBe('100');
  });

  it('sends nothing where the guard sends the reader elsewhere (a guest, a user without an account type), nor for a page without a prefetch', async () => {
    const urls = fakeBoard();
    const qc = new QueryClient();
    expect(prefetchRouteData('/carriers/load-search', '', qc, { isSignedIn: false, accountType: null })).toBe(false);
    expect(prefetchRouteData('/carriers/load-search', '', qc, { isSignedIn: true, accountType: null })).toBe(false);
    expect(prefetchRouteData('/carriers/my-shipments', '', qc, carrier)).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(urls).toEqual([]);
    expect(qc.getQueryCache().getAll()).toHaveLength(0);
  });
});
