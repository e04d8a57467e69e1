import { LOAD_TYPES, RADIUS_OPTIONS_KM, SEARCH_PICKUP_RADIUS_KM } from '@masar/shared';
import type { QueryOf } from '../../../lib/api';

/** Search filters as they live in the URL (so a search is shareable and deep-linkable). */
export interface SearchFilters {
  pickupCityId: number | null;
  radius: number;
  dropCityId: number | null;
  dropRadius: number;
  equipmentType: string | null;
  loadType: (typeof LOAD_TYPES)[number] | null;
  /** Calendar days (Riyadh), YYYY-MM-DD. */
  pickupFrom: string | null;
  pickupTo: string | null;
  sort: 'newest' | 'pickup' | 'price' | 'ratePerKm' | 'deadhead';
  /** Only loads bookable now at the posted price (issue 19). */
  bookNow: boolean;
  page: number;
  /** Past the numbered pages: the keyset cursor of the results to show (the API's nextCursor). */
  after: string | null;
  view: 'list' | 'map';
  /** Row height of the results table (issue 23): compact fits 20+ rows on a 1280×800 screen. */
  density: Density;
  /** Loads per page (issue 23): 25, 50 or 100 (the API's limit is 1…100). */
  pageSize: PageSize;
}

export type Density = 'comfortable' | 'compact';
export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

export const DEFAULT_RADIUS = 200;
export const PAGE_SIZE: PageSize = 25;
const SORTS = ['newest', 'pickup', 'price', 'ratePerKm', 'deadhead'] as const;

const posInt = (v: string | null) => {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : null;
};
const radiusIn = (options: readonly number[]) => (v: string | null) => {
  const n = Number(v);
  return options.includes(n) ? n : DEFAULT_RADIUS;
};
const radiusOf = radiusIn(RADIUS_OPTIONS_KM);
/** The pickup radius also takes the spec's 150 km (SEARCH_PICKUP_RADIUS_KM). */
const pickupRadiusOf = radiusIn(SEARCH_PICKUP_RADIUS_KM);
const day = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null);

export function parseFilters(p: URLSearchParams): SearchFilters {
  const lt = p.get('loadType');
  const sort = p.get('sort');
  return {
    pickupCityId: posInt(p.get('pickupCityId')),
    radius: pickupRadiusOf(p.get('radius')),
    dropCityId: posInt(p.get('dropCityId')),
    dropRadius: radiusOf(p.get('dropRadius')),
    equipmentType: p.get('equipmentType') || null,
    loadType: (LOAD_TYPES as readonly string[]).includes(lt ?? '') ? (lt as SearchFilters['loadType']) : null,
    pickupFrom: day(p.get('pickupFrom')),
    pickupTo: day(p.get('pickupTo')),
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as SearchFilters['sort']) : 'newest',
    bookNow: p.get('bookNow') === '1',
    page: posInt(p.get('page')) ?? 1,
    after: p.get('after') || null,
    view: p.get('view') === 'map' ? 'map' : 'list',
    density: p.get('density') === 'compact' ? 'compact' : 'comfortable',
    pageSize: (PAGE_SIZES as readonly number[]).includes(Number(p.get('size'))) ? (Number(p.get('size')) as PageSize) : PAGE_SIZE,
  };
}

/** Filters → URL params; defaults are left out to keep links short. */
export function filtersToParams(f: SearchFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.pickupCityId) {
    p.set('pickupCityId', String(f.pickupCityId));
    p.set('radius', String(f.radius));
  }
  if (f.dropCityId) {
    p.set('dropCityId', String(f.dropCityId));
    p.set('dropRadius', String(f.dropRadius));
  }
  if (f.equipmentType) p.set('equipmentType', f.equipmentType);
  if (f.loadType) p.set('loadType', f.loadType);
  if (f.pickupFrom) p.set('pickupFrom', f.pickupFrom);
  if (f.pickupTo) p.set('pickupTo', f.pickupTo);
  if (f.sort !== 'newest') p.set('sort', f.sort);
  if (f.bookNow) p.set('bookNow', '1');
  if (f.after) p.set('after', f.after);
  else if (f.page > 1) p.set('page', String(f.page));
  if (f.view !== 'list') p.set('view', f.view);
  if (f.density !== 'comfortable') p.set('density', f.density);
  if (f.pageSize !== PAGE_SIZE) p.set('size', String(f.pageSize));
  return p;
}

/**
 * Filters → GET /loads query (dates as Riyadh day bounds). Deadhead sort needs a pickup city.
 * Numbered pages go by skip (the total is capped at 1,000, so they stay within the API's skip
 * cap); past them, `after` pages by the keyset cursor.
 */
export function filtersToQuery(f: SearchFilters, pageSize: number = f.pageSize): QueryOf<'/api/v1/loads'> {
  return {
    pickupCityId: f.pickupCityId ?? undefined,
    radius: f.pickupCityId ? f.radius : undefined,
    dropCityId: f.dropCityId ?? undefined,
    dropRadius: f.dropCityId ? f.dropRadius : undefined,
    equipmentType: f.equipmentType ?? undefined,
    loadType: f.loadType ?? undefined,
    pickupFrom: f.pickupFrom ? `${f.pickupFrom}T00:00:00+03:00` : undefined,
    pickupTo: f.pickupTo ? `${f.pickupTo}T23:59:59+03:00` : undefined,
    sort: f.sort === 'deadhead' && !f.pickupCityId ? 'newest' : f.sort,
    bookNow: f.bookNow ? 'true' : undefined,
    limit: pageSize,
    ...(f.after ? { cursor: f.after } : { skip: (f.page - 1) * pageSize }),
  };
}

/** The board's GET /loads query for the page's filters: the map shows up to 100 pins, the list one page. */
export const boardQueryOf = (f: SearchFilters): QueryOf<'/api/v1/loads'> => filtersToQuery(f, f.view === 'map' ? 100 : f.pageSize);

/** A query date-time → its calendar day in Riyadh (UTC+3), YYYY-MM-DD. */
const riyadhDay = (v: unknown) => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? null : new Date(t + 3 * 3_600_000).toISOString().slice(0, 10);
};

/** The page's search as a saved or recent search stores it: GET /loads' query without paging (issue 19). */
export function filtersToSearch(f: SearchFilters): Record<string, string | number> {
  const { limit: _l, skip: _s, cursor: _c, ...q } = filtersToQuery(f);
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/** A saved or recent search (GET /loads' query) → the page's filters (first page; view, density and page size kept). */
export function searchToFilters(s: Record<string, string | number | boolean>, base: SearchFilters = parseFilters(new URLSearchParams())): SearchFilters {
  const p = new URLSearchParams();
  for (const k of ['pickupCityId', 'radius', 'dropCityId', 'dropRadius', 'equipmentType', 'loadType', 'sort'] as const) {
    if (s[k] != null) p.set(k, String(s[k]));
  }
  const from = riyadhDay(s.pickupFrom);
  const to = riyadhDay(s.pickupTo);
  if (from) p.set('pickupFrom', from);
  if (to) p.set('pickupTo', to);
  if (s.bookNow === 'true' || s.bookNow === true) p.set('bookNow', '1');
  return { ...parseFilters(p), view: base.view, density: base.density, pageSize: base.pageSize };
}
