import type { TruckStatus } from '@masar/shared';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { money, num, placeVersionsTable } from './types.ts';

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

/**
 * Trucks arriving (migration 0119): one row per destination of a posted truck not going
 * "anywhere"; `place` = the city id, or minus the region id. Kept by modules/trucks in the
 * transaction that changes the truck (trucks.repository.ts syncTruckSide).
 */
export const truckDestinations = pgTable(
  'truck_destinations',
  {
    truckId: uuid('truck_id')
      .notNull()
      .references(() => trucks.id, { onDelete: 'cascade' }),
    place: integer('place').notNull(),
    availableFrom: ts('available_from').notNull(),
    availableTo: ts('available_to').notNull(),
  },
  (t) => [primaryKey({ columns: [t.truckId, t.place] }), index('truck_destinations_place').on(t.place, t.availableFrom, t.truckId)],
);

/** Truck posts per origin city and hour (migration 0119; not deleted, by current posted_at): the 24 h ratio. */
export const trucksPostedHourly = pgTable(
  'trucks_posted_hourly',
  {
    cityId: integer('city_id').notNull(),
    hour: ts('hour').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.cityId, t.hour] })],
);

/**
 * Truck board versions per origin place and equipment (migration 0130, issue 19): as
 * board_versions for the load board, counted by the trucks' origin cities. The truck search cache
 * keys a page on the sum of the rows it covers (db/place-versions.ts).
 */
export const truckBoardVersions = placeVersionsTable('truck_board_versions');
