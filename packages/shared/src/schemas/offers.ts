import { z } from 'zod';
import { OFFER_ACTIONS, OFFER_STATUSES } from '../constants.ts';
import { listOf, paginationQuery } from './common.ts';
import { priceSchema } from './loads.ts';

/** POST /offers — a carrier's (or broker's) bid on a posted load; price in SAR. */
export const createOfferBody = z.object({ loadId: z.uuid(), price: priceSchema });

/**
 * POST /offerRespond — the party that did not name the last price answers it:
 * accept (books the load at the offer's current price), reject, or counter with `price`.
 */
export const offerRespondBody = z
  .object({ offerId: z.uuid(), action: z.enum(OFFER_ACTIONS), price: priceSchema.optional() })
  .refine((b) => b.action !== 'counter' || b.price !== undefined, { message: 'v.pricePositive', path: ['price'] });

/** GET /offers?loadId= (offers on one of my loads) or ?box=sent|received. */
export const offersQuery = paginationQuery.extend({ loadId: z.uuid().optional(), box: z.enum(['sent', 'received']).optional() });

export const offerHistoryEntry = z.object({ by: z.enum(['carrier', 'shipper']), action: z.string(), price: z.number().nullable(), at: z.string() });

/**
 * An offer. `price` is the current price on the table, `originalPrice` the carrier's first
 * bid, `lastOfferBy` who named `price` (the other party may answer).
 */
export const offerSchema = z.object({
  id: z.uuid(),
  loadId: z.uuid(),
  loadReferenceId: z.string(),
  carrierId: z.uuid(),
  carrierCompany: z.string(),
  shipperId: z.uuid(),
  shipperCompany: z.string(),
  price: z.number(),
  originalPrice: z.number(),
  lastOfferBy: z.enum(['carrier', 'shipper']),
  status: z.enum(OFFER_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  history: z.array(offerHistoryEntry),
  /** Lane summary for lists: first pickup and last drop city names. */
  lane: z.object({ fromEn: z.string(), fromAr: z.string(), toEn: z.string(), toAr: z.string() }),
});
export type Offer = z.infer<typeof offerSchema>;
export const offerListResponse = listOf(offerSchema);
