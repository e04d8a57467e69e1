import { bigint, boolean, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const halalas = (name: string) => bigint(name, { mode: 'number' });

/** Saved cards (migration 0075); owned by modules/billing. Token, brand, last 4, expiry only. */
export const paymentCards = pgTable('payment_cards', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  gateway: text('gateway').notNull(),
  token: text('token').notNull(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expMonth: smallint('exp_month').notNull(),
  expYear: smallint('exp_year').notNull(),
  holderName: text('holder_name').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
  /** When the bank last declined a charge on this card (null after a successful one; migration 0095). */
  lastChargeFailedAt: ts('last_charge_failed_at'),
  /** The gateway's reason for that decline (e.g. card_declined, insufficient_funds). */
  lastChargeFailure: text('last_charge_failure'),
});

export const promoCodes = pgTable('promo_codes', {
  code: text('code').primaryKey(),
  kind: text('kind').notNull().$type<'percent' | 'fixed'>(),
  value: halalas('value').notNull(),
  expiresAt: ts('expires_at'),
  maxRedemptions: integer('max_redemptions'),
  redemptions: integer('redemptions').notNull().default(0),
  planCodes: text('plan_codes').array(),
  active: boolean('active').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    code: text('code').notNull(),
    userId: uuid('user_id').notNull(),
    intentId: uuid('intent_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.code, t.userId] })],
);

export const paymentIntents = pgTable('payment_intents', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  idempotencyKey: text('idempotency_key').notNull(),
  requestHash: text('request_hash').notNull(),
  purpose: smallint('purpose').notNull(),
  status: text('status').notNull().$type<'processing' | 'requires_action' | 'succeeded' | 'failed'>(),
  planCode: text('plan_code'),
  priceHalalas: halalas('price_halalas').notNull(),
  discountHalalas: halalas('discount_halalas').notNull().default(0),
  amountHalalas: halalas('amount_halalas').notNull(),
  vatHalalas: halalas('vat_halalas').notNull(),
  totalHalalas: halalas('total_halalas').notNull(),
  cardId: uuid('card_id'),
  payWithWallet: boolean('pay_with_wallet').notNull().default(false),
  promoCode: text('promo_code'),
  gateway: text('gateway'),
  gatewayRef: text('gateway_ref'),
  actionUrl: text('action_url'),
  failureCode: text('failure_code'),
  subscriptionId: uuid('subscription_id'),
  invoiceId: uuid('invoice_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const walletEntries = pgTable('wallet_entries', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  kind: text('kind').notNull().$type<'recharge' | 'payment' | 'refund' | 'escrow' | 'escrow_refund'>(),
  amountHalalas: halalas('amount_halalas').notNull(),
  intentId: uuid('intent_id'),
  /** Payment protection (migration 0141, issue 50): the escrow this debit funds or this refund returns. */
  escrowId: uuid('escrow_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const invoices = pgTable('invoices', {
  id: uuid('id').primaryKey(),
  number: text('number').notNull().unique(),
  userId: uuid('user_id').notNull(),
  intentId: uuid('intent_id').notNull().unique(),
  issuedAt: ts('issued_at').notNull().defaultNow(),
  seller: jsonb('seller').notNull(),
  buyer: jsonb('buyer').notNull(),
  lines: jsonb('lines').notNull(),
  subtotalHalalas: halalas('subtotal_halalas').notNull(),
  vatHalalas: halalas('vat_halalas').notNull(),
  totalHalalas: halalas('total_halalas').notNull(),
  zatcaQr: text('zatca_qr').notNull(),
});
