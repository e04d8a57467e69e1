import { boolean, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Drizzle mirror of migrations/0110_account_records.sql (issue 19 fact-based record; modules/records).
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The facts of one shipment, each set at most once (docs/account-record.md). */
export const accountRecordLoads = pgTable('account_record_loads', {
  loadId: uuid('load_id').primaryKey(),
  shipperId: uuid('shipper_id').notNull(),
  carrierId: uuid('carrier_id'),
  pickupArrivedAt: ts('pickup_arrived_at'),
  pickupOnTime: boolean('pickup_on_time'),
  dropArrivedAt: ts('drop_arrived_at'),
  dropOnTime: boolean('drop_on_time'),
  completedAt: ts('completed_at'),
  cancelledAt: ts('cancelled_at'),
  cancelledBy: text('cancelled_by').$type<'shipper' | 'carrier'>(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Each account's counters, moved with the facts they count. */
export const accountRecords = pgTable('account_records', {
  accountId: uuid('account_id').primaryKey(),
  carrierCompleted: integer('carrier_completed').notNull().default(0),
  pickupsMeasured: integer('pickups_measured').notNull().default(0),
  pickupsOnTime: integer('pickups_on_time').notNull().default(0),
  deliveriesMeasured: integer('deliveries_measured').notNull().default(0),
  deliveriesOnTime: integer('deliveries_on_time').notNull().default(0),
  carrierCancellations: integer('carrier_cancellations').notNull().default(0),
  shipperCompleted: integer('shipper_completed').notNull().default(0),
  shipperCancellations: integer('shipper_cancellations').notNull().default(0),
  /** Migration 0126: mean days from delivery to payment over the newest 50 paid shipments (null: none), and how many. */
  daysToPay: numeric('days_to_pay', { precision: 6, scale: 1 }),
  paidShipments: integer('paid_shipments').notNull().default(0),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
