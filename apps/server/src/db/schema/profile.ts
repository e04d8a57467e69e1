import { bigint, boolean, doublePrecision, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { StopAddressInput } from '@masar/shared';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Business profile (migration 0090); owned by modules/profile. */
export const businessProfiles = pgTable('business_profiles', {
  userId: uuid('user_id').primaryKey(),
  companyName: text('company_name').notNull(),
  crNumber: text('cr_number'),
  vatNumber: text('vat_number'),
  fax: text('fax'),
  website: text('website'),
  logoFileId: uuid('logo_file_id'),
  cityId: integer('city_id'),
  districtId: bigint('district_id', { mode: 'number' }),
  addressDetails: jsonb('address_details').$type<StopAddressInput>(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Contact info to share (migration 0090); owned by modules/profile. */
export const contactShares = pgTable('contact_shares', {
  userId: uuid('user_id').primaryKey(),
  phone: text('phone'),
  phoneShare: boolean('phone_share').notNull().default(false),
  email: text('email'),
  emailShare: boolean('email_share').notNull().default(false),
  whatsapp: text('whatsapp'),
  whatsappShare: boolean('whatsapp_share').notNull().default(false),
  officePhone: text('office_phone'),
  officePhoneShare: boolean('office_phone_share').notNull().default(false),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** The address book (migration 0090); owned by modules/profile. */
export const savedAddresses = pgTable('saved_addresses', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  label: text('label').notNull(),
  cityId: integer('city_id').notNull(),
  districtId: bigint('district_id', { mode: 'number' }),
  address: text('address'),
  addressDetails: jsonb('address_details').$type<StopAddressInput>().notNull(),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
