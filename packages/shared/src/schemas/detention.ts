import { z } from 'zod';

/**
 * Detention from facts (issue 50): GET /loads/:id/detention for the shipper and the booked
 * carrier, and the shipper's decision per stop. Amounts: SAR decimal strings; times ISO 8601.
 */
const fact = z.object({
  /** The step's time as the driver tapped it (device time when recorded offline), else the server's. */
  at: z.string(),
  recordedOffline: z.boolean(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** Distance from the stop, km (the step's geofence); flagged when too far. */
  distanceKm: z.number().nullable(),
  flagged: z.boolean(),
});
export const detentionStopSchema = z.object({
  stop: z.enum(['pickup', 'drop']),
  arrival: fact.nullable(),
  departure: fact.nullable(),
  /** The stop's proof (pickup or drop photo) id, if taken. */
  proofId: z.uuid().nullable(),
  /** Still at the stop: the amount grows until departure. */
  accruing: z.boolean(),
  dwellMinutes: z.number().int(),
  billableMinutes: z.number().int(),
  amountSar: z.string(),
  capped: z.boolean(),
  decision: z.object({ decision: z.enum(['accepted', 'disputed']), amountSar: z.string(), reason: z.string().nullable(), at: z.string() }).nullable(),
});
export const detentionSchema = z.object({
  loadId: z.uuid(),
  freeHours: z.number().int(),
  rateSar: z.string(),
  capSar: z.string().nullable(),
  stops: z.array(detentionStopSchema),
  totalSar: z.string(),
});
export type Detention = z.infer<typeof detentionSchema>;

/** POST /loads/:id/detention/decide: the shipper accepts a stop's detention or disputes it (reason required). */
export const detentionDecisionBody = z
  .object({
    stop: z.enum(['pickup', 'drop']),
    decision: z.enum(['accept', 'dispute']),
    reason: z.string({ error: 'v.disputeReason' }).trim().min(10, 'v.disputeReason').max(500, 'v.disputeReason').optional(),
  })
  .refine((b) => b.decision === 'accept' || !!b.reason, { message: 'v.disputeReason', path: ['reason'] });
export type DetentionDecisionBody = z.infer<typeof detentionDecisionBody>;
