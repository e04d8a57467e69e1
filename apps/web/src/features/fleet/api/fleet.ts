import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Driver, FleetItem, Trailer, Vehicle, WaslResultView } from '@masar/shared';
import { api, type Query } from '../../../lib/api';

export type FleetKind = 'vehicle' | 'trailer' | 'driver';
export const KIND_PATH: Record<FleetKind, string> = { vehicle: '/vehicles', trailer: '/trailers', driver: '/drivers' };
/** Fleet tabs (spec §2): All 0, Driver 1, Trailer 2, Vehicle 3. */
export const FLEET_TABS = [0, 1, 2, 3] as const;
export const TAB_KIND: Record<number, FleetKind | null> = { 0: null, 1: 'driver', 2: 'trailer', 3: 'vehicle' };

export type { Driver, FleetItem, Trailer, Vehicle } from '@masar/shared';

/** A row of a fleet list: the record plus its state. */
export type FleetRow = (Vehicle | Trailer | Driver) & { state: string };

export interface FleetFilters {
  tab: number;
  search?: string;
  state?: string;
  availability?: string;
  wasl?: string;
  page: number;
  pageSize: number;
}

export function useFleet(f: FleetFilters) {
  const query: Query = {
    tab: f.tab,
    search: f.search,
    state: f.state,
    availability: f.availability,
    wasl: f.wasl,
    limit: f.pageSize,
    skip: (f.page - 1) * f.pageSize,
  };
  return useQuery({
    queryKey: ['fleet', 'list', query],
    queryFn: ({ signal }) => api.get<FleetListAnswer>('/fleet', query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useFleetItem<T>(kind: FleetKind | null, id: string | null) {
  return useQuery({
    queryKey: ['fleet', kind, id],
    queryFn: () => api.get<T>(`${KIND_PATH[kind!]}/${id}`),
    enabled: !!kind && !!id && id !== 'new',
  });
}

export interface FleetListAnswer {
  items: FleetItem[];
  total: number;
  counts?: { all: number; drivers: number; trailers: number; vehicles: number };
}

/** The record inside a GET /fleet item. */
export function itemRecord(item: FleetItem): FleetRow {
  return item.kind === 'vehicle' ? item.vehicle : item.kind === 'trailer' ? item.trailer : item.driver;
}

export function useInvalidateFleet() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['fleet'] });
}

export type FleetAction = 'suspend' | 'activate' | 'delete';

/** POST /vehicles/:id/wasl or /drivers/:id/wasl: register with WASL; answers the new status and WASL's reasons. */
export function useRegisterWasl() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: 'vehicle' | 'driver'; id: string }) => api.post<WaslResultView>(`${KIND_PATH[kind]}/${id}/wasl`),
    onSuccess: () => invalidate(),
  });
}

export function useFleetAction() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: ({ kind, id, action }: { kind: FleetKind; id: string; action: FleetAction }) =>
      action === 'delete' ? api.delete(`${KIND_PATH[kind]}/${id}`) : api.post(`${KIND_PATH[kind]}/${id}/${action}`),
    onSuccess: () => invalidate(),
  });
}

export function useSaveFleetItem(kind: FleetKind) {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string | null; body: unknown }) =>
      id ? api.patch<FleetRow>(`${KIND_PATH[kind]}/${id}`, body) : api.post<FleetRow>(KIND_PATH[kind], body),
    onSuccess: () => invalidate(),
  });
}

/** Vehicle links: assign/unassign a driver, link/unlink a trailer. */
export function useVehicleLink() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: string; action: 'assign-driver' | 'unassign-driver' | 'link-trailer' | 'unlink-trailer'; body?: unknown }) =>
      api.post(`/vehicles/${id}/${action}`, body ?? {}),
    onSuccess: () => invalidate(),
  });
}

/** Options for selects (drivers / trailers), active ones first page of 100. */
export function useFleetOptions<T>(kind: 'driver' | 'trailer', enabled = true) {
  return useQuery({
    queryKey: ['fleet', 'options', kind],
    queryFn: () => api.get<{ items: T[]; total: number }>(KIND_PATH[kind], { limit: 100, state: 'active' }).then((d) => d.items),
    enabled,
  });
}

/** GET /drivers/:id/link → the driver's signed job link. */
export function fetchDriverLink(id: string) {
  return api.get<{ url: string }>(`/drivers/${id}/link`);
}
