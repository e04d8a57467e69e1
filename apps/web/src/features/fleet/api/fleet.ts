import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AVAILABILITIES, FLEET_STATES, WASL_STATUSES, type Driver, type FleetItem, type Trailer, type Vehicle } from '@masar/shared';
import { masar, oneOf, unwrap, type BodyOf, type QueryOf } from '../../../lib/api';

export type FleetKind = 'vehicle' | 'trailer' | 'driver';
const KINDS = { vehicle: 'vehicles', trailer: 'trailers', driver: 'drivers' } as const;
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
  const query: QueryOf<'/api/v1/fleet'> = {
    tab: f.tab,
    search: f.search,
    state: oneOf(FLEET_STATES, f.state),
    availability: oneOf(AVAILABILITIES, f.availability),
    wasl: oneOf(WASL_STATUSES, f.wasl),
    limit: f.pageSize,
    skip: (f.page - 1) * f.pageSize,
  };
  return useQuery({
    queryKey: ['fleet', 'list', query],
    queryFn: ({ signal }) => unwrap(masar.GET('/api/v1/fleet', { params: { query: query }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** GET /vehicles/:id, /trailers/:id or /drivers/:id. */
function getFleetItem(kind: FleetKind, id: string): Promise<Vehicle | Trailer | Driver> {
  const params = { path: { id } };
  if (kind === 'vehicle') return unwrap(masar.GET('/api/v1/vehicles/{id}', { params }));
  if (kind === 'trailer') return unwrap(masar.GET('/api/v1/trailers/{id}', { params }));
  return unwrap(masar.GET('/api/v1/drivers/{id}', { params }));
}

export function useFleetItem(kind: FleetKind | null, id: string | null) {
  return useQuery({
    queryKey: ['fleet', kind, id],
    queryFn: () => getFleetItem(kind!, id!),
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
    mutationFn: ({ kind, id }: { kind: 'vehicle' | 'driver'; id: string }) =>
      unwrap(masar.POST(kind === 'vehicle' ? '/api/v1/vehicles/{id}/wasl' : '/api/v1/drivers/{id}/wasl', { params: { path: { id } } })),
    onSuccess: () => invalidate(),
  });
}

export function useFleetAction() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: ({ kind, id, action }: { kind: FleetKind; id: string; action: FleetAction }) =>
      action === 'delete'
        ? unwrap(masar.DELETE(`/api/v1/${KINDS[kind]}/{id}`, { params: { path: { id } } }))
        : unwrap(masar.POST(`/api/v1/${KINDS[kind]}/{id}/${action}`, { params: { path: { id } } })),
    onSuccess: () => invalidate(),
  });
}

/** Create (POST /vehicles) or edit (PATCH /vehicles/:id) a vehicle; `body` is the form's values parsed by the shared schema. */
export function useSaveVehicle() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: (v: { id: string; body: BodyOf<'/api/v1/vehicles/{id}', 'patch'> } | { id?: undefined; body: BodyOf<'/api/v1/vehicles', 'post'> }) =>
      v.id !== undefined
        ? unwrap(masar.PATCH('/api/v1/vehicles/{id}', { params: { path: { id: v.id } }, body: v.body }))
        : unwrap(masar.POST('/api/v1/vehicles', { body: v.body })),
    onSuccess: () => invalidate(),
  });
}

/** Create (POST /trailers) or edit (PATCH /trailers/:id) a trailer. */
export function useSaveTrailer() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: (v: { id: string; body: BodyOf<'/api/v1/trailers/{id}', 'patch'> } | { id?: undefined; body: BodyOf<'/api/v1/trailers', 'post'> }) =>
      v.id !== undefined
        ? unwrap(masar.PATCH('/api/v1/trailers/{id}', { params: { path: { id: v.id } }, body: v.body }))
        : unwrap(masar.POST('/api/v1/trailers', { body: v.body })),
    onSuccess: () => invalidate(),
  });
}

/** Create (POST /drivers) or edit (PATCH /drivers/:id) a driver. */
export function useSaveDriver() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: (v: { id: string; body: BodyOf<'/api/v1/drivers/{id}', 'patch'> } | { id?: undefined; body: BodyOf<'/api/v1/drivers', 'post'> }) =>
      v.id !== undefined
        ? unwrap(masar.PATCH('/api/v1/drivers/{id}', { params: { path: { id: v.id } }, body: v.body }))
        : unwrap(masar.POST('/api/v1/drivers', { body: v.body })),
    onSuccess: () => invalidate(),
  });
}

/** Vehicle links: assign/unassign a driver, link/unlink a trailer. */
export function useVehicleLink() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: ({
      id,
      action,
      body,
    }: {
      id: string;
      action: 'assign-driver' | 'unassign-driver' | 'link-trailer' | 'unlink-trailer';
      body?: { driverId: string } | { trailerId: string };
    }) => unwrap(masar.POST(`/api/v1/vehicles/{id}/${action}`, { params: { path: { id } }, body })),
    onSuccess: () => invalidate(),
  });
}

/** Options for selects (drivers / trailers), active ones first page of 100. */
export function useDriverOptions(enabled = true) {
  return useQuery({
    queryKey: ['fleet', 'options', 'driver'],
    queryFn: () => unwrap(masar.GET('/api/v1/drivers', { params: { query: { limit: 100, state: 'active' } } })).then((d) => d.items),
    enabled,
  });
}
export function useTrailerOptions(enabled = true) {
  return useQuery({
    queryKey: ['fleet', 'options', 'trailer'],
    queryFn: () => unwrap(masar.GET('/api/v1/trailers', { params: { query: { limit: 100, state: 'active' } } })).then((d) => d.items),
    enabled,
  });
}

/** GET /drivers/:id/link → the driver's signed job link. */
export function fetchDriverLink(id: string) {
  return unwrap(masar.GET('/api/v1/drivers/{id}/link', { params: { path: { id } } }));
}

/** POST /drivers/:id/link/sms: the job link goes to the driver's phone by SMS. */
export function useSendDriverLinkSms() {
  return useMutation({ mutationFn: (id: string) => unwrap(masar.POST('/api/v1/drivers/{id}/link/sms', { params: { path: { id } } })) });
}
