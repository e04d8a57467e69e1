import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { masar, unwrap, type QueryOf } from '../../../lib/api';

export type LaneRateQuery = QueryOf<'/api/v1/rates/lane'>;
export type LaneHistoryQuery = QueryOf<'/api/v1/rates/lane/history'>;

/** The lane rate index for a lane × equipment × kind × window (GET /rates/lane); idle while `query` is null. */
export function useLaneRate(query: LaneRateQuery | null) {
  return useQuery({
    queryKey: ['rates', 'lane', query],
    queryFn: ({ signal }) => unwrap(masar.GET('/api/v1/rates/lane', { params: { query: query! }, signal })),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** The lane's 13 months and my bookings on it (GET /rates/lane/history). */
export function useLaneHistory(query: LaneHistoryQuery | null) {
  return useQuery({
    queryKey: ['rates', 'history', query],
    queryFn: ({ signal }) => unwrap(masar.GET('/api/v1/rates/lane/history', { params: { query: query! }, signal })),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
