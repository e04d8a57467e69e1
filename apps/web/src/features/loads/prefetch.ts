import type { QueryClient } from '@tanstack/react-query';
import { searchLoadsQuery } from './api/loads';
import { boardQueryOf, parseFilters } from './utils/searchParams';

/**
 * Start the board's first search before the page renders (issue 23: the first result row).
 * main.tsx calls it through app/routes.tsx's prefetchRouteData as soon as the entry runs, beside
 * the page's chunk: on this machine the first render takes 0.6–0.8 s of script, and the rows
 * waited for it and then for the search. The query is the page's own (same key), so the page
 * finds the answer in the cache, or the request in flight, and does not send a second one.
 * `search` is location.search (the filters live in the URL).
 */
export function prefetchLoadSearch(queryClient: QueryClient, search: string): Promise<void> {
  return queryClient.prefetchQuery(searchLoadsQuery(boardQueryOf(parseFilters(new URLSearchParams(search)))));
}
