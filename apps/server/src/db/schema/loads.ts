import type { BookNowFor, LoadStatus, OfferStatus, StopAddressInput } from '@masar/shared';
import { bigint, boolean, doublePrecision, integer, json, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { money, num, placeVersionsTable } from './types.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const loads = pgTable('loads', {
  id: uuid('id').primaryKey(),
  referenceId: text('reference_id').notNull(),
  shipperId: uuid('shipper_id').notNull(),
  status: text('status').$type<LoadStatus>().notNull().default('posted'),
  loadType: text('load_type').$type<'FTL' | 'LTL'>().notNull(),
  equipmentType: text('equipment_type').notNull(),
  shipmentType: smallint('shipment_type').notNull().default(1),
  price: money('price').notNull(),
  currency: text('currency').notNull().default('SAR'),
  distanceKm: num('distance_km', { precision: 10, scale: 1 }).notNull(),
  ratePerKm: money('rate_per_km').notNull(),
  totalWeightKg: num('total_weight_kg', { precision: 16, scale: 2 }).notNull(),
  comments: text('comments'),
  pickupCityId: integer('pickup_city_id').notNull(),
  pickupLat: doublePrecision('pickup_lat').notNull(),
  pickupLng: doublePrecision('pickup_lng').notNull(),
  pickupAt: ts('pickup_at').notNull(),
  dropCityId: integer('drop_city_id').notNull(),
  dropLat: doublePrecision('drop_lat').notNull(),
  dropLng: doublePrecision('drop_lng').notNull(),
  dropAt: ts('drop_at').notNull(),
  postedAt: ts('posted_at'),
  expiresAt: ts('expires_at'),
  carrierId: uuid('carrier_id'),
  bookedPrice: money('booked_price'),
  bookedAt: ts('booked_at'),
  vehicleId: uuid('vehicle_id'),
  driverId: uuid('driver_id'),
  trailerId: uuid('trailer_id'),
  assignedAt: ts('assigned_at'),
  deliveredAt: ts('delivered_at'),
  paymentReceivedAt: ts('payment_received_at'),
  // migration 0082 (issue 7): shipment terms
  pickupLatestAt: ts('pickup_latest_at'),
  pickupHoursFrom: text('pickup_hours_from'),
  pickupHoursTo: text('pickup_hours_to'),
  dropHoursFrom: text('drop_hours_from'),
  dropHoursTo: text('drop_hours_to'),
  paymentMethod: text('payment_method'),
  paidBy: text('paid_by'),
  paymentTermsDays: smallint('payment_terms_days'),
  detentionFreeHours: smallint('detention_free_hours'),
  detentionRate: money('detention_rate'),
  /** migration 0142 (issue 50): most detention charged per stop. */
  detentionCap: money('detention_cap'),
  deliveryType: text('delivery_type'),
  deliveryTo: text('delivery_to'),
  tradable: boolean('tradable').notNull().default(false),
  // migration 0141 (issue 50): payment protection (escrow) opted in by the shipper
  paymentProtection: boolean('payment_protection').notNull().default(false),
  // migration 0105 (issue 19): Book Now and re-post detection
  bookNow: boolean('book_now').notNull().default(false),
  bookNowFor: text('book_now_for').$type<BookNowFor>(),
  repostedFrom: uuid('reposted_from'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});

export const loadStops = pgTable('load_stops', {
  id: uuid('id').primaryKey(),
  loadId: uuid('load_id').notNull(),
  idx: smallint('idx').notNull(),
  stopType: smallint('stop_type').notNull(),
  cityId: integer('city_id').notNull(),
  districtId: bigint('district_id', { mode: 'number' }),
  address: text('address'),
  /** Structured national address (migration 0082; shared stopAddressInput). */
  addressDetails: jsonb('address_details').$type<StopAddressInput>(),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  date: ts('date').notNull(),
});

export const cargoLines = pgTable('cargo_lines', {
  id: uuid('id').primaryKey(),
  loadId: uuid('load_id').notNull(),
  idx: smallint('idx').notNull(),
  goodsType: text('goods_type').notNull(),
  lengthCm: num('length_cm', { precision: 10, scale: 2 }).notNull(),
  widthCm: num('width_cm', { precision: 10, scale: 2 }).notNull(),
  heightCm: num('height_cm', { precision: 10, scale: 2 }).notNull(),
  quantity: integer('quantity').notNull(),
  weightPerItemKg: num('weight_per_item_kg', { precision: 14, scale: 2 }).notNull(),
  stackable: boolean('stackable').notNull().default(false),
  adr: boolean('adr').notNull().default(false),
  conditions: text('conditions'),
});

/**
 * The board card of a load (issue 45; migration 0134; db/load-cards.ts): stops with city names
 * and cargo lines as the Load's JSON text, and the pending offers, written with every change.
 */
export const loadCards = pgTable('load_cards', {
  loadId: uuid('load_id').primaryKey(),
  stops: json('stops').notNull(),
  cargo: json('cargo').notNull(),
  offersCount: integer('offers_count').notNull().default(0),
});

export const offers = pgTable('offers', {
  id: uuid('id').primaryKey(),
  loadId: uuid('load_id').notNull(),
  carrierId: uuid('carrier_id').notNull(),
  shipperId: uuid('shipper_id').notNull(),
  price: money('price').notNull(),
  originalPrice: money('original_price').notNull(),
  lastOfferBy: text('last_offer_by').$type<'carrier' | 'shipper'>().notNull(),
  status: text('status').$type<OfferStatus>().notNull().default('pending'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const offerEvents = pgTable('offer_events', {
  id: uuid('id').primaryKey(),
  offerId: uuid('offer_id').notNull(),
  byParty: text('by_party').$type<'carrier' | 'shipper'>().notNull(),
  action: text('action').notNull(),
  price: money('price'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Board versions per pickup place and equipment (migration 0102, issue 24): how many board writes
 * touched loads picked up in a city (kind 0), a grid cell (kinds 1–3) or anywhere (kind 9), for
 * one equipment type or '' for all. The search cache keys a page on the sum of the rows it covers.
 */
export const boardVersions = placeVersionsTable('board_versions');

/** The vendors (and their accounts) a vendor shipment is offered to (migration 0082). */
export const loadVendors = pgTable(
  'load_vendors',
  {
    loadId: uuid('load_id').notNull(),
    vendorId: uuid('vendor_id').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.loadId, t.vendorId] })],
);

/** A user's bookmarked loads (migration 0082). */
export const loadBookmarks = pgTable(
  'load_bookmarks',
  {
    userId: uuid('user_id').notNull(),
    loadId: uuid('load_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.loadId] })],
);
