import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateTenderBody, TenderAnswerBody, TenderTab } from '@masar/shared';
import { idempotent, masar, unwrap } from '../../../lib/api';

/** My tenders of a tab (sent: my loads; received: invites to me), page after page (keyset cursor). */
export function useTenders(tab: TenderTab, enabled = true) {
  return useInfiniteQuery({
    queryKey: ['tenders', tab],
    queryFn: ({ pageParam }) => unwrap(masar.GET('/api/v1/tenders', { params: { query: { tab, limit: 20, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}

/** My loads a tender may be about: unposted and posted ones (first page of each). */
export function useTenderableLoads(enabled = true) {
  return useQuery({
    queryKey: ['tenders', 'loads'],
    queryFn: async () => {
      const [posted, unposted] = await Promise.all(
        (['posted', 'unposted'] as const).map((tab) => unwrap(masar.GET('/api/v1/my-loads', { params: { query: { tab, limit: 50, skip: 0 } } }))),
      );
      return [...posted.items, ...unposted.items];
    },
    enabled,
    staleTime: 30_000,
  });
}

/** Carriers to pick from: my favourites (carrier and broker accounts) and my vendors. */
export function useTenderCandidates(enabled = true) {
  return useQuery({
    queryKey: ['tenders', 'candidates'],
    queryFn: async () => {
      const [fav, vendors] = await Promise.all([
        unwrap(masar.GET('/api/v1/account/favourite', { params: { query: { limit: 100 } } })),
        unwrap(masar.GET('/api/v1/vendors', { params: { query: { limit: 100, skip: 0 } } })),
      ]);
      return {
        favourites: fav.items.filter((f) => f.accountType === 2 || f.accountType === 3).map((f) => ({ id: f.userId, name: f.companyName })),
        vendors: vendors.items.map((v) => ({ id: v.id, name: v.companyName || v.vendorName })),
      };
    },
    enabled,
    staleTime: 60_000,
  });
}

const useInvalidate = () => {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: ['tenders'] }), qc.invalidateQueries({ queryKey: ['load'] })]);
};

/** POST /tenders with an Idempotency-Key per dialog. */
export function useCreateTender() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ body, key }: { body: CreateTenderBody; key: string }) => unwrap(masar.POST('/api/v1/tenders', { body, headers: idempotent(key) })),
    onSuccess: invalidate,
  });
}

export function useAnswerTender() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TenderAnswerBody }) => unwrap(masar.POST('/api/v1/tenders/{id}/answer', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  });
}

export function useAwardTender() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, inviteId }: { id: string; inviteId: string }) =>
      unwrap(masar.POST('/api/v1/tenders/{id}/award', { params: { path: { id } }, body: { inviteId } })),
    onSuccess: invalidate,
  });
}

export function useCancelTender() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => unwrap(masar.POST('/api/v1/tenders/{id}/cancel', { params: { path: { id } } })),
    onSuccess: invalidate,
  });
}
