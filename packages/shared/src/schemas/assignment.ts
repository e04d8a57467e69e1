import { z } from 'zod';
import { LOAD_STATUSES } from '../rules/lifecycle.ts';

/**
 * POST /delivery-tracking/assign-driver (spec §2, §4; issue 7): the awarded carrier (the owner,
 * for an own-vehicle shipment; the vendor, for a vendor shipment) puts one of its vehicles on a
 * booked shipment. The vehicle brings its linked driver and trailer (spec §5: a vehicle without
 * both is not available for assignment).
 */
export const assignShipmentBody = z.object({ loadId: z.uuid(), vehicleId: z.uuid() });
export type AssignShipmentBody = z.infer<typeof assignShipmentBody>;

/** POST /delivery-tracking/unassign-driver: take the vehicle and driver off (before the Bayan trip exists). */
export const unassignShipmentBody = z.object({ loadId: z.uuid() });

/** GET /delivery-tracking/:loadId — who drives a shipment. */
export const loadIdParams = z.object({ loadId: z.uuid() });

/**
 * The assignment of a shipment: null parts before a vehicle is assigned. Weight in kg, WASL status of the vehicle.
 */
export const assignmentSchema = z.object({
  loadId: z.uuid(),
  status: z.enum(LOAD_STATUSES),
  assignedAt: z.string().nullable(),
  /** When the driver completed the job (proof of drop); null before. */
  deliveredAt: z.string().nullable(),
  /** The assigned vehicle weighs 3.5 t or more: the shipment needs a Bayan trip and completes when it is closed. */
  bayanRequired: z.boolean(),
  vehicle: z
    .object({
      id: z.uuid(),
      /** Plate as on the registration: digits and the three Arabic letters (right to left: right, middle, left). */
      plate: z.object({ digits: z.string(), left: z.string(), middle: z.string(), right: z.string() }),
      plateType: z.number().int(),
      vehicleType: z.string(),
      weightKg: z.number(),
      waslStatus: z.string(),
    })
    .nullable(),
  driver: z.object({ id: z.uuid(), name: z.string(), phone: z.string() }).nullable(),
  trailer: z.object({ id: z.uuid(), trailerNumber: z.string() }).nullable(),
});
export type Assignment = z.infer<typeof assignmentSchema>;
