import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeAudienceBody, CreateLoadBody, ExtendDatesBody, MyLoadsTab, UpdateLoadBody } from '@masar/shared';
import { ApiError, idempotent, masar, unwrap, type QueryOf } from '../../../lib/api';
import { useBoardCount } from '../../../components/boardCount';

/** Every tab's count, exact up to COUNT_CAP (1,000); countsCapped says which tab has more. */
export type MyLoadsCounts = Record<MyLoadsTab, number>;

export function useLoad(id: string | undefined) {
  return useQuery({ queryKey: ['load', id], queryFn: () => unwrap(masar.GET('/api/v1/loads/{id}', { params: { path: { id: id! } } })), enabled: !!id });
}

/** GET /loads as a query (key and fetch), shared by the board page and its prefetch (../prefetch.ts). */
export const searchLoadsQuery = (query: QueryOf<'/api/v1/loads'>) =>
  queryOptions({
    queryKey: ['loads', 'search', query],
    queryFn: ({ signal }) => unwrap(masar.GET('/api/v1/loads', { params: { query: query }, signal })),
  });

export function useSearchLoads(query: QueryOf<'/api/v1/loads'>, enabled = true) {
  return useQuery({ ...searchLoadsQuery(query), placeholderData: keepPreviousData, enabled });
}

/** useBoardCount's answer (`count`: undefined until it comes) and its total and cap (0 and false meanwhile). */
export function useBoardTotal(query: QueryOf<'/api/v1/loads'>, enabled = true) {
  const count = useBoardCount(query, enabled).data;
  return { count, total: count?.total ?? 0, totalCapped: count?.totalCapped ?? false };
}

/** A tab of my loads: a numbered page (`skip`) or, past them, the page after `cursor` (nextCursor). */
export function useMyLoads(tab: MyLoadsTab, limit: number, skip: number, cursor: string | null = null) {
  return useQuery({
    queryKey: ['myLoads', tab, limit, skip, cursor],
    queryFn: () => unwrap(masar.GET('/api/v1/my-loads', { params: { query: cursor ? { tab, limit, cursor } : { tab, limit, skip } } })),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateLoads() {
  const qc = useQueryClient();
  return () =>
    Promise.all([qc.invalidateQueries({ queryKey: ['myLoads'] }), qc.invalidateQueries({ queryKey: ['load'] }), qc.invalidateQueries({ queryKey: ['loads'] })]);
}

/**
 * Create (POST /loads) or edit (PATCH /loads/:id) a load. Editing keeps the load's board
 * status; with `repost`, an unposted or expired load is put back on the board after saving.
 */
export function useSaveLoad(editId: string | null) {
  const invalidate = useInvalidateLoads();
  return useMutation({
    mutationFn: async ({ body, repost }: { body: CreateLoadBody; repost?: boolean }) => {
      if (!editId) return unwrap(masar.POST('/api/v1/loads', { body }));
      const { post: _post, shipmentType: _type, vendorIds: _vendors, ...patch } = body;
      const saved = await unwrap(masar.PATCH('/api/v1/loads/{id}', { params: { path: { id: editId } }, body: patch satisfies UpdateLoadBody }));
      return repost ? unwrap(masar.POST('/api/v1/loads/{id}/repost', { params: { path: { id: editId } }, body: {} })) : saved;
    },
    onSuccess: invalidate,
  });
}

export type LoadAction = 'unpost' | 'repost' | 'duplicate' | 'delete';

export function useLoadAction() {
  const invalidate = useInvalidateLoads();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: LoadAction }) =>
      action === 'delete'
        ? unwrap(masar.DELETE('/api/v1/loads/{id}', { params: { path: { id } } }))
        : unwrap(masar.POST(`/api/v1/loads/{id}/${action}`, { params: { path: { id } }, body: {} })),
    onSuccess: invalidate,
  });
}

/** My vendors, to choose the audience of a vendor shipment (the first 100). */
export function useMyVendorOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['vendors', 'options'],
    queryFn: () => unwrap(masar.GET('/api/v1/vendors', { params: { query: { limit: 100 } } })).then((d) => d.items),
    enabled,
  });
}

/** Bookmark or un-bookmark a load (POST / DELETE /loads/:id/bookmark). */
export function useBookmark() {
  const invalidate = useInvalidateLoads();
  return useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) =>
      on
        ? unwrap(masar.POST('/api/v1/loads/{id}/bookmark', { params: { path: { id } } }))
        : unwrap(masar.DELETE('/api/v1/loads/{id}/bookmark', { params: { path: { id } } })),
    onSuccess: invalidate,
  });
}

/** POST /loads/:id/extend-dates. */
export function useExtendDates() {
  const invalidate = useInvalidateLoads();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ExtendDatesBody }) =>
      unwrap(masar.POST('/api/v1/loads/{id}/extend-dates', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  });
}

/** POST /loads/:id/audience: marketplace, my vendors or own vehicle. */
export function useChangeAudience() {
  const invalidate = useInvalidateLoads();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ChangeAudienceBody }) =>
      unwrap(masar.POST('/api/v1/loads/{id}/audience', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  });
}

/**
 * Book a Book Now load at its posted price (POST /bookNow; issue 19). `priceSar` is the amount
 * the carrier confirmed; `key` the Idempotency-Key of this confirmation (a retry reuses it).
 */
export function useBookNow() {
  const invalidate = useInvalidateLoads();
  return useMutation({
    mutationFn: ({ loadId, priceSar, key }: { loadId: string; priceSar: string; key: string }) =>
      unwrap(masar.POST('/api/v1/bookNow', { body: { loadId, priceSar }, headers: idempotent(key) })),
    onSuccess: invalidate,
  });
}

/** Backhauls of a shipment I carry (GET /backHaulLoads): open loads near its drop, from its delivery day. */
export function useBackhauls(loadId: string, radius: number, enabled: boolean) {
  return useQuery({
    queryKey: ['loads', 'backhauls', loadId, radius],
    queryFn: () => unwrap(masar.GET('/api/v1/backHaulLoads', { params: { query: { loadId, radius, limit: 20 } } })),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** Payment protection of a protected load (GET /loads/:id/escrow, issue 50): shipper and booked carrier; null when it has none yet. */
export function useEscrow(loadId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['loads', 'escrow', loadId],
    queryFn: () =>
      unwrap(masar.GET('/api/v1/loads/{id}/escrow', { params: { path: { id: loadId } } })).catch((e: unknown) => {
        // booked a moment ago: the escrow opens when the booking event is handled
        if (e instanceof ApiError && e.code === 'ESCROW_NOT_FOUND') return null;
        throw e;
      }),
    enabled,
  });
}

/** The shipper funds an unfunded escrow from its wallet (POST /loads/:id/escrow/fund). */
export function useFundEscrow(loadId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => unwrap(masar.POST('/api/v1/loads/{id}/escrow/fund', { params: { path: { id: loadId } }, headers: idempotent(key) })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['loads', 'escrow', loadId] }),
  });
}

/** Detention per stop from the trip's step times (GET /loads/:id/detention, issue 50); refreshed every minute while it accrues. */
export function useDetention(loadId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['loads', 'detention', loadId],
    queryFn: () => unwrap(masar.GET('/api/v1/loads/{id}/detention', { params: { path: { id: loadId } } })),
    enabled,
    refetchInterval: (q) => (q.state.data?.stops.some((s) => s.accruing) ? 60_000 : false),
  });
}

/** The shipper accepts or disputes a stop's detention (POST /loads/:id/detention/decide). */
export function useDecideDetention(loadId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { key: string; stop: 'pickup' | 'drop'; decision: 'accept' | 'dispute'; reason?: string }) =>
      unwrap(
        masar.POST('/api/v1/loads/{id}/detention/decide', {
          params: { path: { id: loadId } },
          body: { stop: v.stop, decision: v.decision, ...(v.reason ? { reason: v.reason } : {}) },
          headers: idempotent(v.key),
        }),
      ),
    onSuccess: (data) => qc.setQueryData(['loads', 'detention', loadId], data),
  });
}
