import { boolean, bigint, date, integer, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';

// Drizzle mirror of migrations/0112_dashboards.sql (issue 20 dashboards; modules/dashboards; docs/dashboards.md).
const day = (name: string) => date(name, { mode: 'string' });

/** One load as the dashboards counted it (last_seq: the redelivery/replay guard). */
export const dashboardLoads = pgTable('dashboard_loads', {
  loadId: uuid('load_id').primaryKey(),
  shipperId: uuid('shipper_id').notNull(),
  carrierId: uuid('carrier_id'),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
  open: boolean('open').notNull().default(false),
  firstPostedOn: day('first_posted_on'),
  bookedOn: day('booked_on'),
  bookedPriceSar: numeric('booked_price_sar', { precision: 12, scale: 2 }),
  originCityId: integer('origin_city_id'),
  destinationCityId: integer('destination_city_id'),
  distanceKm: numeric('distance_km', { precision: 10, scale: 1 }),
  bookingCancelled: boolean('booking_cancelled').notNull().default(false),
  pickupMeasured: boolean('pickup_measured').notNull().default(false),
  dropMeasured: boolean('drop_measured').notNull().default(false),
});

/** Per account and Riyadh day: shipper-side and carrier-side counters. */
export const dashboardDaily = pgTable(
  'dashboard_daily',
  {
    accountId: uuid('account_id').notNull(),
    day: day('day').notNull(),
    loadsPosted: integer('loads_posted').notNull().default(0),
    loadsAssigned: integer('loads_assigned').notNull().default(0),
    loadsExpired: integer('loads_expired').notNull().default(0),
    openDelta: integer('open_delta').notNull().default(0),
    offersReceived: integer('offers_received').notNull().default(0),
    spendSar: numeric('spend_sar', { precision: 16, scale: 2 }).notNull().default('0'),
    pickupsMeasured: integer('pickups_measured').notNull().default(0),
    pickupsOnTime: integer('pickups_on_time').notNull().default(0),
    deliveriesMeasured: integer('deliveries_measured').notNull().default(0),
    deliveriesOnTime: integer('deliveries_on_time').notNull().default(0),
    offersMade: integer('offers_made').notNull().default(0),
    won: integer('won').notNull().default(0),
    lost: integer('lost').notNull().default(0),
    revenueSar: numeric('revenue_sar', { precision: 16, scale: 2 }).notNull().default('0'),
    revenueKm: numeric('revenue_km', { precision: 14, scale: 1 }).notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);

/** The open gauge now. */
export const dashboardOpen = pgTable('dashboard_open', {
  accountId: uuid('account_id').primaryKey(),
  loadsOpen: integer('loads_open').notNull().default(0),
});

const laneColumns = {
  accountId: uuid('account_id').notNull(),
  side: text('side').notNull().$type<'shipper' | 'carrier'>(),
  originCityId: integer('origin_city_id').notNull(),
  destinationCityId: integer('destination_city_id').notNull(),
  loads: integer('loads').notNull().default(0),
  valueSar: numeric('value_sar', { precision: 16, scale: 2 }).notNull().default('0'),
  km: numeric('km', { precision: 14, scale: 1 }).notNull().default('0'),
};

/** Bookings per account, side, Riyadh month and lane. */
export const dashboardLaneMonths = pgTable('dashboard_lane_months', { ...laneColumns, month: day('month').notNull() }, (t) => [
  primaryKey({ columns: [t.accountId, t.side, t.month, t.originCityId, t.destinationCityId] }),
]);

/** Bookings per account, side, Riyadh day and lane ("This Week"). */
export const dashboardLaneDays = pgTable('dashboard_lane_days', { ...laneColumns, day: day('day').notNull() }, (t) => [
  primaryKey({ columns: [t.accountId, t.side, t.day, t.originCityId, t.destinationCityId] }),
]);

/** Bookings per account, side, Riyadh year and lane ("This Year"). */
export const dashboardLaneYears = pgTable('dashboard_lane_years', { ...laneColumns, year: day('year').notNull() }, (t) => [
  primaryKey({ columns: [t.accountId, t.side, t.year, t.originCityId, t.destinationCityId] }),
]);

/** The offers counted, each fact once. */
export const dashboardOffers = pgTable('dashboard_offers', {
  offerId: uuid('offer_id').primaryKey(),
  made: boolean('made').notNull().default(false),
  lost: boolean('lost').notNull().default(false),
});
