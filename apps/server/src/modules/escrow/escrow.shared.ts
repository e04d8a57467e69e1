import { fromHalalas, type Escrow, type LedgerPosting } from '@masar/shared';
import type { CurrentUser } from '../auth/auth.types.ts';
import { AppError } from '../../lib/errors.ts';
import type { EscrowRow } from './escrow.repository.ts';

/** The held total of an escrow: price + VAT, halalas. */
export const totalOf = (e: EscrowRow): number => e.priceHalalas + e.vatHalalas;

/** The party the user is on an escrow, or NOT_FOUND (ESCROW_NOT_FOUND when there is none). */
export function partyOf(e: EscrowRow | undefined, user: CurrentUser): 'shipper' | 'carrier' {
  if (!e) throw new AppError('ESCROW_NOT_FOUND');
  if (e.shipperId === user.id) return 'shipper';
  if (e.carrierId === user.id) return 'carrier';
  throw new AppError('NOT_FOUND');
}

/** Funding: money comes in from the billing wallet (platform `funding`) and is held for the shipper. */
export const fundingPostings = (e: EscrowRow): LedgerPosting[] => [
  { owner: null, account: 'funding', amount: -totalOf(e) },
  { owner: e.shipperId, account: 'escrow_held', amount: totalOf(e) },
];

/**
 * The escrow leaves: `carrierHalalas` (incl. VAT) to the carrier — split into price (`payable`)
 * and VAT (`vat`) in the escrow's proportion, VAT rounded half up — and the rest back to the
 * shipper's billing wallet (platform `funding`). Zero legs are left out.
 */
export function payoutPostings(e: EscrowRow, carrierHalalas: number): LedgerPosting[] {
  const total = totalOf(e);
  const vat = Math.floor((2 * carrierHalalas * e.vatHalalas + total) / (2 * total));
  const legs: LedgerPosting[] = [
    { owner: e.shipperId, account: 'escrow_held', amount: -total },
    { owner: e.carrierId, account: 'payable', amount: carrierHalalas - vat },
    { owner: e.carrierId, account: 'vat', amount: vat },
    { owner: null, account: 'funding', amount: total - carrierHalalas },
  ];
  return legs.filter((p) => p.amount !== 0);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Row → API shape (amounts as SAR decimal strings). */
export function toEscrow(e: EscrowRow): Escrow {
  const total = totalOf(e);
  return {
    id: e.id,
    loadId: e.loadId,
    status: e.status,
    priceSar: fromHalalas(e.priceHalalas),
    vatSar: fromHalalas(e.vatHalalas),
    totalSar: fromHalalas(total),
    fundedAt: iso(e.fundedAt),
    releaseAt: iso(e.releaseAt),
    releasedAt: iso(e.releasedAt),
    dispute: e.disputedAt
      ? {
          at: e.disputedAt.toISOString(),
          by: e.disputeBy === e.carrierId ? 'carrier' : 'shipper',
          reason: e.disputeReason ?? '',
          evidence: e.disputeEvidence ?? '',
        }
      : null,
    settlement:
      e.settledAt && e.settlement
        ? {
            kind: e.settlement,
            carrierSar: fromHalalas(e.settledCarrierHalalas ?? 0),
            refundSar: fromHalalas(total - (e.settledCarrierHalalas ?? 0)),
            reason: e.settlementReason ?? '',
            at: e.settledAt.toISOString(),
          }
        : null,
  };
}
