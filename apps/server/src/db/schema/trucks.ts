import type { TruckStatus } from '@masar/shared';
import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { money, num } from './types.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Truck posts (migration 0103; issue 19); owned by modules/trucks. */
export const trucks = pgTable('trucks', {
  id: uuid('id').primaryKey(),
  referenceId: text('reference_id').notNull(),
  ownerId: uuid('owner_id').notNull(),
  status: text('status').$type<TruckStatus>().notNull().default('unposted'),
  loadType: text('load_type').$type<'FTL' | 'LTL'>().notNull(),
  equipmentType: text('equipment_type').notNull(),
  availableFrom: ts('available_from').notNull(),
  availableTo: ts('available_to').notNull(),
  originCityId: integer('origin_city_id').notNull(),
  originRadiusKm: integer('origin_radius_km'),
  anywhere: boolean('anywhere').notNull().default(false),
  destinationCityIds: integer('destination_city_ids').array().notNull().default([]),
  destinationRegionIds: integer('destination_region_ids').array().notNull().default([]),
  minRate: money('min_rate').notNull(),
  rateBasis: text('rate_basis').$type<'trip' | 'km'>().notNull().default('trip'),
  capacityKg: num('capacity_kg', { precision: 10, scale: 2 }).notNull(),
  pallets: integer('pallets'),
  spaceCm: integer('space_cm'),
  vehicleId: uuid('vehicle_id'),
  trailerId: uuid('trailer_id'),
  comments: text('comments'),
  postedAt: ts('posted_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
