import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { ApiError, masar, unwrap, idempotent } from '../../../lib/api';

/** GET /delivery-tracking/:loadId — the vehicle, driver and trailer of a shipment. */
export function useAssignment(loadId: string, enabled = true) {
  return useQuery({
    queryKey: ['assignment', loadId],
    queryFn: () => unwrap(masar.GET('/api/v1/delivery-tracking/{loadId}', { params: { path: { loadId } } })),
    enabled,
  });
}

/** GET /vehicles/for-assignment — my vehicles ready for a job; an empty list when none (NO_VEHICLES_FOR_ASSIGNMENT). */
export function useVehiclesForAssignment(enabled: boolean) {
  return useQuery({
    queryKey: ['fleet', 'for-assignment'],
    enabled,
    queryFn: async () => {
      try {
        return (await unwrap(masar.GET('/api/v1/vehicles/for-assignment'))).items;
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
      unwrap(masar.POST('/api/v1/delivery-tracking/assign-driver', { body: { loadId, vehicleId: v.vehicleId }, headers: idempotent(v.key) })),
    onSuccess: refresh,
  });
}

/** POST /delivery-tracking/unassign-driver. */
export function useUnassign(loadId: string) {
  const refresh = useRefresh(loadId);
  return useMutation({ mutationFn: () => unwrap(masar.POST('/api/v1/delivery-tracking/unassign-driver', { body: { loadId } })), onSuccess: refresh });
}

/** POST /delivery-tracking/:loadId/complete — a shipment without Bayan (under 3.5 t), after delivery. */
export function useCompleteWithoutBayan(loadId: string) {
  const refresh = useRefresh(loadId);
  return useMutation({
    mutationFn: () => unwrap(masar.POST('/api/v1/delivery-tracking/{loadId}/complete', { params: { path: { loadId } } })),
    onSuccess: refresh,
  });
}
