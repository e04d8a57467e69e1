import { asc, desc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cities, districts, equipmentTypes, goodsTypes, regions } from '../../db/schema/index.ts';

const cityCols = { id: cities.id, nameEn: cities.nameEn, nameAr: cities.nameAr, regionId: cities.regionId, lat: cities.lat, lng: cities.lng };

/**
 * Cities whose English or Arabic name matches `search` (prefix first, then substring, trigram
 * indexes), major freight hubs first. Without a search: the major cities.
 */
export async function searchCities(db: Db, search: string | undefined, limit: number, ids?: number[]) {
  if (ids?.length) {
    const items = await db.select(cityCols).from(cities).where(inArray(cities.id, ids));
    return { items, total: items.length };
  }
  const q = (search ?? '').trim();
  if (!q) {
    const items = await db.select(cityCols).from(cities).orderBy(desc(cities.rank), asc(cities.nameEn)).limit(limit);
    return { items, total: items.length };
  }
  const lower = q.toLowerCase();
  const like = `%${lower.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  const prefix = `${lower.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  // Arabic users type with or without the article "ال": match both ways.
  const arNoAl = q.startsWith('ال') ? q.slice(2) : q;
  const likeAr = `%${arNoAl.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  const where = sql`(lower(${cities.nameEn}) like ${like} or ${cities.nameAr} like ${likeAr})`;
  const items = await db
    .select(cityCols)
    .from(cities)
    .where(where)
    .orderBy(
      sql`(lower(${cities.nameEn}) like ${prefix} or ${cities.nameAr} like ${`${q}%`} or ${cities.nameAr} like ${`ال${arNoAl}%`}) desc`,
      desc(cities.rank),
      sql`length(${cities.nameEn})`,
      asc(cities.id),
    )
    .limit(limit);
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(cities)
    .where(where);
  return { items, total: n };
}

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
