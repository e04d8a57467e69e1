import { boolean, date, doublePrecision, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Drizzle mirror of migrations/0111_lane_rates.sql (issue 20 lane rate index; modules/rates).
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One booked shipment's price on its lane (docs/rates.md). */
export const rateRecords = pgTable(
  'rate_records',
  {
    loadId: uuid('load_id').primaryKey(),
    kind: text('kind').notNull().$type<'spot' | 'contract'>(),
    source: text('source').notNull().$type<'offer' | 'book_now' | 'tender' | 'vendor' | 'own_vehicle'>(),
    companyId: uuid('company_id').notNull(),
    carrierId: uuid('carrier_id'),
    bookedAt: ts('booked_at').notNull(),
    bookedOn: date('booked_on', { mode: 'string' }).notNull(),
    originCityId: integer('origin_city_id').notNull(),
    originRegionId: integer('origin_region_id').notNull(),
    destinationCityId: integer('destination_city_id').notNull(),
    destinationRegionId: integer('destination_region_id').notNull(),
    equipment: text('equipment').notNull(),
    loadType: text('load_type').notNull().$type<'ftl' | 'ltl'>(),
    distanceKm: numeric('distance_km', { precision: 8, scale: 1 }).notNull(),
    weightKg: integer('weight_kg'),
    priceSar: numeric('price_sar', { precision: 12, scale: 2 }).notNull(),
    perKmSar: numeric('per_km_sar', { precision: 10, scale: 4 }),
    outlier: boolean('outlier').notNull().default(false),
    cancelledAt: ts('cancelled_at'),
  },
  (t) => [
    index('rate_records_company_lane').on(t.companyId, t.originCityId, t.destinationCityId, t.bookedOn),
    index('rate_records_lane').on(t.originCityId, t.destinationCityId, t.equipment, t.kind, t.bookedOn.desc()),
  ],
);

/**
 * The columns of a lane aggregate row (daily and monthly share them; migration 0111): key
 * (level, origin, destination, equipment '*' = all, kind, day) and the sums, sums of squares,
 * bucket histograms and per-company counts of its non-outlier, non-cancelled records.
 */
const laneAggregateColumns = () => ({
  level: text('level').notNull().$type<'city_city' | 'region_city' | 'city_region' | 'region_region' | 'national'>(),
  originKey: integer('origin_key').notNull(),
  destinationKey: integer('destination_key').notNull(),
  equipment: text('equipment').notNull(),
  kind: text('kind').notNull().$type<'spot' | 'contract'>(),
  day: date('day', { mode: 'string' }).notNull(),
  records: integer('records').notNull().default(0),
  sumSar: numeric('sum_sar', { precision: 16, scale: 2 }).notNull().default('0'),
  sumSqSar: doublePrecision('sum_sq_sar').notNull().default(0),
  sumKm: numeric('sum_km', { precision: 14, scale: 1 }).notNull().default('0'),
  // extensions (docs/rates.md "Aggregates")
  outliers: integer('outliers').notNull().default(0),
  sumPerKm: doublePrecision('sum_per_km').notNull().default(0),
  sumSqPerKm: doublePrecision('sum_sq_per_km').notNull().default(0),
  histSar: jsonb('hist_sar').$type<Record<string, number>>().notNull().default({}),
  histKm: jsonb('hist_km').$type<Record<string, number>>().notNull().default({}),
  companies: jsonb('companies').$type<Record<string, number>>().notNull().default({}),
});

/** Daily lane aggregates per geography level, equipment ('*' = all) and kind. */
export const laneRateDaily = pgTable('lane_rate_daily', laneAggregateColumns(), (t) => [
  primaryKey({ columns: [t.level, t.originKey, t.destinationKey, t.equipment, t.kind, t.day] }),
]);

/** Monthly rollups of lane_rate_daily (`day` = the month's first day). */
export const laneRateMonthly = pgTable('lane_rate_monthly', laneAggregateColumns(), (t) => [
  primaryKey({ columns: [t.level, t.originKey, t.destinationKey, t.equipment, t.kind, t.day] }),
]);
