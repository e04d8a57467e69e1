import { z } from 'zod';

/**
 * The fact-based record of an account (issue 19 "Fact-based record"; docs/account-record.md):
 * figures counted from what happened on Masar — shipment events — never from opinions.
 *
 * Each side (the account as carrier, as shipper; a broker may have both) is shown only once it
 * has `RECORD_MIN_COMPLETED` completed shipments on that side; until then that side is `null`.
 * `newOnMasar` is true when neither side is shown (the web then says "New on Masar").
 */
export const RECORD_MIN_COMPLETED = 5;

/** Percentages are whole numbers 0…100, rounded; null when nothing was measured. */
const pct = z.number().int().min(0).max(100).nullable();

/** The account as a carrier (carriers, brokers that carried). */
export const carrierRecordSchema = z.object({
  /** Shipments it carried to completion (load.completed, load.bayan_closed). */
  completed: z.number().int(),
  /** Share of measured pickups where the truck arrived (trip step `at_pickup`) by the end of the pickup window. */
  onTimePickupPct: pct,
  /** Pickups measured (shipments with an `at_pickup` step). */
  pickupsMeasured: z.number().int(),
  /** Share of measured deliveries where the truck arrived (trip step `at_drop`) by the end of the delivery window. */
  onTimeDeliveryPct: pct,
  deliveriesMeasured: z.number().int(),
  /** Booked shipments this account cancelled (its Bayan waybill cancelled by it). */
  cancellationsAfterBooking: z.number().int(),
  /** Vehicles of its fleet (not deleted) and how many are WASL verified; pct null when it has no vehicle. */
  vehicles: z.number().int(),
  waslVerifiedVehicles: z.number().int(),
  waslVerifiedPct: pct,
});
export type CarrierRecord = z.infer<typeof carrierRecordSchema>;

/** The account as a shipper (shippers, brokers that shipped). */
export const shipperRecordSchema = z.object({
  /** Its shipments completed by a carrier. */
  completed: z.number().int(),
  /** Mean days from delivery to payment received over its newest paid shipments (one decimal; null: none paid yet). */
  daysToPay: z.number().nullable(),
  /** Paid shipments the mean covers (at most DAYS_TO_PAY_WINDOW). */
  paidShipments: z.number().int(),
  /** Booked shipments it cancelled (cancelled while booked, or its Bayan waybill cancelled by it). */
  cancellationsAfterBooking: z.number().int(),
});
export type ShipperRecord = z.infer<typeof shipperRecordSchema>;

/**
 * GET /accounts/:id/record (both sides), and the `record` of a truck, the `carrierRecord` of an
 * offer — there the carrier side only (`asShipper` null; `newOnMasar` from the carrier side).
 */
export const accountRecordSchema = z.object({
  accountId: z.uuid(),
  /** No side shown has RECORD_MIN_COMPLETED completed shipments yet: show "New on Masar". */
  newOnMasar: z.boolean(),
  asCarrier: carrierRecordSchema.nullable(),
  asShipper: shipperRecordSchema.nullable(),
});
export type AccountRecord = z.infer<typeof accountRecordSchema>;

/** A whole-number percentage of `part` in `whole` (null when `whole` is 0). */
export function recordPct(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((100 * part) / whole) : null;
}
