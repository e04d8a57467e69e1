import { z } from 'zod';
import { isAdult, FLEET_LIMITS, WASL_STATUSES } from '../rules/fleet.ts';
import { isValidCr, isValidDriverId, isValidImei, isValidLicence, isValidMoi, isValidSequence, isValidTrailerNumber } from '../rules/identifiers.ts';
import { NATIONALITY_VALUES } from '../rules/nationalities.ts';
import { isValidPlateDigits, normalizePlateLetter, PLATE_TYPE_IDS, toLatinDigits } from '../rules/plate.ts';
import { nameSchema, phoneSchema } from '../validation.ts';
import { listOf, paginationQuery } from './common.ts';

/**
 * Fleet management (spec §2 "Fleet management", §3 Vehicle/Trailer/Driver, §4 states, §5 rules).
 * One schema per form: the web forms, the API and the CSV import validate with the same ones.
 * Messages are `v.*` keys (messages.ts), localized by the server / the web.
 */

/** Fleet states (spec §4): suspended can be made active again; deleted is a soft delete. */
export const FLEET_STATES = ['active', 'suspended', 'deleted'] as const;
export type FleetState = (typeof FLEET_STATES)[number];
/** Vehicle availability (spec §3): busy while on a job. */
export const AVAILABILITIES = ['free', 'busy'] as const;
export type Availability = (typeof AVAILABILITIES)[number];
/** Vehicle source (spec §3 "own or vendor source"). */
export const VEHICLE_SOURCES = ['own', 'vendor'] as const;
export { WASL_STATUSES };
export const SALUTATIONS = ['mr', 'mrs', 'ms', 'dr'] as const;
/** Fleet tabs (spec §2): 0 All, 1 Driver, 2 Trailer, 3 Vehicle. */
export const FLEET_TABS = { all: 0, driver: 1, trailer: 2, vehicle: 3 } as const;

/**
 * The same fields without their defaults, for PATCH bodies: a default inside `.partial()` would
 * still fill an omitted field (zod 4) and an edit would wipe e.g. file lists.
 */
export function withoutDefaults<T extends z.ZodRawShape>(shape: T): { [K in keyof T]: T[K] extends z.ZodDefault<infer I> ? I : T[K] } {
  return Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s instanceof z.ZodDefault ? (s.unwrap() as z.ZodType) : s])) as never;
}

/** Trim, convert Arabic-Indic digits to Latin, then check with a pure rule. */
const idField = (check: (v: string) => boolean, key: string) => z.string({ error: key }).trim().transform(toLatinDigits).refine(check, { message: key });

const fileIds = z.array(z.uuid({ error: 'v.fileId' })).max(10, 'v.filesMax');
const text = (max: number, key = 'v.required') => z.string({ error: key }).trim().min(1, key).max(max, key);

/**
 * Plate letter: one of the 17 plate letters; aliases (أ/إ/آ→ا, هـ→ه, ي→ى) and Latin twins are
 * accepted and normalised to the canonical Arabic letter.
 */
export const plateLetterSchema = z.string({ error: 'v.plateLetter' }).transform((v, ctx) => {
  const l = normalizePlateLetter(v);
  if (!l) {
    ctx.addIssue({ code: 'custom', message: 'v.plateLetter' });
    return z.NEVER;
  }
  return l;
});

/**
 * Number plate (spec §3/§5): `digits` exactly 4 digits (Arabic-Indic accepted, stored Latin),
 * not all zeros; `left`/`middle`/`right`: the three letters in their visual position on the
 * plate (the web PlatePicker's PlateValue).
 */
export const plateSchema = z.object({
  digits: idField(isValidPlateDigits, 'v.plateDigits'),
  left: plateLetterSchema,
  middle: plateLetterSchema,
  right: plateLetterSchema,
});
export type PlateInput = z.input<typeof plateSchema>;

const vehicleFields = {
  /** Vehicle type = equipment type code from GET /equipmentTypes (validated by the server). */
  vehicleType: text(60, 'v.equipmentRequired'),
  /** Model year, 1950 … next year. */
  year: z.coerce
    .number({ error: 'v.vehicleYear' })
    .int('v.vehicleYear')
    .min(FLEET_LIMITS.vehicleYearMin, 'v.vehicleYear')
    .max(new Date().getUTCFullYear() + 1, 'v.vehicleYear'),
  make: text(60),
  model: text(60),
  colour: text(40),
  /** Plate (registration) type id 1–11 (PLATE_TYPES). */
  plateType: z.coerce
    .number({ error: 'v.plateType' })
    .int('v.plateType')
    .refine((v) => PLATE_TYPE_IDS.includes(v), 'v.plateType'),
  plate: plateSchema,
  /** Vehicle registration (istimara) number, free format. */
  registrationNumber: z.string().trim().max(30, 'v.registrationNumber').optional(),
  /** Sequence (serial) number: 4–9 letters/digits, not all zeros. */
  sequenceNumber: idField(isValidSequence, 'v.sequenceNumber'),
  /** IMEI of the GPS device: exactly 15 digits, not all zeros. */
  imei: idField(isValidImei, 'v.imei').optional(),
  /** Gross vehicle weight, kg: > 0 and ≤ 45,000 (45 t). Under 3,500 kg WASL is not required. */
  weightKg: z.coerce.number({ error: 'v.vehicleWeight' }).positive('v.vehicleWeight').max(FLEET_LIMITS.vehicleWeightMaxKg, 'v.vehicleWeight'),
  /** own, or vendor (then vendorId is required: one of the caller's vendors). */
  source: z.enum(VEHICLE_SOURCES).default('own'),
  vendorId: z.uuid({ error: 'v.vendorRequired' }).optional(),
  /**
   * Assigned driver (one of the caller's drivers). The spec's form asks for a driver, but §4
   * lets a driver be unassigned, so a vehicle may exist without one; it is then not available
   * for assignment.
   */
  driverId: z.uuid().optional(),
  /** Linked trailer (one of the caller's trailers). */
  trailerId: z.uuid().optional(),
  /** File ids (POST /files, purpose vehicle-insurance) of insurance documents. */
  insuranceFileIds: fileIds.default([]),
  /** File ids (POST /files, purpose vehicle-image) of vehicle images. */
  imageFileIds: fileIds.default([]),
};

const vendorSourceRule = (v: { source?: string; vendorId?: string }, ctx: z.RefinementCtx) => {
  if (v.source === 'vendor' && !v.vendorId) ctx.addIssue({ code: 'custom', message: 'v.vendorRequired', path: ['vendorId'] });
};

/** POST /vehicles body (spec §3 Vehicle, §5 Vehicle). */
export const vehicleInput = z.object(vehicleFields).superRefine(vendorSourceRule);
export type VehicleInput = z.input<typeof vehicleInput>;
/** PATCH /vehicles/:id — any subset; driver/trailer change through assign/link endpoints too. */
export const vehicleUpdate = z.object(withoutDefaults(vehicleFields)).partial().superRefine(vendorSourceRule);
export type VehicleUpdate = z.input<typeof vehicleUpdate>;

/**
 * Trailer types (issue 23): codes, labelled in each language by GET /equipmentTypes — the
 * semi-trailer equipment a tractor pulls (class heavy). Stored text from before is migrated to
 * these codes (migration 0116) where it names one.
 */
export const TRAILER_TYPES = [
  'flatbed_trailer',
  'curtain_trailer',
  'sided_trailer',
  'box_trailer',
  'reefer_trailer',
  'lowbed',
  'container_20',
  'container_40',
  'tanker',
  'tipper',
] as const;
export type TrailerType = (typeof TRAILER_TYPES)[number];
/** A trailer type code, forgiving of case, spaces and the `_trailer` suffix ("Flatbed" → flatbed_trailer). */
export function toTrailerType(input: string): TrailerType | null {
  const s = input
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const known = (c: string): c is TrailerType => (TRAILER_TYPES as readonly string[]).includes(c);
  const suffixed = `${s}_trailer`;
  return known(s) ? s : known(suffixed) ? suffixed : null;
}
const trailerTypeField = z.preprocess((v) => (typeof v === 'string' ? (toTrailerType(v) ?? v) : v), z.enum(TRAILER_TYPES, { error: 'v.trailerType' }));

/** POST /trailers body (spec §3 Trailer, §5 Trailer). Units cm and kg. */
const trailerFields = {
  /** Trailer type: a TRAILER_TYPES code (labels from /equipmentTypes). */
  trailerType: trailerTypeField,
  /** 6–10 letters, digits or hyphens, not all zeros. Stored upper case. */
  trailerNumber: idField(isValidTrailerNumber, 'v.trailerNumber').transform((v) => v.toUpperCase()),
  lengthCm: z.coerce
    .number({ error: 'v.trailerLength' })
    .min(FLEET_LIMITS.trailerLengthMinCm, 'v.trailerLength')
    .max(FLEET_LIMITS.trailerLengthMaxCm, 'v.trailerLength'),
  breadthCm: z.coerce
    .number({ error: 'v.trailerBreadth' })
    .min(FLEET_LIMITS.trailerBreadthMinCm, 'v.trailerBreadth')
    .max(FLEET_LIMITS.trailerBreadthMaxCm, 'v.trailerBreadth'),
  capacityKg: z.coerce
    .number({ error: 'v.trailerCapacity' })
    .min(FLEET_LIMITS.trailerCapacityMinKg, 'v.trailerCapacity')
    .max(FLEET_LIMITS.trailerCapacityMaxKg, 'v.trailerCapacity'),
  /** Equipment type codes of vehicles that can pull this trailer. */
  supportedVehicleTypes: z.array(z.string().trim().min(1).max(60)).max(30).default([]),
};
export const trailerInput = z.object(trailerFields);
export type TrailerInput = z.input<typeof trailerInput>;
export const trailerUpdate = z.object(withoutDefaults(trailerFields)).partial();

const driverFields = {
  salutation: z.enum(SALUTATIONS, { error: 'v.salutation' }),
  firstName: nameSchema,
  lastName: nameSchema,
  /** Lowercase nationality value from NATIONALITIES (e.g. "saudi"). */
  nationality: z
    .string({ error: 'v.nationality' })
    .trim()
    .transform((v) => v.toLowerCase())
    .refine((v) => NATIONALITY_VALUES.has(v), 'v.nationality'),
  /** Date of birth YYYY-MM-DD; the driver must be at least 18 (spec §5). */
  dateOfBirth: z
    .string({ error: 'v.dateOfBirth' })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'v.dateOfBirth')
    .refine((v) => isAdult(v), 'v.driverAge'),
  /** File id (purpose driver-photo) of the profile picture. */
  photoFileId: z.uuid({ error: 'v.fileId' }).optional(),
  /** Saudi mobile, E.164 out. With the licence number it identifies the driver (spec §6). */
  phone: phoneSchema,
  managerName: z.string().trim().max(60, 'v.nameRequired').optional(),
  /** Must differ from the driver's phone (spec §5). */
  managerPhone: phoneSchema.optional(),
  /** Licence number: 8–12 digits, not all zeros. */
  licenceNumber: idField(isValidLicence, 'v.licenceNumber'),
  /** Driver ID / Iqama: 10 digits starting with 1 or 2. */
  driverIdNumber: idField(isValidDriverId, 'v.driverId'),
  /** How many times the Iqama was issued, 1–100. */
  iqamaIssueCount: z.coerce.number({ error: 'v.iqamaCount' }).int('v.iqamaCount').min(1, 'v.iqamaCount').max(100, 'v.iqamaCount').optional(),
  /** Company legal entity (CR) number: 10 digits, not all zeros. */
  companyCr: idField(isValidCr, 'v.crNumber').optional(),
  /** MOI number: 10 digits, unique on the platform (checked by the server: MOI_EXISTS). */
  moiNumber: idField(isValidMoi, 'v.moiNumber').optional(),
  /** File ids (purpose driver-iqama / driver-licence). */
  iqamaFileIds: fileIds.default([]),
  licenceFileIds: fileIds.default([]),
};
const managerPhoneRule = (d: { phone?: string; managerPhone?: string }, ctx: z.RefinementCtx) => {
  if (d.phone && d.managerPhone && d.phone === d.managerPhone) ctx.addIssue({ code: 'custom', message: 'v.managerPhoneSame', path: ['managerPhone'] });
};
/** POST /drivers body (spec §3 Driver, §5 Driver). */
export const driverInput = z.object(driverFields).superRefine(managerPhoneRule);
export type DriverInput = z.input<typeof driverInput>;
export const driverUpdate = z.object(withoutDefaults(driverFields)).partial().superRefine(managerPhoneRule);

// ---------- answers ----------

export const fileRef = z.object({ id: z.uuid(), url: z.string(), mime: z.string(), size: z.number().int() });

/** A vehicle as the API returns it. weight kg. */
export const vehicleSchema = z.object({
  id: z.uuid(),
  vehicleType: z.string(),
  year: z.number().int(),
  make: z.string(),
  model: z.string(),
  colour: z.string(),
  plateType: z.number().int(),
  plate: z.object({ digits: z.string(), left: z.string(), middle: z.string(), right: z.string() }),
  /** Plate as text, "1234 ا ب د" (digits, letters left→right). */
  plateText: z.string(),
  /** Latin twin of the letters left→right, e.g. "ABD". */
  plateLatin: z.string(),
  registrationNumber: z.string().nullable(),
  sequenceNumber: z.string(),
  imei: z.string().nullable(),
  weightKg: z.number(),
  waslStatus: z.enum(WASL_STATUSES),
  /** WASL's reasons when not verified (codes, docs/bayan-wasl.md). */
  waslReasons: z.array(z.string()),
  state: z.enum(FLEET_STATES),
  availability: z.enum(AVAILABILITIES),
  source: z.enum(VEHICLE_SOURCES),
  vendorId: z.uuid().nullable(),
  driverId: z.uuid().nullable(),
  driverName: z.string().nullable(),
  trailerId: z.uuid().nullable(),
  trailerNumber: z.string().nullable(),
  insuranceFiles: z.array(fileRef),
  imageFiles: z.array(fileRef),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Vehicle = z.infer<typeof vehicleSchema>;

export const trailerSchema = z.object({
  id: z.uuid(),
  trailerType: z.string(),
  trailerNumber: z.string(),
  lengthCm: z.number(),
  breadthCm: z.number(),
  capacityKg: z.number(),
  supportedVehicleTypes: z.array(z.string()),
  state: z.enum(FLEET_STATES),
  /** Vehicle this trailer is linked to, if any. */
  vehicleId: z.uuid().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Trailer = z.infer<typeof trailerSchema>;

export const driverSchema = z.object({
  id: z.uuid(),
  salutation: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  nationality: z.string(),
  dateOfBirth: z.string(),
  phone: z.string(),
  managerName: z.string().nullable(),
  managerPhone: z.string().nullable(),
  licenceNumber: z.string(),
  driverIdNumber: z.string(),
  iqamaIssueCount: z.number().int().nullable(),
  companyCr: z.string().nullable(),
  moiNumber: z.string().nullable(),
  photo: fileRef.nullable(),
  iqamaFiles: z.array(fileRef),
  licenceFiles: z.array(fileRef),
  state: z.enum(FLEET_STATES),
  /** WASL registration of the driver: not_submitted until sent, then verified / not_verified (with reasons). */
  waslStatus: z.enum(WASL_STATUSES),
  waslReasons: z.array(z.string()),
  /** Vehicle the driver is assigned to, if any. */
  vehicleId: z.uuid().nullable(),
  /** True when the caller marked the driver as trusted. */
  trusted: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Driver = z.infer<typeof driverSchema>;

// ---------- queries and actions ----------

const stateFilter = z.enum(FLEET_STATES).optional();
/** GET /vehicles — list (deleted rows only when state=deleted). */
export const vehicleListQuery = paginationQuery.extend({
  search: z.string().trim().max(80).optional(),
  state: stateFilter,
  availability: z.enum(AVAILABILITIES).optional(),
  wasl: z.enum(WASL_STATUSES).optional(),
});
export const trailerListQuery = paginationQuery.extend({ search: z.string().trim().max(80).optional(), state: stateFilter });
/** GET /drivers — list; `wasl` filters by the driver's WASL status. */
export const driverListQuery = trailerListQuery.extend({ wasl: z.enum(WASL_STATUSES).optional() });

/** POST /vehicles/:id/wasl and /drivers/:id/wasl: what WASL answered (issue 7). */
export const waslResultSchema = z.object({
  waslStatus: z.enum(WASL_STATUSES),
  reasons: z.array(z.string()),
  checkedAt: z.string().nullable(),
});
export type WaslResultView = z.infer<typeof waslResultSchema>;

/**
 * GET /fleet?tab=0|1|2|3 — spec §2 tabs All, Driver, Trailer, Vehicle with search and filters.
 * `availability` and `wasl` apply to vehicles only (tab 0 then shows only vehicles matching).
 */
export const fleetQuery = vehicleListQuery.extend({ tab: z.coerce.number().int().min(0).max(3).default(0) });

/** One row of the fleet table: kind + a display label + the full record. */
export const fleetItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('vehicle'), id: z.uuid(), label: z.string(), state: z.enum(FLEET_STATES), createdAt: z.string(), vehicle: vehicleSchema }),
  z.object({ kind: z.literal('trailer'), id: z.uuid(), label: z.string(), state: z.enum(FLEET_STATES), createdAt: z.string(), trailer: trailerSchema }),
  z.object({ kind: z.literal('driver'), id: z.uuid(), label: z.string(), state: z.enum(FLEET_STATES), createdAt: z.string(), driver: driverSchema }),
]);
export type FleetItem = z.infer<typeof fleetItemSchema>;
export const fleetListResponse = listOf(fleetItemSchema).extend({
  counts: z.object({ all: z.number().int(), drivers: z.number().int(), trailers: z.number().int(), vehicles: z.number().int() }),
});

export const vehicleListResponse = listOf(vehicleSchema);
export const trailerListResponse = listOf(trailerSchema);
export const driverListResponse = listOf(driverSchema);

/** POST /vehicles/:id/assign-driver */
export const assignDriverBody = z.object({ driverId: z.uuid({ error: 'v.required' }) });
/** POST /vehicles/:id/link-trailer */
export const linkTrailerBody = z.object({ trailerId: z.uuid({ error: 'v.required' }) });

/** GET /drivers/:id/link → a signed job link for the driver (spec §2 "share driver link"). */
export const driverLinkResponse = z.object({ url: z.string(), token: z.string(), expiresAt: z.string() });
/** POST /drivers/:id/link/sms: the phone the job link went to and the link's expiry. */
export const driverLinkSmsResponse = z.object({ sentTo: z.string(), expiresAt: z.string() });

/** POST /trusted-drivers */
export const trustedDriverBody = z.object({ driverId: z.uuid({ error: 'v.required' }) });
export const trustedDriversQuery = paginationQuery.extend({ search: z.string().trim().max(80).optional() });

// ---------- files (POST /files) ----------

/** Upload purposes of POST /files; documents are PDF, JPG or PNG, ≤ 5 MB (spec §5). */
export const FILE_PURPOSES = [
  'vehicle-insurance',
  'vehicle-image',
  'driver-iqama',
  'driver-licence',
  'driver-photo',
  'vendor-document',
  'business-document',
  'business-logo',
  'chat-attachment',
] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];
/** Mime types accepted (checked by magic bytes, not by name or content-type). */
export const FILE_MIME_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
/** POST /files answer: `url` is GET /api/v1/files/:id (owner only). size in bytes. */
export const fileSchema = fileRef.extend({ purpose: z.enum(FILE_PURPOSES), name: z.string().nullable() });
export type UploadedFile = z.infer<typeof fileSchema>;
