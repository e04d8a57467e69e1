import { useQuery } from '@tanstack/react-query';
import { BAYAN_TRIP_STATUSES } from '@masar/shared';
import { masar, oneOf, unwrap } from '../../lib/api';

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
  unwrap(
    masar.GET('/api/v1/bayan/list', {
      params: {
        query: {
          status: oneOf(BAYAN_TRIP_STATUSES, f.status),
          reference: f.reference?.trim() || undefined,
          from: f.from ? new Date(`${f.from}T00:00:00+03:00`).toISOString() : undefined,
          to: f.to ? new Date(`${f.to}T23:59:59+03:00`).toISOString() : undefined,
          cursor,
          limit: 20,
        },
      },
    }),
  );

export const useLoadBayan = (loadId: string) =>
  useQuery({ queryKey: BAYAN.ofLoad(loadId), queryFn: () => unwrap(masar.GET('/api/v1/bayan/trips', { params: { query: { loadId } } })).then((d) => d.bayan) });

export const useWaybillConfig = () =>
  useQuery({ queryKey: BAYAN.config, queryFn: () => unwrap(masar.GET('/api/v1/account/waybill-config')).then((d) => d.config) });

/** A fresh Idempotency-Key for one Bayan request (kept while the user retries it). */
export const newBayanKey = () => crypto.randomUUID();
