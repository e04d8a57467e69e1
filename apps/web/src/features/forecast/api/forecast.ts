import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateRateAlertBody, RateKind, UpdateRateAlertBody } from '@masar/shared';
import { idempotent, masar, unwrap } from '../../../lib/api';

/** The lane a forecast or an alert is about (city ids; equipment code or null for every equipment). */
export interface LaneQuery {
  origin: number;
  destination: number;
  equipment: string | null;
  kind: RateKind;
}

/** GET /rates/forecast for a lane (public; the server caches a fitted lane for the day). */
export function useRateForecast(lane: LaneQuery | null) {
  return useQuery({
    queryKey: ['rates', 'forecast', lane],
    queryFn: ({ signal }) =>
      unwrap(
        masar.GET('/api/v1/rates/forecast', {
          params: {
            query: { origin: lane!.origin, destination: lane!.destination, kind: lane!.kind, ...(lane!.equipment ? { equipment: lane!.equipment } : {}) },
          },
          signal,
        }),
      ),
    enabled: lane != null,
    staleTime: 10 * 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** My account's rate-change alerts, newest first (at most 20). */
export function useRateAlerts() {
  return useQuery({
    queryKey: ['rateAlerts'],
    queryFn: () => unwrap(masar.GET('/api/v1/rateAlerts')).then((d) => d.items),
  });
}

const useInvalidate = () => {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['rateAlerts'] });
};

/** Create an alert (one Idempotency-Key per form submission attempt). */
export function useCreateRateAlert() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ body, key }: { body: CreateRateAlertBody; key: string }) => unwrap(masar.POST('/api/v1/rateAlerts', { body, headers: idempotent(key) })),
    onSuccess: invalidate,
  });
}

/** Pause/resume or change an alert. */
export function useUpdateRateAlert() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateRateAlertBody }) => unwrap(masar.PATCH('/api/v1/rateAlerts/{id}', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  });
}

export function useDeleteRateAlert() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => unwrap(masar.DELETE('/api/v1/rateAlerts/{id}', { params: { path: { id } } })),
    onSuccess: invalidate,
  });
}
