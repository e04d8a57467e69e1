import { asc, desc, inArray, sql } from 'drizzle-orm';
import { normalizeSearch, withoutArticle } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import { cities, districts, equipmentTypes, goodsTypes, regions } from '../../db/schema/index.ts';

const cityCols = { id: cities.id, nameEn: cities.nameEn, nameAr: cities.nameAr, regionId: cities.regionId, lat: cities.lat, lng: cities.lng };

/**
 * Cities whose name or alias matches `search` as people type it (issue 23): the typed text is
 * folded like cities.search_key (normalizeSearch: alef forms, ة/ه, ى/ي, hamza seats, tatweel,
 * punctuation) and matched with or without its article (ال / al). One LIKE '%…%' on the generated
 * search_key, served by its trigram index (migration 0106). Order: a whole name or alias first,
 * then a name starting with the text, then any match; major freight hubs first within each.
 * Without a search: the major cities.
 */
export async function searchCities(db: Db, search: string | undefined, limit: number, ids?: number[]) {
  if (ids?.length) {
    const items = await db.select(cityCols).from(cities).where(inArray(cities.id, ids));
    return { items, total: items.length };
  }
  const core = escapeLike(withoutArticle(normalizeSearch(search ?? '')));
  if (!core) {
    const items = await db.select(cityCols).from(cities).orderBy(desc(cities.rank), asc(cities.nameEn)).limit(limit);
    return { items, total: items.length };
  }
  const key = cities.searchKey;
  const where = sql`${key} like ${`%${core}%`}`;
  const whole = sql`(${key} like ${`%|${core}|%`} or ${key} like ${`%|ال${core}|%`} or ${key} like ${`%|al ${core}|%`})`;
  const starts = sql`(${key} like ${`%|${core}%`} or ${key} like ${`%|ال${core}%`} or ${key} like ${`%|al ${core}%`})`;
  const items = await db
    .select(cityCols)
    .from(cities)
    .where(where)
    .orderBy(sql`case when ${whole} then 0 when ${starts} then 1 else 2 end`, desc(cities.rank), sql`length(${cities.nameEn})`, asc(cities.id))
    .limit(limit);
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(cities)
    .where(where);
  return { items, total: n };
}

const escapeLike = (s: string) => s.replace(/[%_\\]/g, (c) => `\\${c}`);

export const listRegions = (db: Db) =>
  db
    .select({ id: regions.id, code: regions.code, nameEn: regions.nameEn, nameAr: regions.nameAr, lat: regions.lat, lng: regions.lng })
    .from(regions)
    .orderBy(asc(regions.id));

export const listDistricts = (db: Db, cityId: number) =>
  db
    .select({ id: districts.id, cityId: districts.cityId, nameEn: districts.nameEn, nameAr: districts.nameAr })
    .from(districts)
    .where(sql`${districts.cityId} = ${cityId}`)
    .orderBy(asc(districts.nameEn));

export const listGoodsTypes = (db: Db) =>
  db
    .select({ code: goodsTypes.code, nameEn: goodsTypes.nameEn, nameAr: goodsTypes.nameAr, temperatureControlled: goodsTypes.temperatureControlled })
    .from(goodsTypes)
    .orderBy(asc(goodsTypes.sort));

export const listEquipmentTypes = (db: Db) =>
  db
    .select({
      code: equipmentTypes.code,
      nameEn: equipmentTypes.nameEn,
      nameAr: equipmentTypes.nameAr,
      class: equipmentTypes.class,
      maxWeightKg: equipmentTypes.maxWeightKg,
    })
    .from(equipmentTypes)
    .orderBy(asc(equipmentTypes.sort));
