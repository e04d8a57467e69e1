import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeAudienceBody, CreateLoadBody, ExtendDatesBody, Load, MyLoadsTab, Offer, UpdateLoadBody, Vendor } from '@masar/shared';
import { api, type Query } from '../../../lib/api';

/** Every tab's count, exact up to COUNT_CAP (1,000); countsCapped says which tab has more. */
export type MyLoadsCounts = Record<MyLoadsTab, number>;

export function useLoad(id: string | undefined) {
  return useQuery({ queryKey: ['load', id], queryFn: () => api.get<Load>(`/loads/${id}`), enabled: !!id });
}

export function useSearchLoads(query: Query, enabled = true) {
  return useQuery({
    queryKey: ['loads', 'search', query],
    queryFn: ({ signal }) => api.get<{ items: Load[]; total: number; totalCapped: boolean; nextCursor: string | null }>('/loads', query, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A tab of my loads: a numbered page (`skip`) or, past them, the page after `cursor` (nextCursor). */
export function useMyLoads(tab: MyLoadsTab, limit: number, skip: number, cursor: string | null = null) {
  return useQuery({
    queryKey: ['myLoads', tab, limit, skip, cursor],
    queryFn: () =>
      api.get<{
        items: Load[];
        total: number;
        totalCapped: boolean;
        nextCursor: string | null;
        counts: MyLoadsCounts;
        countsCapped: Record<MyLoadsTab, boolean>;
      }>('/my-loads', cursor ? { tab, limit, cursor } : { tab, limit, skip }),
    placeholderData: keepPreviousData,
  });
}

export function useLoadOffers(loadId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['offers', 'load', loadId],
    queryFn: () => api.get<{ items: Offer[] }>('/offers', { loadId }).then((d) => d.items),
    enabled: !!loadId && enabled,
  });
}

/** My sent offers (a carrier's bids), to find the one on a given load. */
export function useSentOffers(enabled: boolean) {
  return useQuery({
    queryKey: ['offers', 'box', 'sent'],
    queryFn: () => api.get<{ items: Offer[] }>('/offers', { box: 'sent', limit: 100 }).then((d) => d.items),
    enabled,
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
      if (!editId) return api.post<Load>('/loads', body);
      const { post: _post, shipmentType: _type, vendorIds: _vendors, ...patch } = body;
      const saved = await api.patch<Load>(`/loads/${editId}`, patch satisfies UpdateLoadBody);
      return repost ? api.post<Load>(`/loads/${editId}/repost`, {}) : saved;
    },
    onSuccess: invalidate,
  });
}

export type LoadAction = 'unpost' | 'repost' | 'duplicate' | 'delete';

export function useLoadAction() {
  const invalidate = useInvalidateLoads();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: LoadAction }) =>
      action === 'delete' ? api.delete<unknown>(`/loads/${id}`) : api.post<Load>(`/loads/${id}/${action}`, {}),
    onSuccess: invalidate,
  });
}

export function usePlaceBid() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { loadId: string; priceSar: string }) => api.post<Offer>('/offers', body),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: ['offers'] }), qc.invalidateQueries({ queryKey: ['load'] })]),
  });
}

/** My vendors, to choose the audience of a vendor shipment (the first 100). */
export function useMyVendorOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['vendors', 'options'],
    queryFn: () => api.get<{ items: Vendor[] }>('/vendors', { limit: 100 }).then((d) => d.items),
    enabled,
  });
}

/** Bookmark or un-bookmark a load (POST / DELETE /loads/:id/bookmark). */
export function useBookmark() {
  const invalidate = useInvalidateLoads();
  return useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) => (on ? api.post<null>(`/loads/${id}/bookmark`, {}) : api.delete<null>(`/loads/${id}/bookmark`)),
    onSuccess: invalidate,
  });
}

/** POST /loads/:id/extend-dates. */
export function useExtendDates() {
  const invalidate = useInvalidateLoads();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ExtendDatesBody }) => api.post<Load>(`/loads/${id}/extend-dates`, body),
    onSuccess: invalidate,
  });
}

/** POST /loads/:id/audience: marketplace, my vendors or own vehicle. */
export function useChangeAudience() {
  const invalidate = useInvalidateLoads();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ChangeAudienceBody }) => api.post<Load>(`/loads/${id}/audience`, body),
    onSuccess: invalidate,
  });
}
