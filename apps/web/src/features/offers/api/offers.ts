import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { masar, unwrap } from '../../../lib/api';

/** The offers on a load (its owner's view). */
export function useLoadOffers(loadId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['offers', 'load', loadId],
    queryFn: () => unwrap(masar.GET('/api/v1/offers', { params: { query: { loadId } } })).then((d) => d.items),
    enabled: !!loadId && enabled,
  });
}

/** My sent offers (a carrier's bids), to find the one on a given load. */
export function useSentOffers(enabled: boolean) {
  return useQuery({
    queryKey: ['offers', 'box', 'sent'],
    queryFn: () => unwrap(masar.GET('/api/v1/offers', { params: { query: { box: 'sent', limit: 100 } } })).then((d) => d.items),
    enabled,
  });
}

export function usePlaceBid() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { loadId: string; priceSar: string }) => unwrap(masar.POST('/api/v1/offers', { body })),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: ['offers'] }), qc.invalidateQueries({ queryKey: ['load'] })]),
  });
}
