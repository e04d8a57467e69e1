import type { EscrowSettlement, EscrowStatus } from '@masar/shared';
import { bigint, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const halalas = (name: string) => bigint(name, { mode: 'number' });

/**
 * Payment protection (migration 0141; issue 50), owned by modules/escrow: one escrow per
 * protected load, amounts in integer halalas. Its status is written only by
 * escrow/lifecycle.repository.ts (ESCROW_TRANSITIONS); the money moves in the ledger.
 */
export const escrows = pgTable('escrows', {
  id: uuid('id').primaryKey(),
  loadId: uuid('load_id').notNull().unique(),
  shipperId: uuid('shipper_id').notNull(),
  carrierId: uuid('carrier_id').notNull(),
  priceHalalas: halalas('price_halalas').notNull(),
  vatHalalas: halalas('vat_halalas').notNull(),
  status: text('status').notNull().$type<EscrowStatus>(),
  fundedAt: ts('funded_at'),
  releaseAt: ts('release_at'),
  releasedAt: ts('released_at'),
  disputedAt: ts('disputed_at'),
  disputeBy: uuid('dispute_by'),
  disputeReason: text('dispute_reason'),
  disputeEvidence: text('dispute_evidence'),
  settledAt: ts('settled_at'),
  settlement: text('settlement').$type<EscrowSettlement>(),
  settledCarrierHalalas: halalas('settled_carrier_halalas'),
  settlementReason: text('settlement_reason'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
