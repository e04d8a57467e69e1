import { useQuery } from '@tanstack/react-query';

import { masar, unwrap } from '../lib/api';
import { asLang, type Lang } from './format';

/** Reference lists change only with a deploy: cache them for the session. */
const forever = { staleTime: Infinity, gcTime: Infinity } as const;

export interface Region {
  id: number;
  code: string;
  nameEn: string;
  nameAr: string;
}

export function useEquipmentTypes() {
  return useQuery({
    queryKey: ['ref', 'equipmentTypes'],
    queryFn: () => unwrap(masar.GET('/api/v1/equipmentTypes')).then((d) => d.items),
    ...forever,
  });
}
export function useGoodsTypes() {
  return useQuery({ queryKey: ['ref', 'goodTypes'], queryFn: () => unwrap(masar.GET('/api/v1/goodTypes')).then((d) => d.items), ...forever });
}
export function useRegions() {
  return useQuery({ queryKey: ['ref', 'regions'], queryFn: () => unwrap(masar.GET('/api/v1/regions')).then((d) => d.items), ...forever });
}
/** Cities by id (e.g. to label a prefilled CitySelect or a deep-linked search). */
export function useCitiesByIds(ids: number[]) {
  const key = [...new Set(ids.filter((n) => n > 0))].sort((a, b) => a - b);
  return useQuery({
    queryKey: ['ref', 'cities', key.join(',')],
    queryFn: () => unwrap(masar.GET('/api/v1/cities', { params: { query: { ids: key.join(','), limit: Math.max(key.length, 1) } } })).then((d) => d.items),
    enabled: key.length > 0,
    ...forever,
  });
}

/** Name of a coded reference item (equipment / goods type) in the user's language, or the code itself. */
export function refName(list: { code: string; nameEn: string; nameAr: string }[] | undefined, code: string, lang: Lang | string) {
  const item = list?.find((x) => x.code === code);
  if (!item) return code;
  return asLang(lang) === 'ar' ? item.nameAr : item.nameEn;
}
