import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { isValidCr, isValidTl, isValidVat } from '../rules/identifiers.ts';
import { toLatinDigits } from '../rules/plate.ts';
import { emailSchema, phoneSchema } from '../validation.ts';
import { listOf, paginationQuery, refId } from './common.ts';
import { withoutDefaults } from './fleet.ts';

/**
 * My vendors (spec §2 "Vendors", §3 Vendor, §4 vendor sign-up request, §5 Vendor).
 * Vendors are business partners a shipper or broker can assign work to. Each vendor belongs to
 * one owner; e-mail and phone are unique per owner (VENDOR_EMAIL_EXISTS / VENDOR_PHONE_EXISTS).
 */

/** Vendor user type (spec §3): shipper, carrier or TMS (broker). */
export const VENDOR_USER_TYPES = ['shipper', 'carrier', 'tms'] as const;
/**
 * Vendor states (spec §4): request_submitted (sign-up via the share link), pending_approval
 * (the owner opened it for review), not_verified (rejected), verified (approved, or added by the
 * owner directly).
 */
export const VENDOR_STATUSES = ['request_submitted', 'pending_approval', 'not_verified', 'verified'] as const;
export type VendorStatus = (typeof VENDOR_STATUSES)[number];
export const PAYMENT_TERMS = ['prepaid', 'on_delivery', 'net_15', 'net_30', 'net_45', 'net_60', 'net_90'] as const;
/** The days of a `net_<days>` payment term (net_30 → 30; undefined for prepaid / on delivery), for its label. */
export const paymentTermDays = (term: string): number | undefined => {
  const m = /^net_(\d+)$/.exec(term);
  return m ? Number(m[1]) : undefined;
};
export const CONTACT_METHODS = ['phone', 'email', 'whatsapp', 'sms'] as const;
/** Languages a vendor prefers to be contacted in (ISO 639-1). */
export const VENDOR_LANGUAGES = ['ar', 'en', 'ur', 'hi', 'bn', 'tl', 'fr'] as const;
/** Shipment types a vendor handles. */
export const VENDOR_SHIPMENT_TYPES = ['ftl', 'ltl', 'reefer', 'dangerous_goods', 'oversized', 'container', 'bulk'] as const;

const idField = (check: (v: string) => boolean, key: string) => z.string({ error: key }).trim().transform(toLatinDigits).refine(check, { message: key });
const optText = (max: number, key = 'v.textMax') => z.string().trim().max(max, key).optional();

/** An office location: a city (GET /cities) and a street address. */
export const officeLocationSchema = z.object({
  cityId: refId(),
  address: z.string().trim().max(200, 'v.addressMax').default(''),
});

const vendorFields = {
  userType: z.enum(VENDOR_USER_TYPES, { error: 'v.vendorUserType' }),
  companyName: z.string({ error: 'v.required' }).trim().min(1, 'v.required').max(120, 'v.required'),
  /** Contact person's name. */
  vendorName: z.string({ error: 'v.required' }).trim().min(1, 'v.required').max(80, 'v.required'),
  phone: phoneSchema,
  email: emailSchema,
  jobTitle: optText(80),
  officeLocations: z.array(officeLocationSchema).max(10, 'v.officeLocationsMax').default([]),
  /** At most 250 characters (spec §5). */
  notes: z.string().trim().max(LIMITS.vendorNotesMax, 'v.vendorNotesMax').optional(),
  /** CR: exactly 10 digits. */
  crNumber: idField(isValidCr, 'v.crNumber').optional(),
  /** Transport licence: 8–15 letters/digits, no spaces or symbols. */
  tlNumber: idField(isValidTl, 'v.tlNumber').optional(),
  /** VAT: 15 digits starting with 3. */
  vatNumber: idField(isValidVat, 'v.vatNumber').optional(),
  paymentTerms: z.enum(PAYMENT_TERMS, { error: 'v.paymentTerms' }).optional(),
  shipmentTypes: z
    .array(z.enum(VENDOR_SHIPMENT_TYPES, { error: 'v.shipmentType' }))
    .max(10)
    .default([]),
  /** Region ids (GET /regions) the vendor operates in. */
  regions: z.array(refId('v.region')).max(20).default([]),
  preferredLanguages: z
    .array(z.enum(VENDOR_LANGUAGES, { error: 'v.language' }))
    .max(7)
    .default([]),
  preferredContactMethod: z.enum(CONTACT_METHODS, { error: 'v.contactMethod' }).optional(),
  numberOfTrucks: z.coerce.number({ error: 'v.count' }).int('v.count').min(0, 'v.count').max(100_000, 'v.count').optional(),
  numberOfTrailers: z.coerce.number({ error: 'v.count' }).int('v.count').min(0, 'v.count').max(100_000, 'v.count').optional(),
  /** Total fleet size (vehicles). */
  fleetSize: z.coerce.number({ error: 'v.count' }).int('v.count').min(0, 'v.count').max(100_000, 'v.count').optional(),
  /** Fleet (vehicle) types, equipment codes. */
  fleetTypes: z.array(z.string().trim().min(1).max(60)).max(30).default([]),
  /** Equipment type codes the vendor can supply. */
  equipmentTypes: z.array(z.string().trim().min(1).max(60)).max(30).default([]),
  serviceArea: optText(250),
  /** Insurance held (insurer, cover, expiry), free text. */
  insurance: optText(250),
  rateAgreement: optText(250),
  pastExperience: optText(500),
  paymentHistory: optText(250),
  /** Can clear Saudi customs. */
  customsClearance: z.boolean().default(false),
  /** File ids (POST /files, purpose vendor-document). */
  documentFileIds: z
    .array(z.uuid({ error: 'v.fileId' }))
    .max(10, 'v.filesMax')
    .default([]),
};

/** POST /vendors body, and the body of the public vendor sign-up request. */
export const vendorInput = z.object(vendorFields);
export type VendorInput = z.input<typeof vendorInput>;
/** PATCH /vendors/:id — any subset; arrays replace. */
export const vendorUpdate = z.object(withoutDefaults(vendorFields)).partial();
export type VendorUpdate = z.input<typeof vendorUpdate>;

export const vendorSchema = z.object({
  id: z.uuid(),
  status: z.enum(VENDOR_STATUSES),
  userType: z.enum(VENDOR_USER_TYPES),
  companyName: z.string(),
  vendorName: z.string(),
  phone: z.string(),
  email: z.string(),
  jobTitle: z.string().nullable(),
  officeLocations: z.array(z.object({ cityId: z.number().int(), address: z.string() })),
  notes: z.string().nullable(),
  crNumber: z.string().nullable(),
  tlNumber: z.string().nullable(),
  vatNumber: z.string().nullable(),
  paymentTerms: z.string().nullable(),
  shipmentTypes: z.array(z.string()),
  regions: z.array(z.number().int()),
  preferredLanguages: z.array(z.string()),
  preferredContactMethod: z.string().nullable(),
  numberOfTrucks: z.number().int().nullable(),
  numberOfTrailers: z.number().int().nullable(),
  fleetSize: z.number().int().nullable(),
  fleetTypes: z.array(z.string()),
  equipmentTypes: z.array(z.string()),
  serviceArea: z.string().nullable(),
  insurance: z.string().nullable(),
  rateAgreement: z.string().nullable(),
  pastExperience: z.string().nullable(),
  paymentHistory: z.string().nullable(),
  customsClearance: z.boolean(),
  documentFileIds: z.array(z.uuid()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Vendor = z.infer<typeof vendorSchema>;

/** GET /vendors and GET /vendor-requests */
export const vendorListQuery = paginationQuery.extend({
  search: z.string().trim().max(80).optional(),
  status: z.enum(VENDOR_STATUSES).optional(),
  userType: z.enum(VENDOR_USER_TYPES).optional(),
});
export const vendorListResponse = listOf(vendorSchema);

/** POST /vendors/share-link → a public sign-up link `/vendor?invite=<token>` (valid 30 days). */
export const vendorShareLinkResponse = z.object({ url: z.string(), token: z.string(), expiresAt: z.string() });
/** GET /vendor-invites/:token (public) → the inviting company. */
export const vendorInviteInfo = z.object({ companyName: z.string(), accountType: z.number().int(), expiresAt: z.string() });
/** POST /vendor-requests/:id/approve|reject → the vendor with its new status. */
export const vendorRequestAction = z.enum(['review', 'approve', 'reject']);
