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
  addressDetails: jsonb('address_details').$type<StopAddressInput>(),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Team members (migration 0092); owned by modules/team, read by the auth plugin (who a session acts for). */
export const teamMembers = pgTable('team_members', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  memberUserId: uuid('member_user_id'),
  phone: text('phone').notNull(),
  name: text('name').notNull(),
  role: text('role').notNull(),
  status: text('status').notNull().default('invited'),
  invitedBy: uuid('invited_by').notNull(),
  removedBy: uuid('removed_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  acceptedAt: ts('accepted_at'),
  removedAt: ts('removed_at'),
});

/** The team's audit trail (migration 0092); owned by modules/team. */
export const teamEvents = pgTable('team_events', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  teamMemberId: uuid('team_member_id').notNull(),
  type: text('type').notNull(),
  actorUserId: uuid('actor_user_id').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: ts('created_at').notNull().defaultNow(),
});
