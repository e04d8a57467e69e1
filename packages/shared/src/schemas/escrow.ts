import { z } from 'zod';

/**
 * Payment protection (issue 50): escrow of a protected load's agreed price + VAT (15%). Amounts
 * are integer halalas in the database and decimal SAR strings on the wire.
 *
 * Statuses (ESCROW_TRANSITIONS, rules/escrow-lifecycle.ts):
 * - `unfunded` — booked, the shipper's wallet did not cover it yet (fund after a top-up);
 * - `funded` — the money is held (the carrier sees "Funded" before assigning a truck);
 * - `release_scheduled` — the shipment completed (proof of delivery, and Bayan closed where
 *   required): released to the carrier at `releaseAt` unless disputed first;
 * - `disputed` — a party opened a dispute with evidence: held until the operator settles;
 * - `released` — paid to the carrier (ledger: payable); `settled` — the operator decided
 *   (full, partial, refund); `refunded` — the load was cancelled, back to the shipper's wallet;
 *   `cancelled` — the load was cancelled before it was funded.
 */
export const ESCROW_STATUSES = ['unfunded', 'funded', 'release_scheduled', 'disputed', 'released', 'settled', 'refunded', 'cancelled'] as const;
export type EscrowStatus = (typeof ESCROW_STATUSES)[number];
export const ESCROW_SETTLEMENTS = ['full', 'partial', 'refund'] as const;
export type EscrowSettlement = (typeof ESCROW_SETTLEMENTS)[number];

const sar = z.string();

/** GET /loads/:id/escrow (shipper and booked carrier). */
export const escrowSchema = z.object({
  id: z.uuid(),
  loadId: z.uuid(),
  status: z.enum(ESCROW_STATUSES),
  priceSar: sar,
  vatSar: sar,
  /** price + VAT, what the shipper funds. */
  totalSar: sar,
  fundedAt: z.string().nullable(),
  /** When the release runs (end of the dispute window); null before the shipment completed. */
  releaseAt: z.string().nullable(),
  releasedAt: z.string().nullable(),
  dispute: z.object({ at: z.string(), by: z.enum(['shipper', 'carrier']), reason: z.string(), evidence: z.string() }).nullable(),
  settlement: z.object({ kind: z.enum(ESCROW_SETTLEMENTS), carrierSar: sar, refundSar: sar, reason: z.string(), at: z.string() }).nullable(),
});
export type Escrow = z.infer<typeof escrowSchema>;

/** POST /loads/:id/escrow/dispute: why, and the evidence (text: what happened, proof ids, photos' references). */
export const escrowDisputeBody = z.object({
  reason: z.string({ error: 'v.disputeReason' }).trim().min(10, 'v.disputeReason').max(500, 'v.disputeReason'),
  evidence: z.string({ error: 'v.disputeEvidence' }).trim().min(10, 'v.disputeEvidence').max(4000, 'v.disputeEvidence'),
});
export type EscrowDisputeBody = z.infer<typeof escrowDisputeBody>;

/** The operator's settlement (admin CLI): full to the carrier, a partial amount (SAR incl. VAT), or a refund. */
export const escrowSettleInput = z
  .object({
    kind: z.enum(ESCROW_SETTLEMENTS),
    /** partial only: what the carrier receives, SAR incl. VAT, more than 0 and less than the total. */
    carrierSar: z
      .string()
      .regex(/^\d+(\.\d{1,2})?$/)
      .optional(),
    reason: z.string().trim().min(3).max(500),
  })
  .refine((s) => (s.kind === 'partial') === (s.carrierSar !== undefined), {
    message: 'carrierSar is required for partial and only for partial',
    path: ['carrierSar'],
  });
export type EscrowSettleInput = z.infer<typeof escrowSettleInput>;
