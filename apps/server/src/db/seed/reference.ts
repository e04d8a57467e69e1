import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { cities, districts, equipmentTypes, goodsTypes, regions } from '../schema/index.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../reference');
const read = <T>(f: string): T => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as T;

/** Freight hubs listed first in city search (English names as in cities.json). */
export const MAJOR_CITIES = [
  'Riyadh',
  'Jeddah',
  'Dammam',
  'Makkah',
  'Madinah',
  'Al Khobar',
  'Al Kharj',
  'Tabuk',
  'Abha',
  'Buraidah',
  'Hail',
  'Jazan',
  'Najran',
  'Yanbu',
  'At Taif',
  'Al Jubail',
  'Al Hafuf',
  'Khamis Mushayt',
  'Al Qatif',
  'Unayzah',
  'Al Mubarraz',
  'Sakaka',
  'Arar',
  'Al Baha',
  'Hafar Al Batin',
  'Dhahran',
  'Ras Tannurah',
  'Al Qunfidhah',
  'Bishah',
];

interface RegionRow {
  id: number;
  code: string;
  name_en: string;
  name_ar: string;
  capital_city_id: number;
  center: [number, number];
}
interface AliasRow {
  id: number;
  name_en: string;
  aliases: string[];
}
interface CityRow {
  id: number;
  region_id: number;
  name_en: string;
  name_ar: string;
  center: [number, number];
}
interface DistrictRow {
  id: number;
  city_id: number;
  region_id: number;
  name_en: string;
  name_ar: string;
}
interface GoodsRow {
  code: string;
  name_en: string;
  name_ar: string;
  hs_chapters: number[];
  temperature_controlled: boolean;
}
interface EquipmentRow {
  code: string;
  name_en: string;
  name_ar: string;
  class: string;
  max_weight_kg: number | null;
  typical_length_cm: number | null;
}

async function chunked<T>(rows: T[], size: number, fn: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await fn(rows.slice(i, i + size));
}

/**
 * Load the shipped reference data (regions, cities, districts, goods and equipment types) when
 * the tables do not hold it yet. Idempotent; one transaction. Returns true when it loaded.
 */
export async function loadReferenceData(db: Db): Promise<boolean> {
  const cityRows = read<CityRow[]>('cities.json');
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(cities);
  if (n === cityRows.length) {
    await syncCityAliases(db);
    return false;
  }
  const regionRows = read<RegionRow[]>('regions.json');
  const capitals = new Set(regionRows.map((r) => r.capital_city_id));
  const major = new Map(MAJOR_CITIES.map((name, i) => [name.toLowerCase(), MAJOR_CITIES.length - i]));
  await db.transaction(async (tx) => {
    await tx.execute(sql`truncate districts, cities, regions cascade`);
    await tx.insert(regions).values(
      regionRows.map((r) => ({
        id: r.id,
        code: r.code,
        nameEn: r.name_en,
        nameAr: r.name_ar,
        capitalCityId: r.capital_city_id,
        lat: r.center[0],
        lng: r.center[1],
      })),
    );
    await chunked(cityRows, 1000, (c) =>
      tx.insert(cities).values(
        c.map((r) => ({
          id: r.id,
          regionId: r.region_id,
          nameEn: r.name_en,
          nameAr: r.name_ar,
          lat: r.center[0],
          lng: r.center[1],
          rank: (major.get(r.name_en.toLowerCase()) ?? 0) * 10 + (capitals.has(r.id) ? 5 : 0),
        })),
      ),
    );
    await chunked(read<DistrictRow[]>('districts.json'), 1000, (c) =>
      tx.insert(districts).values(c.map((d) => ({ id: d.id, cityId: d.city_id, regionId: d.region_id, nameEn: d.name_en, nameAr: d.name_ar }))),
    );
    const goods = read<GoodsRow[]>('goods-types.json');
    await tx
      .insert(goodsTypes)
      .values(
        goods.map((g, i) => ({
          code: g.code,
          nameEn: g.name_en,
          nameAr: g.name_ar,
          temperatureControlled: g.temperature_controlled,
          hsChapters: g.hs_chapters,
          sort: i,
        })),
      )
      .onConflictDoNothing();
    const equipment = read<EquipmentRow[]>('equipment-types.json');
    await tx
      .insert(equipmentTypes)
      .values(
        equipment.map((e, i) => ({
          code: e.code,
          nameEn: e.name_en,
          nameAr: e.name_ar,
          class: e.class,
          maxWeightKg: e.max_weight_kg,
          typicalLengthCm: e.typical_length_cm,
          sort: i,
        })),
      )
      .onConflictDoNothing();
    await syncCityAliases(tx);
  });
  return true;
}

/** The shipped city aliases (city-aliases.json, see SOURCE.md) as stored in cities.aliases. */
export function cityAliases(): Map<number, string> {
  return new Map(read<AliasRow[]>('city-aliases.json').map((a) => [a.id, a.aliases.map((x) => x.trim()).join('|')]));
}

/**
 * Write the shipped aliases into cities.aliases (the generated search_key folds them), on every
 * start, so an edited alias list reaches an existing database. Touches only rows that differ.
 */
export async function syncCityAliases(db: Db): Promise<void> {
  const wanted = cityAliases();
  const stale = await db
    .select({ id: cities.id, aliases: cities.aliases })
    .from(cities)
    .where(or(sql`${cities.aliases} <> ''`, inArray(cities.id, [...wanted.keys()])));
  for (const row of stale) {
    const want = wanted.get(row.id) ?? '';
    if (row.aliases !== want)
      await db
        .update(cities)
        .set({ aliases: want })
        .where(sql`${cities.id} = ${row.id}`);
  }
}
