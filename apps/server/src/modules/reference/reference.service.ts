import type { Language } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import { searchCities } from './reference.repository.ts';

/** City names by id in `lang` (for readable exports); unknown ids are absent. */
export async function cityNamesByIds(db: Db, ids: number[], lang: Language): Promise<Map<number, string>> {
  const unique = [...new Set(ids.filter((i) => Number.isSafeInteger(i) && i > 0))];
  if (!unique.length) return new Map();
  const { items } = await searchCities(db, undefined, unique.length, unique);
  return new Map(items.map((c) => [c.id, lang === 'ar' ? c.nameAr : c.nameEn]));
}
