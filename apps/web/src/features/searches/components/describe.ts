import type { SearchFilters } from '@masar/shared';
import { formatDateCompact, formatNumber, type Lang } from '../../../components/format';

/** What a filter summary needs: the page's `t` (namespace 'searches') and name lookups. */
export interface DescribeCtx {
  t: (key: string, opts?: Record<string, unknown>) => string;
  lang: Lang;
  city: (id: number) => string;
  equipment: (code: string) => string;
}

/** The city ids a search names (to fetch their names). */
export const citiesOf = (f: SearchFilters) =>
  [f.pickupCityId, f.originCityId, f.dropCityId, f.destinationCityId].map(Number).filter((n) => Number.isInteger(n) && n > 0);

/**
 * A search's filters in one line for a list ("Riyadh (200 km) → Jeddah · Flatbed · FTL · from
 * 1 Dec"), numbers and dates in the reader's digits. Sorting and paging are not shown.
 */
export function describeFilters(f: SearchFilters, c: DescribeCtx): string {
  const parts: string[] = [];
  const origin = f.pickupCityId ?? f.originCityId;
  const dest = f.dropCityId ?? f.destinationCityId;
  const km = (v: unknown) => formatNumber(Number(v), c.lang);
  if (origin != null) parts.push(f.radius != null ? c.t('describe.around', { city: c.city(Number(origin)), km: km(f.radius) }) : c.city(Number(origin)));
  if (dest != null) {
    const d = f.dropRadius != null ? c.t('describe.around', { city: c.city(Number(dest)), km: km(f.dropRadius) }) : c.city(Number(dest));
    parts.push(c.t('describe.to', { place: d }));
  }
  if (typeof f.equipmentType === 'string') parts.push(c.equipment(f.equipmentType));
  if (typeof f.loadType === 'string') parts.push(f.loadType);
  if (typeof f.pickupFrom === 'string') parts.push(c.t('describe.from', { date: formatDateCompact(f.pickupFrom, c.lang) }));
  if (typeof f.pickupTo === 'string') parts.push(c.t('describe.until', { date: formatDateCompact(f.pickupTo, c.lang) }));
  if (typeof f.date === 'string') parts.push(c.t('describe.on', { date: formatDateCompact(f.date, c.lang) }));
  if (f.minCapacityKg != null) parts.push(c.t('describe.minCapacity', { kg: km(f.minCapacityKg) }));
  if (f.bookNow === 'true' || f.bookNow === true) parts.push(c.t('describe.bookNow'));
  return parts.length ? parts.join(' · ') : c.t('describe.all');
}
