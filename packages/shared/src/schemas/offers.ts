import { z } from 'zod';
import { OFFER_ACTIONS, OFFER_STATUSES } from '../constants.ts';
import { listOf, paginationQuery } from './common.ts';
import { priceSchema } from './loads.ts';
import { moneySarOut } from '../money-schemas.ts';
import { accountRecordSchema } from './records.ts';

/** POST /offers — a carrier's (or broker's) bid on a posted load; priceSar a decimal string. */
export const createOfferBody = z.object({ loadId: z.uuid(), priceSar: priceSchema });

/**
 * POST /bookNow — book a Book Now load at its posted price in one step (issue 19). `priceSar` is
 * the amount the carrier confirmed: when the shipper changed the price meanwhile the booking is
 * refused (BOOK_NOW_PRICE_CHANGED) rather than made at a price the carrier did not see.
 */
export const bookNowBody = z.object({ loadId: z.uuid(), priceSar: priceSchema });

/**
 * POST /offerRespond — the party that did not name the last price answers it:
 * accept (books the load at the offer's current price), reject, or counter with `priceSar`.
 */
export const offerRespondBody = z
  .object({ offerId: z.uuid(), action: z.enum(OFFER_ACTIONS), priceSar: priceSchema.optional() })
  .refine((b) => b.action !== 'counter' || b.priceSar !== undefined, { message: 'v.pricePositive', path: ['priceSar'] });

/**
 * GET /offers?loadId= (offers on one of my loads) or ?box=sent|received; `turn=mine` keeps the
 * open offers that wait for my answer (the other party named the last price; issue 23).
 */
export const offersQuery = paginationQuery.extend({
  loadId: z.uuid().optional(),
  box: z.enum(['sent', 'received']).optional(),
  turn: z.enum(['mine']).optional(),
});

export const offerHistoryEntry = z.object({ by: z.enum(['carrier', 'shipper']), action: z.string(), priceSar: moneySarOut.nullable(), at: z.string() });

/**
 * An offer. `priceSar` is the current price on the table, `originalPriceSar` the carrier's
 * first bid (SAR decimal strings), `lastOfferBy` who named `priceSar` (the other party may answer).
 */
export const offerSchema = z.object({
  id: z.uuid(),
  loadId: z.uuid(),
  loadReferenceId: z.string(),
  carrierId: z.uuid(),
  carrierCompany: z.string(),
  shipperId: z.uuid(),
  shipperCompany: z.string(),
  priceSar: moneySarOut,
  originalPriceSar: moneySarOut,
  lastOfferBy: z.enum(['carrier', 'shipper']),
  status: z.enum(OFFER_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  history: z.array(offerHistoryEntry),
  /** Lane summary for lists: first pickup and last drop city names. */
  lane: z.object({ fromEn: z.string(), fromAr: z.string(), toEn: z.string(), toAr: z.string() }),
  /** The bidding carrier's fact-based record (issue 19; docs/account-record.md): on the offers listed to the load's shipper. */
  carrierRecord: accountRecordSchema.optional(),
});
export type Offer = z.infer<typeof offerSchema>;
export const offerListResponse = listOf(offerSchema);
