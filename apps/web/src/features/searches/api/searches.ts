import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SearchFilters, SearchKind } from '@masar/shared';
import { idempotent, masar, unwrap } from '../../../lib/api';

/** My saved searches of a kind, newest first (at most 50: one list). */
export function useSavedSearches(kind: SearchKind, enabled = true) {
  return useQuery({
    queryKey: ['searches', 'saved', kind],
    queryFn: () => unwrap(masar.GET('/api/v1/savedSearches', { params: { query: { kind } } })).then((d) => d.items),
    enabled,
  });
}

/** My last 10 searches of a kind, most recent first. */
export function useRecentSearches(kind: SearchKind, enabled = true) {
  return useQuery({
    queryKey: ['searches', 'recent', kind],
    queryFn: () => unwrap(masar.GET('/api/v1/recentSearches', { params: { query: { kind } } })).then((d) => d.items),
    enabled,
  });
}

const useInvalidate = () => {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['searches'] });
};

/** Save a search (POST /savedSearches, one Idempotency-Key per dialog) — 409 DUPLICATE_SEARCH when it is saved already. */
export function useSaveSearch() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ kind, name, filters, key }: { kind: SearchKind; name: string; filters: SearchFilters; key: string }) =>
      unwrap(masar.POST('/api/v1/savedSearches', { body: { kind, name, filters }, headers: idempotent(key) })),
    onSuccess: invalidate,
  });
}

export function useRenameSearch() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => unwrap(masar.PATCH('/api/v1/savedSearches/{id}', { params: { path: { id } }, body: { name } })),
    onSuccess: invalidate,
  });
}

/** Delete a saved (`saved`) or recent (`recent`) search. */
export function useDeleteSearch() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, list }: { id: string; list: 'saved' | 'recent' }) =>
      list === 'saved'
        ? unwrap(masar.DELETE('/api/v1/savedSearches/{id}', { params: { path: { id } } }))
        : unwrap(masar.DELETE('/api/v1/recentSearches/{id}', { params: { path: { id } } })),
    onSuccess: invalidate,
  });
}

/** Record a search I ran among my recent ones (POST /recentSearches). */
export function useRecordRecent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, filters }: { kind: SearchKind; filters: SearchFilters }) =>
      unwrap(masar.POST('/api/v1/recentSearches', { body: { kind, filters }, headers: idempotent(crypto.randomUUID()) })),
    onSuccess: (_d, v) => qc.invalidateQueries({ queryKey: ['searches', 'recent', v.kind] }),
  });
}
