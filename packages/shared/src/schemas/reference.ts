import { z } from 'zod';
import { listOf } from './common.ts';

/** A Saudi city (reference data, ../data/sa/cities.json). lat/lng in decimal degrees. */
export const citySchema = z.object({
  id: z.number().int(),
  nameEn: z.string(),
  nameAr: z.string(),
  regionId: z.number().int(),
  lat: z.number(),
  lng: z.number(),
});
export type City = z.infer<typeof citySchema>;

/** GET /cities?search=&limit= — search matches English and Arabic names. */
export const citiesQuery = z.object({
  search: z.string().trim().max(80).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Comma-separated city ids (each at most 9 digits: PostgreSQL integer ids). */
  ids: z
    .string()
    .regex(/^\d{1,9}(,\d{1,9}){0,99}$/)
    .optional(),
});
export const citiesResponse = listOf(citySchema);

export const regionSchema = z.object({ id: z.number().int(), code: z.string(), nameEn: z.string(), nameAr: z.string(), lat: z.number(), lng: z.number() });
export const districtSchema = z.object({ id: z.number(), cityId: z.number().int(), nameEn: z.string(), nameAr: z.string() });
export const goodsTypeSchema = z.object({ code: z.string(), nameEn: z.string(), nameAr: z.string(), temperatureControlled: z.boolean() });
export const equipmentTypeSchema = z.object({
  code: z.string(),
  nameEn: z.string(),
  nameAr: z.string(),
  class: z.string(),
  maxWeightKg: z.number().nullable(),
});
export type GoodsType = z.infer<typeof goodsTypeSchema>;
export type EquipmentType = z.infer<typeof equipmentTypeSchema>;
