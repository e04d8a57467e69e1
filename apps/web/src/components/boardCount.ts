import { useQuery } from '@tanstack/react-query';
import { masar, unwrap, type QueryOf } from '../lib/api';

/**
 * GET /loads/count (issue 45): the board's count for a search's filters, `{ total, totalCapped }`
 * (exact up to 1,000, then "1,000+"). Its own request, fetched once the page's rows have come
 * (`enabled`), so the page never waits for it; keyed by the filters alone, so paging, sorting and
 * every screen asking for the same filters (the board, the home page's search) share it (kept 15 s,
 * as the server's Cache-Control says).
 */
export function useBoardCount(query: QueryOf<'/api/v1/loads'>, enabled = true) {
  const { limit: _l, skip: _s, cursor: _c, sort: _o, count: _n, ...filters } = query;
  return useQuery({
    queryKey: ['loads', 'count', filters],
    queryFn: ({ signal }) => unwrap(masar.GET('/api/v1/loads/count', { params: { query: filters }, signal })),
    staleTime: 15_000,
    enabled,
  });
}
