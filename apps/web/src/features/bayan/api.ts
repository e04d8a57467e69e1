import { useQuery } from '@tanstack/react-query';
import type { BayanTripView, LoadBayan, WaybillConfig } from '@masar/shared';
import { api } from '../../lib/api';

/** Query keys and readers of the Bayan screens (issue 7; server modules/bayan). */
export const BAYAN = {
  list: ['bayan', 'list'],
  ofLoad: (loadId: string) => ['bayan', 'load', loadId],
  config: ['bayan', 'waybill-config'],
} as const;

export interface BayanFilters {
  status?: string;
  reference?: string;
  from?: string;
  to?: string;
}

/** One page of GET /bayan/list (keyset: `cursor` is the previous page's nextCursor). */
export const fetchBayanPage = (f: BayanFilters, cursor?: string) =>
  api.get<{ items: BayanTripView[]; nextCursor: string | null }>('/bayan/list', {
    status: f.status || undefined,
    reference: f.reference?.trim() || undefined,
    from: f.from ? new Date(`${f.from}T00:00:00+03:00`).toISOString() : undefined,
    to: f.to ? new Date(`${f.to}T23:59:59+03:00`).toISOString() : undefined,
    cursor,
    limit: 20,
  });

export const useLoadBayan = (loadId: string) =>
  useQuery({ queryKey: BAYAN.ofLoad(loadId), queryFn: () => api.get<LoadBayan>('/bayan/trips', { loadId }).then((d) => d.bayan) });

export const useWaybillConfig = () =>
  useQuery({ queryKey: BAYAN.config, queryFn: () => api.get<{ config: WaybillConfig | null }>('/account/waybill-config').then((d) => d.config) });

/** A fresh Idempotency-Key for one Bayan request (kept while the user retries it). */
export const newBayanKey = () => crypto.randomUUID();
