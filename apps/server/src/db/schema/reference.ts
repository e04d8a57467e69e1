import { sql } from 'drizzle-orm';
import { bigint, boolean, doublePrecision, integer, pgTable, text } from 'drizzle-orm/pg-core';

export const regions = pgTable('regions', {
  id: integer('id').primaryKey(),
  code: text('code').notNull(),
  nameEn: text('name_en').notNull(),
  nameAr: text('name_ar').notNull(),
  capitalCityId: integer('capital_city_id'),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
});

export const cities = pgTable('cities', {
  id: integer('id').primaryKey(),
  regionId: integer('region_id').notNull(),
  nameEn: text('name_en').notNull(),
  nameAr: text('name_ar').notNull(),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  rank: integer('rank').notNull().default(0),
  /** Other spellings ('|'-separated), from reference/city-aliases.json (migration 0106). */
  aliases: text('aliases').notNull().default(''),
  /** '|name_en|name_ar|aliases|' folded like normalizeSearch (@masar/shared); generated, trigram-indexed (migration 0106). */
  searchKey: text('search_key').generatedAlwaysAs(
    sql`('|' || btrim(regexp_replace(translate(lower(name_en), 'أإآٱؤئىةـًٌٍَُِّْٰ''’\`', 'ااااوييه'), '[-_.,()/&|[:space:]]+', ' ', 'g')) || '|' || btrim(regexp_replace(translate(lower(name_ar), 'أإآٱؤئىةـًٌٍَُِّْٰ''’\`', 'ااااوييه'), '[-_.,()/&|[:space:]]+', ' ', 'g')) || '|' || regexp_replace(translate(lower(aliases), 'أإآٱؤئىةـًٌٍَُِّْٰ''’\`', 'ااااوييه'), '[-_.,()/&[:space:]]+', ' ', 'g') || '|')`,
  ),
});

export const districts = pgTable('districts', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  cityId: integer('city_id').notNull(),
  regionId: integer('region_id').notNull(),
  nameEn: text('name_en').notNull(),
  nameAr: text('name_ar').notNull(),
});

export const goodsTypes = pgTable('goods_types', {
  code: text('code').primaryKey(),
  nameEn: text('name_en').notNull(),
  nameAr: text('name_ar').notNull(),
  temperatureControlled: boolean('temperature_controlled').notNull().default(false),
  hsChapters: integer('hs_chapters').array().notNull().default([]),
  sort: integer('sort').notNull().default(0),
});

export const equipmentTypes = pgTable('equipment_types', {
  code: text('code').primaryKey(),
  nameEn: text('name_en').notNull(),
  nameAr: text('name_ar').notNull(),
  class: text('class').notNull(),
  maxWeightKg: integer('max_weight_kg'),
  typicalLengthCm: integer('typical_length_cm'),
  sort: integer('sort').notNull().default(0),
});
