import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Assignment, Vehicle } from '@masar/shared';
import { api, ApiError } from '../../../lib/api';

/** GET /delivery-tracking/:loadId — the vehicle, driver and trailer of a shipment. */
export function useAssignment(loadId: string, enabled = true) {
  return useQuery({ queryKey: ['assignment', loadId], queryFn: () => api.get<Assignment>(`/delivery-tracking/${loadId}`), enabled });
}

/** GET /vehicles/for-assignment — my vehicles ready for a job; an empty list when none (NO_VEHICLES_FOR_ASSIGNMENT). */
export function useVehiclesForAssignment(enabled: boolean) {
  return useQuery({
    queryKey: ['fleet', 'for-assignment'],
    enabled,
    queryFn: async () => {
      try {
        return (await api.get<{ items: Vehicle[] }>('/vehicles/for-assignment')).items;
      } catch (e) {
        if (e instanceof ApiError && e.code === 'NO_VEHICLES_FOR_ASSIGNMENT') return [];
        throw e;
      }
    },
  });
}

function useRefresh(loadId: string) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: ['assignment', loadId] });
    void qc.invalidateQueries({ queryKey: ['load', loadId] });
    void qc.invalidateQueries({ queryKey: ['myLoads'] });
    void qc.invalidateQueries({ queryKey: ['fleet'] });
  };
}

/** POST /delivery-tracking/assign-driver with one Idempotency-Key per attempt of the dialog. */
export function useAssign(loadId: string) {
  const refresh = useRefresh(loadId);
  return useMutation({
    mutationFn: (v: { vehicleId: string; key: string }) =>
      api.post<Assignment>('/delivery-tracking/assign-driver', { loadId, vehicleId: v.vehicleId }, { idempotencyKey: v.key }),
    onSuccess: refresh,
  });
}

/** POST /delivery-tracking/unassign-driver. */
export function useUnassign(loadId: string) {
  const refresh = useRefresh(loadId);
  return useMutation({ mutationFn: () => api.post<Assignment>('/delivery-tracking/unassign-driver', { loadId }), onSuccess: refresh });
}

/** POST /delivery-tracking/:loadId/complete — a shipment without Bayan (under 3.5 t), after delivery. */
export function useCompleteWithoutBayan(loadId: string) {
  const refresh = useRefresh(loadId);
  return useMutation({ mutationFn: () => api.post<Assignment>(`/delivery-tracking/${loadId}/complete`), onSuccess: refresh });
}
