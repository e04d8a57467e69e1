import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateTruckBody, UpdateTruckBody } from '@masar/shared';
import { idempotent, masar, unwrap, type QueryOf } from '../../../lib/api';

export type MyTrucksTab = 'all' | 'posted' | 'unposted' | 'expired';
export type TruckSearchQuery = QueryOf<'/api/v1/searchTrucks'>;

/** My truck posts of a tab, page after page (keyset cursor). */
export function useMyTrucks(tab: MyTrucksTab) {
  return useInfiniteQuery({
    queryKey: ['trucks', 'mine', tab],
    queryFn: ({ pageParam }) => unwrap(masar.GET('/api/v1/trucks', { params: { query: { tab, limit: 20, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** The truck board, page after page (keyset cursor: no total). */
export function useSearchTrucks(query: TruckSearchQuery, enabled = true) {
  return useInfiniteQuery({
    queryKey: ['trucks', 'search', query],
    queryFn: ({ pageParam, signal }) =>
      unwrap(masar.GET('/api/v1/searchTrucks', { params: { query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } }, signal })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * GET /searchTrucks/count (issue 45): the truck board's count for a search's filters, `{ total,
 * totalCapped }` (exact up to 1,000, then "1,000+"). Its own request, fetched once the page's rows
 * have come (`enabled`), so the page never waits for it; keyed by the filters alone (paging and
 * sort share it), kept 15 s as the server's Cache-Control says.
 */
export function useTruckBoardCount(query: TruckSearchQuery, enabled = true) {
  const { limit: _l, cursor: _c, sort: _s, ...filters } = query;
  return useQuery({
    queryKey: ['trucks', 'count', filters],
    queryFn: ({ signal }) => unwrap(masar.GET('/api/v1/searchTrucks/count', { params: { query: filters }, signal })),
    staleTime: 15_000,
    enabled,
  });
}

/** My active vehicles (to attach one to a truck post). */
export function useMyVehicles(enabled = true) {
  return useQuery({
    queryKey: ['trucks', 'vehicles'],
    queryFn: () => unwrap(masar.GET('/api/v1/vehicles')).then((d) => d.items.filter((v) => v.state === 'active')),
    enabled,
    staleTime: 60_000,
  });
}

const useInvalidate = () => {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['trucks'] });
};

/** Post (POST /truck, with an Idempotency-Key per form) or edit (PATCH /truck/:id) a truck. */
export function useSaveTruck(editId: string | null) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ body, key }: { body: CreateTruckBody; key: string }) => {
      if (!editId) return unwrap(masar.POST('/api/v1/truck', { body, headers: idempotent(key) }));
      const { post: _post, ...patch } = body;
      return unwrap(masar.PATCH('/api/v1/truck/{id}', { params: { path: { id: editId } }, body: patch satisfies UpdateTruckBody }));
    },
    onSuccess: invalidate,
  });
}

export type TruckAction = 'unpost' | 'repost' | 'duplicate' | 'delete';

export function useTruckAction() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: TruckAction }) => {
      const path = { params: { path: { id } } };
      if (action === 'delete') return unwrap(masar.DELETE('/api/v1/truck/{id}', path));
      if (action === 'unpost') return unwrap(masar.POST('/api/v1/truck/{id}/unpost', path));
      if (action === 'repost') return unwrap(masar.POST('/api/v1/truck/{id}/repost', { ...path, body: {} }));
      return unwrap(masar.POST('/api/v1/truck/{id}/duplicate', { ...path, headers: idempotent(crypto.randomUUID()) }));
    },
    onSuccess: invalidate,
  });
}

/** Backhauls of my posted truck from its destination city (GET /truck/:id/backhauls). */
export function useTruckBackhauls(truckId: string | null, radius: number) {
  return useQuery({
    queryKey: ['trucks', 'backhauls', truckId, radius],
    queryFn: () => unwrap(masar.GET('/api/v1/truck/{id}/backhauls', { params: { path: { id: truckId! }, query: { radius, limit: 20 } } })),
    enabled: truckId !== null,
    placeholderData: keepPreviousData,
  });
}

/** What the truck search offers (GET /truckFilters): the spec's radius options and the rest. */
export function useTruckFilters() {
  return useQuery({ queryKey: ['trucks', 'filters'], queryFn: () => unwrap(masar.GET('/api/v1/truckFilters')), staleTime: 3_600_000 });
}

export type InOutKind = 'trucks' | 'loads';
export type InOutQuery = QueryOf<'/api/v1/truckInOutLogs'>;

/**
 * A truck in/out (`trucks`) or shipment in/out (`loads`) log, page after page (keyset cursor),
 * with both directions' counts and the area's ratio on every page. `refreshedAt` > 0: the
 * Refresh button was pressed — a new key, read through the …/refresh endpoints (never cached).
 */
export function useInOutLog(kind: InOutKind, query: InOutQuery | null, refreshedAt: number) {
  return useInfiniteQuery({
    queryKey: ['trucks', 'inout', kind, query, refreshedAt],
    queryFn: async ({ pageParam, signal }) => {
      const params = { query: { ...query!, ...(pageParam ? { cursor: pageParam } : {}) } };
      if (kind === 'trucks')
        return unwrap(refreshedAt ? masar.GET('/api/v1/truckInOutLogs/refresh', { params, signal }) : masar.GET('/api/v1/truckInOutLogs', { params, signal }));
      return unwrap(refreshedAt ? masar.GET('/api/v1/loadInOutLogs/refresh', { params, signal }) : masar.GET('/api/v1/loadInOutLogs', { params, signal }));
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    enabled: query !== null,
  });
}
