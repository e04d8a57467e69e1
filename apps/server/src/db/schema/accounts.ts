import { sql } from 'drizzle-orm';
import { bigint, boolean, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  accountType: smallint('account_type').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  companyName: text('company_name').notNull(),
  email: text('email').notNull(),
  phone: text('phone').notNull(),
  passwordHash: text('password_hash').notNull(),
  status: smallint('status').notNull().default(1),
  isFirstTimeApproved: boolean('is_first_time_approved').notNull().default(false),
  isFirstTimeLoginAfterApproved: boolean('is_first_time_login_after_approved').notNull().default(false),
  language: text('language').notNull().default('en'),
  /** Wrong passwords since failedLoginWindowAt (migration 0021; auth sign-in throttle). */
  failedLogins: integer('failed_logins').notNull().default(0),
  failedLoginWindowAt: ts('failed_login_window_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const subscriptions = pgTable('subscriptions', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  planCode: text('plan_code').notNull(),
  planName: text('plan_name').notNull(),
  active: boolean('active').notNull().default(true),
  startedAt: ts('started_at').notNull().defaultNow(),
  /** End of the current period (null: no end, e.g. demo plans). */
  endsAt: ts('ends_at'),
  // migration 0075 (issue 8): the lifecycle, owned by modules/billing
  status: text('status').notNull().default('active'),
  trial: boolean('trial').notNull().default(false),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  priceHalalas: bigint('price_halalas', { mode: 'number' }),
  months: smallint('months'),
  cardId: uuid('card_id'),
  renewalAttempts: smallint('renewal_attempts').notNull().default(0),
  lastRenewalError: text('last_renewal_error'),
  lastRenewalAt: ts('last_renewal_at'),
  cancelledAt: ts('cancelled_at'),
});

export const otps = pgTable('otps', {
  id: uuid('id').primaryKey(),
  phone: text('phone').notNull(),
  purpose: text('purpose').notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: ts('expires_at').notNull(),
  consumedAt: ts('consumed_at'),
  ip: text('ip'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey(),
  familyId: uuid('family_id').notNull(),
  userId: uuid('user_id'),
  refreshHash: text('refresh_hash').notNull(),
  device: jsonb('device').notNull().default({}),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  rotatedAt: ts('rotated_at'),
  revokedAt: ts('revoked_at'),
  logoutInfo: jsonb('logout_info'),
});

/**
 * A subscription grants its plan while it is active and inside its period (the one definition;
 * modules/billing keeps `active` and `ends_at` up to date: trials, renewals, cancellations).
 */
export const PLAN_IN_FORCE = sql`(${subscriptions.active} and (${subscriptions.endsAt} is null or ${subscriptions.endsAt} > now()))`;
