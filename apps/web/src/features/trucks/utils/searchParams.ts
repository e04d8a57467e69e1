import { SEARCH_PICKUP_RADIUS_KM, TRUCK_SORTS } from '@masar/shared';
import { dayToIso } from '../../../components/format';
import type { TruckSearchQuery } from '../api/trucks';

/** The truck search's filters as they live in the URL (shareable; a saved search runs by setting them). */
export interface TruckFilters {
  originCityId: number | null;
  radius: number;
  destinationCityId: number | null;
  equipmentType: string | null;
  /** Calendar day (Riyadh), YYYY-MM-DD. */
  date: string | null;
  minCapacityKg: number | '';
  sort: (typeof TRUCK_SORTS)[number];
}
export const EMPTY_TRUCK_FILTERS: TruckFilters = {
  originCityId: null,
  radius: 200,
  destinationCityId: null,
  equipmentType: null,
  date: null,
  minCapacityKg: '',
  sort: 'deadhead',
};

const posInt = (v: string | null) => {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : null;
};

export function parseTruckFilters(p: URLSearchParams): TruckFilters {
  const radius = Number(p.get('radius'));
  const cap = Number(p.get('minCapacityKg'));
  const sort = p.get('sort');
  const date = p.get('date');
  return {
    originCityId: posInt(p.get('originCityId')),
    radius: (SEARCH_PICKUP_RADIUS_KM as readonly number[]).includes(radius) ? radius : 200,
    destinationCityId: posInt(p.get('destinationCityId')),
    equipmentType: p.get('equipmentType') || null,
    date: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null,
    minCapacityKg: p.get('minCapacityKg') && cap > 0 ? cap : '',
    sort: (TRUCK_SORTS as readonly string[]).includes(sort ?? '') ? (sort as TruckFilters['sort']) : 'deadhead',
  };
}

/** Filters → URL params; defaults left out. */
export function truckFiltersToParams(f: TruckFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.originCityId) {
    p.set('originCityId', String(f.originCityId));
    p.set('radius', String(f.radius));
  }
  if (f.destinationCityId) p.set('destinationCityId', String(f.destinationCityId));
  if (f.equipmentType) p.set('equipmentType', f.equipmentType);
  if (f.date) p.set('date', f.date);
  if (f.minCapacityKg !== '') p.set('minCapacityKg', String(f.minCapacityKg));
  if (f.sort !== 'deadhead') p.set('sort', f.sort);
  return p;
}

/** Filters → GET /searchTrucks' query (deadhead needs an origin; the date as the Riyadh day's start). */
export const truckFiltersToQuery = (f: TruckFilters): TruckSearchQuery => ({
  limit: 20,
  sort: f.sort === 'deadhead' && !f.originCityId ? 'date' : f.sort,
  ...(f.originCityId ? { originCityId: f.originCityId, radius: f.radius } : {}),
  ...(f.destinationCityId ? { destinationCityId: f.destinationCityId } : {}),
  ...(f.equipmentType ? { equipmentType: f.equipmentType } : {}),
  ...(f.date ? { date: dayToIso(f.date) } : {}),
  ...(f.minCapacityKg !== '' ? { minCapacityKg: f.minCapacityKg } : {}),
});

/** The search as a saved or recent search stores it: the query without paging (issue 19). */
export function truckFiltersToSearch(f: TruckFilters): Record<string, string | number> {
  const { limit: _l, ...q } = truckFiltersToQuery(f);
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/** A saved or recent search (GET /searchTrucks' query) → the page's filters. */
export function searchToTruckFilters(s: Record<string, string | number | boolean>): TruckFilters {
  const p = new URLSearchParams();
  for (const k of ['originCityId', 'radius', 'destinationCityId', 'equipmentType', 'minCapacityKg', 'sort'] as const) {
    if (s[k] != null) p.set(k, String(s[k]));
  }
  const t = typeof s.date === 'string' ? Date.parse(s.date) : NaN;
  if (!Number.isNaN(t)) p.set('date', new Date(t + 3 * 3_600_000).toISOString().slice(0, 10));
  return parseTruckFilters(p);
}
