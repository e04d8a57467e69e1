import type { GeoError, ProofStop, TripStep } from '@masar/shared';
import { boolean, doublePrecision, integer, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Drizzle mirror of migrations/0085_trips.sql (the driver's trip, proofs, tracking; modules/trips).
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const tripSteps = pgTable('trip_steps', {
  id: uuid('id').primaryKey(),
  loadId: uuid('load_id').notNull(),
  driverId: uuid('driver_id').notNull(),
  step: text('step').$type<TripStep>().notNull(),
  at: ts('at').notNull(),
  lat: doublePrecision('lat'),
  lng: doublePrecision('lng'),
  accuracyM: real('accuracy_m'),
  geoError: text('geo_error').$type<GeoError>(),
  /** The device's time of the tap (migration 0137); `at` is the server's time of receipt. */
  recordedAt: ts('recorded_at'),
  /** Great-circle km from the step's position to its stop (arrivals, delivery), and beyond PROOF_GEOFENCE_KM. */
  distanceKm: doublePrecision('distance_km'),
  flagged: boolean('flagged').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const tripProofs = pgTable('trip_proofs', {
  id: uuid('id').primaryKey(),
  loadId: uuid('load_id').notNull(),
  driverId: uuid('driver_id').notNull(),
  stop: text('stop').$type<ProofStop>().notNull(),
  mime: text('mime').notNull(),
  size: integer('size').notNull(),
  storageKey: text('storage_key').notNull(),
  at: ts('at').notNull(),
  lat: doublePrecision('lat'),
  lng: doublePrecision('lng'),
  distanceKm: doublePrecision('distance_km'),
  flagged: boolean('flagged').notNull().default(false),
  /** The device's time of the photo (migration 0137); `at` is the server's time of receipt. */
  recordedAt: ts('recorded_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Every position of a vehicle (the trail): speed km/h, heading degrees; unique (vehicle_id, at desc). */
export const vehiclePositions = pgTable('vehicle_positions', {
  vehicleId: uuid('vehicle_id').notNull(),
  at: ts('at').notNull(),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  speed: real('speed'),
  heading: real('heading'),
  /** When the server received the point (`at` is the GPS fix; migration 0137). */
  receivedAt: ts('received_at').defaultNow(),
});

export const vehicleLatestPositions = pgTable('vehicle_latest_positions', {
  vehicleId: uuid('vehicle_id').primaryKey(),
  at: ts('at').notNull(),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  speed: real('speed'),
  heading: real('heading'),
});
