import { z } from 'zod';
import { isoDateTime } from './common.ts';

/**
 * The driver's trip (issue 7 "The driver's trip"; spec §2 driver job link, §6 driver identified
 * by phone + licence number). The steps, in the only order the server accepts them:
 * started → to_pickup → at_pickup → pickup_proof → to_drop → at_drop → drop_proof → completed.
 * The two proof steps are recorded by a proof upload (POST /driver/trip/proofs), the others by
 * POST /driver/trip/steps. `completed` records the delivery (loads.delivered_at).
 */
export const TRIP_STEPS = ['started', 'to_pickup', 'at_pickup', 'pickup_proof', 'to_drop', 'at_drop', 'drop_proof', 'completed'] as const;
export type TripStep = (typeof TRIP_STEPS)[number];
/** Steps recorded by uploading a proof, and the stop each proves. */
export const PROOF_STEPS = { pickup_proof: 'pickup', drop_proof: 'drop' } as const satisfies Partial<Record<TripStep, string>>;
export const PROOF_STOPS = ['pickup', 'drop'] as const;
export type ProofStop = (typeof PROOF_STOPS)[number];
/** Steps sent as a plain step (not a proof upload). */
export const PLAIN_TRIP_STEPS = TRIP_STEPS.filter((s) => !(s in PROOF_STEPS)) as Exclude<TripStep, keyof typeof PROOF_STEPS>[];

/** The step that must come after `last` (null: nothing done yet → 'started'); null once completed. */
export function nextTripStep(last: TripStep | null): TripStep | null {
  if (last === null) return TRIP_STEPS[0];
  const i = TRIP_STEPS.indexOf(last);
  return i >= 0 && i < TRIP_STEPS.length - 1 ? TRIP_STEPS[i + 1] : null;
}

/** Whether `step` may be recorded after `last` (the step machine: strictly in order, each once). */
export function tripStepAllowed(last: TripStep | null, step: TripStep): boolean {
  return nextTripStep(last) === step;
}

/**
 * The stop a step happens at, for the geofence on its position (arrivals, proofs, delivery): the
 * position a step is recorded with is measured against it (PROOF_GEOFENCE_KM on the server).
 */
export const STEP_STOPS: Partial<Record<TripStep, 'pickup' | 'drop'>> = {
  at_pickup: 'pickup',
  pickup_proof: 'pickup',
  at_drop: 'drop',
  drop_proof: 'drop',
  completed: 'drop',
};

/**
 * How far ahead of the server's clock a device time may be (issue 49), ms. Phones set their clock
 * from the network, but one that was offline for hours drifts, and a GPS fix's time comes from the
 * satellites while the server's from NTP: two minutes covers that drift and the request's own
 * travel time, while a time further ahead can only be a wrong clock (or a forged time).
 * The same allowance applies backwards to the assignment bound (a slow clock just after the
 * assignment is not a step taken before it).
 */
export const DEVICE_CLOCK_SKEW_MS = 2 * 60_000;

/**
 * When device and server time differ by more than this, the step arrived late (recorded offline,
 * sent on reconnect): the shipper's timeline shows both times (issue 49), ms.
 */
export const LATE_ARRIVAL_MS = 2 * 60_000;

/** Proof files: photo (JPEG, PNG, WebP) or PDF, sniffed by magic bytes, at most 10 MB. */
export const PROOF_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export const PROOF_MAX_BYTES = 10 * 1024 * 1024;

/** Why the browser gave no position (spec §8 "Location" messages: denied, unavailable, timeout, unsupported, unknown). */
export const GEO_ERRORS = ['denied', 'unavailable', 'timeout', 'unsupported', 'unknown'] as const;
export type GeoError = (typeof GEO_ERRORS)[number];

const lat = z.number().min(-90).max(90);
const lng = z.number().min(-180).max(180);

/** POST /driver/trip/session: the job link token and the driver's phone + licence number (spec §6). */
export const tripSessionBody = z.object({
  token: z.string().min(10).max(2000),
  phone: z.string().trim().min(5).max(20),
  licenceNumber: z.string().trim().min(1).max(20),
});
export const tripSessionResponse = z.object({
  /** Send as header `X-Trip-Token` on the trip calls; kept in sessionStorage by the web app. */
  sessionToken: z.string(),
  expiresAt: isoDateTime,
  driverName: z.string(),
});
export type TripSession = z.infer<typeof tripSessionResponse>;

/** Where a step or proof was taken (omitted when the browser gave none; `geoError` says why). */
const where = {
  lat: lat.optional(),
  lng: lng.optional(),
  /** Accuracy of the browser's fix, metres. */
  accuracyM: z.number().min(0).max(100_000).optional(),
  geoError: z.enum(GEO_ERRORS).optional(),
};

/**
 * The device's time of a write (issue 49): when the driver tapped, or the photo was taken,
 * ISO 8601 with its offset. Queued offline, it reaches the server later; accepted when not more
 * than DEVICE_CLOCK_SKEW_MS ahead of the server, not before the job's assignment and, for steps,
 * not before the previous step's device time. Absent: the server's time of receipt.
 */
const recordedAt = isoDateTime.optional();

/** POST /driver/trip/steps (the server stamps its own time; `recordedAt` is the device's) */
export const tripStepBody = z
  .object({ loadId: z.uuid(), step: z.enum(PLAIN_TRIP_STEPS), ...where, recordedAt })
  .refine((b) => (b.lat === undefined) === (b.lng === undefined), { message: 'v.required', path: ['lng'] });
export type TripStepInput = z.input<typeof tripStepBody>;

/** Multipart fields of POST /driver/trip/proofs (beside the `file` part). */
export const tripProofFields = z.object({
  loadId: z.uuid(),
  stop: z.enum(PROOF_STOPS),
  lat: z.coerce.number().min(-90).max(90).optional(),
  lng: z.coerce.number().min(-180).max(180).optional(),
  geoError: z.enum(GEO_ERRORS).optional(),
  recordedAt,
});

export const tripStepSchema = z.object({
  step: z.enum(TRIP_STEPS),
  /** When the server received the step. */
  at: isoDateTime,
  /** When the driver tapped it (the device's clock); null when the device sent no time. */
  recordedAt: isoDateTime.nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  geoError: z.enum(GEO_ERRORS).nullable(),
  /** Great-circle km from the step's position to its stop (STEP_STOPS; null without a position or stop). */
  distanceKm: z.number().nullable(),
  /** Recorded farther than PROOF_GEOFENCE_KM from its stop. */
  flagged: z.boolean(),
});
export type TripStepEntry = z.infer<typeof tripStepSchema>;

export const tripProofSchema = z.object({
  id: z.uuid(),
  stop: z.enum(PROOF_STOPS),
  mime: z.string(),
  size: z.number().int(),
  /** When the server received the proof. */
  at: isoDateTime,
  /** When the photo was taken (the device's clock); null when the device sent no time. */
  recordedAt: isoDateTime.nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** Great-circle km from the stop (null without a position). */
  distanceKm: z.number().nullable(),
  /** Taken farther than PROOF_GEOFENCE_KM from its stop. */
  flagged: z.boolean(),
  /** Download (shipper and carrier of the load; the driver during the trip). */
  url: z.string(),
});
export type TripProof = z.infer<typeof tripProofSchema>;

const point = z.object({ lat: z.number(), lng: z.number() });
/**
 * A stop as the driver needs it (issue 49: the stop, not just the city): the city, the free-text
 * address, the street from the structured national address (building number and street name),
 * the district in both languages (the reference district when the stop has one, else the
 * address's own district text in both), and the window: from `date` (the earliest) to `latestAt`
 * (the pickup's latest time, when the shipper set one), opening hours 'HH:MM'–'HH:MM' when set.
 */
const stopView = point.extend({
  cityEn: z.string(),
  cityAr: z.string(),
  address: z.string().nullable(),
  street: z.string().nullable(),
  districtEn: z.string().nullable(),
  districtAr: z.string().nullable(),
  date: isoDateTime,
  latestAt: isoDateTime.nullable(),
  hours: z.object({ from: z.string(), to: z.string() }).nullable(),
});
export type DriverStop = z.infer<typeof stopView>;

/** A shipment as the driver sees it during the trip. */
export const driverJobSchema = z.object({
  loadId: z.uuid(),
  referenceId: z.string(),
  status: z.string(),
  pickup: stopView,
  drop: stopView,
  /** The first cargo line's goods type (kept for older clients; `cargo` has every line). */
  goods: z.string().nullable(),
  /** Every cargo line: goods type code, quantity, its weight in kg (quantity × per item), ADR, conditions. */
  cargo: z.array(z.object({ goodsType: z.string(), quantity: z.number().int(), weightKg: z.number(), adr: z.boolean(), conditions: z.string().nullable() })),
  totalWeightKg: z.number(),
  steps: z.array(tripStepSchema),
  proofs: z.array(tripProofSchema),
  /** The step the server accepts next (null: job completed). */
  nextStep: z.enum(TRIP_STEPS).nullable(),
  /**
   * Whom the driver can call about this shipment (issue 23), by the product's contact rules:
   * `dispatcher` is the driver's manager (the fleet's manager phone) or else the carrier's shared
   * phone; `shipper` is the shipper's company with the phones it shares with the other party of a
   * booking and lets the carrier call (GET /loads/:id/contact rules; none when blocked or not shared).
   */
  contacts: z.object({
    dispatcher: z.object({ name: z.string(), phone: z.string() }).nullable(),
    shipper: z.object({ name: z.string(), phones: z.array(z.string()) }).nullable(),
  }),
});
export type DriverJob = z.infer<typeof driverJobSchema>;
export const driverJobsResponse = z.object({ driverName: z.string(), items: z.array(driverJobSchema) });
export type DriverJobs = z.infer<typeof driverJobsResponse>;

// ---------------------------------------------------------------------------------------------
// Tracking (spec §2 track vehicle, /godsview; /vehicles/track)

/** Bounds of a trail read (GET /vehicles/track, GET /loads/:id/tracking). */
export const TRAIL_MAX_HOURS = 72;
export const TRAIL_MAX_POINTS = 2000;
/** Positions per ingest call. */
export const POSITIONS_MAX_BATCH = 500;
/** Assumed average truck speed for ETAs, km/h (Saudi trunk roads; trucks are limited to 80–100 km/h). */
export const ETA_AVERAGE_SPEED_KMH = 70;

export const positionInput = z.object({
  lat,
  lng,
  /** km/h */
  speed: z.number().min(0).max(300).optional(),
  /** degrees clockwise from north, 0–360 */
  heading: z.number().min(0).max(360).optional(),
  at: isoDateTime,
});
export type PositionInput = z.infer<typeof positionInput>;

/**
 * POST /vehicles/track/positions: a GPS integration names the vehicle by `imei` (with an API key
 * of scope fleet:write); the driver's browser sends none (its trip token names the vehicle).
 */
export const positionsBody = z.object({
  imei: z.string().trim().min(5).max(20).optional(),
  positions: z.array(positionInput).min(1).max(POSITIONS_MAX_BATCH),
});
export const positionsAccepted = z.object({ vehicleId: z.uuid(), accepted: z.number().int() });

export const positionSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  speed: z.number().nullable(),
  heading: z.number().nullable(),
  at: isoDateTime,
});
export type Position = z.infer<typeof positionSchema>;

export const trackQuery = z.object({
  vehicleId: z.uuid(),
  /** Trail of the last N hours (default 12, at most TRAIL_MAX_HOURS); at most TRAIL_MAX_POINTS newest points. */
  hours: z.coerce.number().min(0.1).max(TRAIL_MAX_HOURS).default(12),
});
export const vehicleTrackSchema = z.object({
  vehicleId: z.uuid(),
  latest: positionSchema.nullable(),
  /** Oldest first. */
  trail: z.array(positionSchema),
});
export type VehicleTrack = z.infer<typeof vehicleTrackSchema>;

/** GET /loads/:id/tracking */
export const loadTrackingSchema = z.object({
  loadId: z.uuid(),
  referenceId: z.string(),
  status: z.string(),
  vehicleId: z.uuid().nullable(),
  pickup: point,
  drop: point,
  latest: positionSchema.nullable(),
  trail: z.array(positionSchema),
  steps: z.array(tripStepSchema),
  proofs: z.array(tripProofSchema),
  /** Where the truck heads: the pickup until the proof of pickup, then the drop; null once delivered. */
  heading: z.enum(PROOF_STOPS).nullable(),
  /** Great-circle km still to go (via the pickup when it is not done); null without a position or once delivered. */
  remainingKm: z.number().nullable(),
  /** Now + remainingKm / ETA_AVERAGE_SPEED_KMH. */
  eta: isoDateTime.nullable(),
  averageSpeedKmh: z.number(),
  deliveredAt: isoDateTime.nullable(),
});
export type LoadTracking = z.infer<typeof loadTrackingSchema>;

/**
 * GET /vehicles/track/overview: what /godsview draws (issue 23: each shipment with its lane,
 * driver, plate as printed on the plate, status and ETA; the vehicles with the shipment they
 * run). The driver and plate are the shipment's current assignment: none once unassigned.
 */
export const trackOverviewSchema = z.object({
  shipments: z.array(
    z.object({
      loadId: z.uuid(),
      referenceId: z.string(),
      status: z.string(),
      pickup: point,
      drop: point,
      lane: z.object({ fromEn: z.string(), fromAr: z.string(), toEn: z.string(), toAr: z.string() }),
      vehicleId: z.uuid().nullable(),
      /** The plate as printed: digits, then the three letters right to left, space-separated. */
      plate: z.string().nullable(),
      driverName: z.string().nullable(),
      latest: positionSchema.nullable(),
      lastStep: z.enum(TRIP_STEPS).nullable(),
      heading: z.enum(PROOF_STOPS).nullable(),
      /** Now + remaining great-circle km at ETA_AVERAGE_SPEED_KMH; null without a position. */
      eta: isoDateTime.nullable(),
    }),
  ),
  vehicles: z.array(
    z.object({
      vehicleId: z.uuid(),
      plate: z.string(),
      latest: positionSchema.nullable(),
      /** The running shipment this vehicle is assigned to, if any. */
      loadId: z.uuid().nullable(),
      referenceId: z.string().nullable(),
      driverName: z.string().nullable(),
    }),
  ),
});
export type TrackOverview = z.infer<typeof trackOverviewSchema>;

// ---------------------------------------------------------------------------------------------
// Payment follow-through

export const paymentReceivedResponse = z.object({ loadId: z.uuid(), paymentReceivedAt: isoDateTime });
/** How many of a shipper's newest paid shipments the average covers. */
export const DAYS_TO_PAY_WINDOW = 50;
export const daysToPaySchema = z.object({
  shipperId: z.uuid(),
  /** Mean days from delivery to payment received, one decimal; null when none is paid yet. */
  averageDays: z.number().nullable(),
  /** Paid shipments counted (at most DAYS_TO_PAY_WINDOW). */
  count: z.number().int(),
});
export type DaysToPay = z.infer<typeof daysToPaySchema>;
