import { boolean, date, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { num } from './types.ts';

// Drizzle mirror of migrations/0030_fleet_vendors_csv.sql (fleet, vendors, files, CSV logs).
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const jsonArr = <T>(name: string) => jsonb(name).$type<T[]>().notNull().default([]);

export const files = pgTable('files', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  purpose: text('purpose').notNull(),
  mime: text('mime').notNull(),
  size: integer('size').notNull(),
  name: text('name'),
  storageKey: text('storage_key').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** 0128: when a chat attachment was put on a message; unsent ones are removed after 24 h. */
  attachedAt: ts('attached_at'),
});

export const vendors = pgTable('vendors', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  status: text('status').$type<'request_submitted' | 'pending_approval' | 'not_verified' | 'verified'>().notNull().default('verified'),
  userType: text('user_type').notNull(),
  companyName: text('company_name').notNull(),
  vendorName: text('vendor_name').notNull(),
  phone: text('phone').notNull(),
  email: text('email').notNull(),
  jobTitle: text('job_title'),
  officeLocations: jsonArr<{ cityId: number; address: string }>('office_locations'),
  notes: text('notes'),
  crNumber: text('cr_number'),
  tlNumber: text('tl_number'),
  vatNumber: text('vat_number'),
  paymentTerms: text('payment_terms'),
  shipmentTypes: jsonArr<string>('shipment_types'),
  regions: jsonArr<number>('regions'),
  preferredLanguages: jsonArr<string>('preferred_languages'),
  preferredContactMethod: text('preferred_contact_method'),
  numberOfTrucks: integer('number_of_trucks'),
  numberOfTrailers: integer('number_of_trailers'),
  fleetSize: integer('fleet_size'),
  fleetTypes: jsonArr<string>('fleet_types'),
  equipmentTypes: jsonArr<string>('equipment_types'),
  serviceArea: text('service_area'),
  insurance: text('insurance'),
  rateAgreement: text('rate_agreement'),
  pastExperience: text('past_experience'),
  paymentHistory: text('payment_history'),
  customsClearance: boolean('customs_clearance').notNull().default(false),
  documentFileIds: jsonArr<string>('document_file_ids'),
  origin: text('origin').notNull().default('owner'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});

export const drivers = pgTable('drivers', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  salutation: text('salutation').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  nationality: text('nationality').notNull(),
  dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
  photoFileId: uuid('photo_file_id'),
  phone: text('phone').notNull(),
  managerName: text('manager_name'),
  managerPhone: text('manager_phone'),
  licenceNumber: text('licence_number').notNull(),
  driverIdNumber: text('driver_id_number').notNull(),
  iqamaIssueCount: integer('iqama_issue_count'),
  companyCr: text('company_cr'),
  moiNumber: text('moi_number'),
  iqamaFileIds: jsonArr<string>('iqama_file_ids'),
  licenceFileIds: jsonArr<string>('licence_file_ids'),
  state: text('state').$type<'active' | 'suspended' | 'deleted'>().notNull().default('active'),
  /** WASL (migration 0084): not_submitted until sent, then what WASL answered, with its reasons. */
  waslStatus: text('wasl_status').$type<'not_submitted' | 'not_required' | 'verified' | 'not_verified'>().notNull().default('not_submitted'),
  waslReasons: jsonArr<string>('wasl_reasons'),
  waslCheckedAt: ts('wasl_checked_at'),
  /** Migration 0095: moved on by suspending or deleting the driver; job links and trip tokens of an older generation are refused. */
  linkGeneration: integer('link_generation').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const trailers = pgTable('trailers', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  trailerType: text('trailer_type').notNull(),
  trailerNumber: text('trailer_number').notNull(),
  lengthCm: num('length_cm', { precision: 8, scale: 2 }).notNull(),
  breadthCm: num('breadth_cm', { precision: 8, scale: 2 }).notNull(),
  capacityKg: num('capacity_kg', { precision: 10, scale: 2 }).notNull(),
  supportedVehicleTypes: jsonArr<string>('supported_vehicle_types'),
  state: text('state').$type<'active' | 'suspended' | 'deleted'>().notNull().default('active'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const vehicles = pgTable('vehicles', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  vehicleType: text('vehicle_type').notNull(),
  year: integer('year').notNull(),
  make: text('make').notNull(),
  model: text('model').notNull(),
  colour: text('colour').notNull(),
  plateType: smallint('plate_type').notNull(),
  plateDigits: text('plate_digits').notNull(),
  plateLetters: text('plate_letters').notNull(),
  registrationNumber: text('registration_number'),
  sequenceNumber: text('sequence_number').notNull(),
  imei: text('imei'),
  weightKg: num('weight_kg', { precision: 10, scale: 2 }).notNull(),
  waslStatus: text('wasl_status').$type<'not_submitted' | 'not_required' | 'verified' | 'not_verified'>().notNull().default('not_submitted'),
  waslReasons: jsonArr<string>('wasl_reasons'),
  waslCheckedAt: ts('wasl_checked_at'),
  state: text('state').$type<'active' | 'suspended' | 'deleted'>().notNull().default('active'),
  availability: text('availability').$type<'free' | 'busy'>().notNull().default('free'),
  source: text('source').$type<'own' | 'vendor'>().notNull().default('own'),
  vendorId: uuid('vendor_id'),
  driverId: uuid('driver_id'),
  trailerId: uuid('trailer_id'),
  insuranceFileIds: jsonArr<string>('insurance_file_ids'),
  imageFileIds: jsonArr<string>('image_file_ids'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const trustedDrivers = pgTable(
  'trusted_drivers',
  { ownerId: uuid('owner_id').notNull(), driverId: uuid('driver_id').notNull(), createdAt: ts('created_at').notNull().defaultNow() },
  (t) => [primaryKey({ columns: [t.ownerId, t.driverId] })],
);

export const csvLogs = pgTable('csv_logs', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  type: text('type').$type<'vendors' | 'drivers' | 'vehicles' | 'trailers' | 'shipments'>().notNull(),
  fileName: text('file_name'),
  status: text('status').$type<'processing' | 'completed' | 'failed'>().notNull().default('processing'),
  total: integer('total').notNull().default(0),
  succeeded: integer('succeeded').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  error: text('error'),
  /** The uploaded CSV text, kept so that the import job can resume after a crash (migration 0051). */
  source: text('source'),
  /** Committed cursor: rows before it are stored (as successes or failed rows). */
  nextRow: integer('next_row').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const csvLogRows = pgTable('csv_log_rows', {
  id: uuid('id').primaryKey(),
  logId: uuid('log_id').notNull(),
  rowNumber: integer('row_number').notNull(),
  data: jsonb('data').$type<Record<string, string>>().notNull(),
  errors: jsonb('errors').$type<{ path: string; code: string }[]>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
