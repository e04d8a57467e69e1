import { z } from 'zod';
import { isValidCr, isValidVat } from '../rules/identifiers.ts';
import { toLatinDigits } from '../rules/plate.ts';
import { emailSchema, phoneSchema } from '../validation.ts';
import { refId } from './common.ts';
import { fileRef } from './fleet.ts';
import { stopAddressInput } from './loads.ts';

/**
 * The account area (issue 8; spec §2 "Account", §3 "Business profile", §5 "Business profile"):
 * business profile, contact info to share, address book.
 */

/** A district id (GET /districts): national-address ids exceed int4 (e.g. 10100003001). */
const districtId = () =>
  z.coerce.number({ error: 'v.districtCity' }).int('v.districtCity').positive('v.districtCity').max(Number.MAX_SAFE_INTEGER, 'v.districtCity');

/** Saved addresses per user (address book). */
export const ADDRESS_BOOK_MAX = 200;

const idField = (check: (v: string) => boolean, key: string) =>
  z
    .string({ error: key })
    .trim()
    .transform(toLatinDigits)
    .refine((v) => check(v), { message: key });
/** An optional text field: empty string or null clears it. */
const optional = <T extends z.ZodType>(s: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), s.nullable()).optional();

/** Fax: exactly 7 digits (spec §5 "fax exactly 7 digits"). */
export const faxSchema = idField((v) => /^\d{7}$/.test(v), 'v.fax');
/** Website: an http(s) URL (spec §5 "website a valid URL"). */
export const websiteSchema = z
  .string({ error: 'v.urlInvalid' })
  .trim()
  .max(200, 'v.urlInvalid')
  .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u) && new URL(u).hostname.includes('.'), 'v.urlInvalid');

/**
 * PUT /account/business-profile. crNumber 10 digits; vatNumber 15 digits starting with 3 (the
 * shared VAT rule); fax 7 digits; website an http(s) URL; logoFileId a file of mine uploaded with
 * POST /files purpose business-logo (PNG or JPG, ≤ 5 MB); cityId/districtId and the structured
 * address of the post form (spec §3 "Address"). Arabic-Indic digits are accepted.
 */
export const businessProfileInput = z.object({
  companyName: z.string({ error: 'v.required' }).trim().min(1, 'v.required').max(120, 'v.required'),
  crNumber: optional(idField(isValidCr, 'v.crNumber')),
  vatNumber: optional(idField(isValidVat, 'v.vatNumber')),
  fax: optional(faxSchema),
  website: optional(websiteSchema),
  logoFileId: z.uuid({ error: 'v.logoImage' }).nullable().optional(),
  cityId: refId().nullable().optional(),
  districtId: districtId().nullable().optional(),
  addressDetails: stopAddressInput.nullable().optional(),
});
export type BusinessProfileInput = z.infer<typeof businessProfileInput>;

/** GET/PUT /account/business-profile answer. Empty fields are null. */
export const businessProfileSchema = z.object({
  companyName: z.string(),
  crNumber: z.string().nullable(),
  vatNumber: z.string().nullable(),
  fax: z.string().nullable(),
  website: z.string().nullable(),
  logo: fileRef.nullable(),
  cityId: z.number().int().nullable(),
  districtId: z.number().int().nullable(),
  addressDetails: stopAddressInput.nullable(),
  updatedAt: z.string().nullable(),
});
export type BusinessProfile = z.infer<typeof businessProfileSchema>;

/** The four contact channels a user may show to the other party of a booking. */
export const CONTACT_CHANNELS = ['phone', 'email', 'whatsapp', 'officePhone'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];

const channel = <T extends z.ZodType>(value: T) => z.object({ value: optional(value), share: z.boolean().default(false) });
/**
 * PUT /account/contact-info: each channel's value and whether it is shown to the other party of
 * a booking. phone/whatsapp are Saudi mobiles (E.164 out), officePhone any 7–15 digit number.
 */
export const contactInfoInput = z.object({
  phone: channel(phoneSchema),
  email: channel(emailSchema),
  whatsapp: channel(phoneSchema),
  officePhone: channel(idField((v) => /^\+?\d{7,15}$/.test(v.replace(/[\s-]/g, '')), 'v.phoneInvalid')),
});
export type ContactInfoInput = z.infer<typeof contactInfoInput>;
const channelOut = z.object({ value: z.string().nullable(), share: z.boolean() });
export const contactInfoSchema = z.object({ phone: channelOut, email: channelOut, whatsapp: channelOut, officePhone: channelOut });
export type ContactInfo = z.infer<typeof contactInfoSchema>;

/**
 * POST/PUT /account/addresses: a saved address of the address book (spec §2 "address book",
 * used by the post form): a label, the city (lat/lng come from it), an optional district of that
 * city, free-text address and the structured (national) address of a stop — or, for a light
 * address, the free text alone (issue 23: the spec demands the national address nowhere here).
 */
export const savedAddressInput = z
  .object({
    label: z.string({ error: 'v.nameRequired' }).trim().min(1, 'v.nameRequired').max(60, 'v.nameRequired'),
    cityId: refId(),
    districtId: districtId().nullable().optional(),
    address: z.string().trim().max(200, 'v.addressMax').optional(),
    /** The national address; null or absent for a light address (label + city + free text, issue 23). */
    addressDetails: stopAddressInput.nullable().optional(),
  })
  // a light address still says where: the free text or the national address
  .refine((a) => !!a.address?.trim() || !!a.addressDetails, { path: ['address'], message: 'v.addressOrNational' });
export type SavedAddressInput = z.infer<typeof savedAddressInput>;

export const savedAddressSchema = z.object({
  id: z.uuid(),
  label: z.string(),
  cityId: z.number().int(),
  districtId: z.number().int().nullable(),
  address: z.string().nullable(),
  addressDetails: stopAddressInput.nullable(),
  lat: z.number(),
  lng: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedAddress = z.infer<typeof savedAddressSchema>;

/** GET /account/addresses: every saved address (at most ADDRESS_BOOK_MAX), labels A→Z. */
export const savedAddressListSchema = z.object({ items: z.array(savedAddressSchema), total: z.number().int(), max: z.number().int() });
export type SavedAddressList = z.infer<typeof savedAddressListSchema>;
