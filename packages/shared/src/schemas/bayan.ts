import { z } from 'zod';
import { nameSchema, phoneSchema } from '../validation.ts';
import { isoDateTime, refId } from './common.ts';

/**
 * Bayan trips and waybills (issue 7; spec §1, §4, §5, §7 `/bayan/list`). A shipment of 3.5 t or
 * more needs a Bayan trip (Elm's transport permit) with a waybill before it runs. Statuses of a
 * trip on our side: `pending` (requested, Bayan did not answer; the retry job creates it),
 * `active` (created), `closed` (delivered; the shipment is completed), `cancelled` (with a reason).
 */
export const BAYAN_TRIP_STATUSES = ['pending', 'active', 'closed', 'cancelled'] as const;
export type BayanTripStatus = (typeof BAYAN_TRIP_STATUSES)[number];

/** Waybill cancellation reasons (spec §5): recipient refused, due to damage, due to theft. */
export const BAYAN_CANCEL_REASONS = ['recipient_refused', 'damage', 'theft'] as const;
export type BayanCancelReasonCode = (typeof BAYAN_CANCEL_REASONS)[number];

/** One Bayan trip as the API shows it. */
export const bayanTripSchema = z.object({
  id: z.uuid(),
  loadId: z.uuid(),
  loadReferenceId: z.string(),
  status: z.enum(BAYAN_TRIP_STATUSES),
  /** Bayan's trip id; null while pending. */
  tripId: z.string().nullable(),
  waybillId: z.string().nullable(),
  /** The printed waybill number (6 alphanumeric characters, spec §5); null while pending. */
  waybillNumber: z.string().nullable(),
  vehicleId: z.uuid(),
  plateText: z.string(),
  driverId: z.uuid(),
  driverName: z.string(),
  /** Lane, for the list: pickup and drop city names. */
  fromEn: z.string(),
  fromAr: z.string(),
  toEn: z.string(),
  toAr: z.string(),
  cancelReason: z.enum(BAYAN_CANCEL_REASONS).nullable(),
  deliveredAt: z.string().nullable(),
  /** Retries so far while pending, and the last failure (for the carrier). */
  attempts: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BayanTripView = z.infer<typeof bayanTripSchema>;

/**
 * GET /bayan/list — the caller's trips (as carrier or shipper), newest first. Filters: status,
 * created between `from` and `to`, shipment reference or waybill number (`reference`, prefix).
 * Keyset pagination: pass the previous page's `nextCursor` as `cursor`; no total is counted.
 */
export const bayanListQuery = z.object({
  status: z.enum(BAYAN_TRIP_STATUSES).optional(),
  from: isoDateTime.optional(),
  to: isoDateTime.optional(),
  reference: z.string().trim().min(1).max(40).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});
export type BayanListQuery = z.infer<typeof bayanListQuery>;
export const bayanListResponse = z.object({ items: z.array(bayanTripSchema), nextCursor: z.string().nullable() });

/**
 * POST /bayan/trips — the confirmation step. `vehicleId`/`driverId`, when sent, must be the ones
 * assigned on the shipment (the UI sends what it showed; a mismatch is refused).
 */
export const createBayanBody = z.object({
  loadId: z.uuid(),
  vehicleId: z.uuid().optional(),
  driverId: z.uuid().optional(),
});
export type CreateBayanBody = z.infer<typeof createBayanBody>;

/** GET /bayan/trips?loadId= — the shipment's live or last Bayan, for the load page. */
export const loadBayanQuery = z.object({ loadId: z.uuid() });
export const loadBayanSchema = z.object({
  bayan: z
    .object({
      id: z.uuid(),
      tripId: z.string().nullable(),
      waybillNumber: z.string().nullable(),
      status: z.enum(BAYAN_TRIP_STATUSES),
    })
    .nullable(),
});
export type LoadBayan = z.infer<typeof loadBayanSchema>;

/** POST /bayan/trips/:id/close — the actual delivery time. */
export const closeBayanBody = z.object({
  deliveredAt: isoDateTime,
  /**
   * Close without the driver's proof of delivery (issue 22): the shipper's reason (3–500
   * characters), stored and published as `load.delivery_override` on the shipment timeline.
   * Without it, closing before the driver completed the job (proof of drop) is NOT_DELIVERED.
   */
  overrideReason: z.string().trim().min(3, 'v.required').max(500).optional(),
});
/** POST /bayan/trips/:id/cancel — why (spec §5). */
export const cancelBayanBody = z.object({ reason: z.enum(BAYAN_CANCEL_REASONS) });

/** Waybill config in the account (spec §2 account, §3 business profile): the sender's defaults. */
export const waybillConfigSchema = z.object({
  senderName: nameSchema,
  senderPhone: phoneSchema,
  senderAddress: z.string().trim().min(3, 'v.required').max(200),
  senderCityId: refId(),
});
export type WaybillConfig = z.infer<typeof waybillConfigSchema>;
/** The saved config as the API answers it (phone in E.164). */
export const waybillConfigView = z.object({ senderName: z.string(), senderPhone: z.string(), senderAddress: z.string(), senderCityId: z.number().int() });
export const waybillConfigResponse = z.object({ config: waybillConfigView.nullable() });
