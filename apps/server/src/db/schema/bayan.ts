import { bigint, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Drizzle mirror of migrations/0083_bayan.sql (owned by modules/bayan; the sandbox table by gateways/bayan).
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const bayanTrips = pgTable('bayan_trips', {
  id: uuid('id').primaryKey(),
  loadId: uuid('load_id').notNull(),
  carrierId: uuid('carrier_id').notNull(),
  shipperId: uuid('shipper_id').notNull(),
  vehicleId: uuid('vehicle_id').notNull(),
  driverId: uuid('driver_id').notNull(),
  status: text('status').$type<'pending' | 'active' | 'closed' | 'cancelled'>().notNull(),
  tripId: text('trip_id'),
  waybillId: text('waybill_id'),
  waybillNumber: text('waybill_number'),
  request: jsonb('request').notNull(),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  cancelReason: text('cancel_reason').$type<'recipient_refused' | 'damage' | 'theft'>(),
  deliveredAt: ts('delivered_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const waybillConfigs = pgTable('waybill_configs', {
  userId: uuid('user_id').primaryKey(),
  senderName: text('sender_name').notNull(),
  senderPhone: text('sender_phone').notNull(),
  senderAddress: text('sender_address').notNull(),
  senderCityId: integer('sender_city_id').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const bayanSandboxTrips = pgTable('bayan_sandbox_trips', {
  tripId: bigint('trip_id', { mode: 'number' }).primaryKey(),
  payload: jsonb('payload').notNull(),
  /** Migration 0099: the creation's Idempotency-Key (one trip per key). */
  idempotencyKey: text('idempotency_key'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
