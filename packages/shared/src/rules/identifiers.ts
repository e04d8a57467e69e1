import { isAllZeros } from './plate.ts';

/**
 * Pure validators of Saudi identifiers used by fleet and vendor forms (spec §5). Each takes
 * the raw string (already trimmed by the caller or not) and answers true when valid. Arabic-
 * Indic digits are NOT accepted here: the schemas convert them first.
 */

/**
 * Lengths of the identifiers below (spec §5), shared by the validators and the forms' hints so
 * a hint cannot drift from its rule.
 */
export const ID_LENGTHS = {
  imei: 15,
  driverId: 10,
  cr: 10,
  vat: 15,
  tlMin: 8,
  tlMax: 15,
  moi: 10,
  licenceMin: 8,
  licenceMax: 12,
  sequenceMin: 4,
  sequenceMax: 9,
  trailerNumberMin: 6,
  trailerNumberMax: 10,
} as const;
const L = ID_LENGTHS;
const IMEI_RE = new RegExp(`^\\d{${L.imei}}$`);
const DRIVER_ID_RE = new RegExp(`^[12]\\d{${L.driverId - 1}}$`);
const CR_RE = new RegExp(`^\\d{${L.cr}}$`);
const VAT_RE = new RegExp(`^3\\d{${L.vat - 1}}$`);
const TL_RE = new RegExp(`^[A-Za-z0-9]{${L.tlMin},${L.tlMax}}$`);
const MOI_RE = new RegExp(`^\\d{${L.moi}}$`);
const LICENCE_RE = new RegExp(`^\\d{${L.licenceMin},${L.licenceMax}}$`);
const SEQUENCE_RE = new RegExp(`^[A-Za-z0-9]{${L.sequenceMin},${L.sequenceMax}}$`);
const TRAILER_NUMBER_RE = new RegExp(`^[A-Za-z0-9-]{${L.trailerNumberMin},${L.trailerNumberMax}}$`);

/** IMEI of the GPS device: exactly 15 digits, not all zeros (spec §5 "IMEI 15 characters (digits)"). */
export function isValidImei(v: string): boolean {
  return IMEI_RE.test(v) && !isAllZeros(v);
}

/**
 * Driver ID / Iqama number: exactly 10 digits starting with 1 (Saudi national ID) or 2
 * (Iqama, resident) (spec §5).
 */
export function isValidDriverId(v: string): boolean {
  return DRIVER_ID_RE.test(v);
}

/** Commercial registration (CR, company legal entity) number: exactly 10 digits, not all zeros (spec §5). */
export function isValidCr(v: string): boolean {
  return CR_RE.test(v) && !isAllZeros(v);
}

/** VAT registration number: 15 digits starting with 3 (ZATCA format, spec §5). */
export function isValidVat(v: string): boolean {
  return VAT_RE.test(v);
}

/** Transport licence (TL) number: 8–15 letters or digits, no spaces or symbols (spec §5). */
export function isValidTl(v: string): boolean {
  return TL_RE.test(v);
}

/** MOI number: exactly 10 digits, not all zeros (spec §5; uniqueness is checked by the server). */
export function isValidMoi(v: string): boolean {
  return MOI_RE.test(v) && !isAllZeros(v);
}

/** Driving licence number: 8–12 digits, not all zeros (spec §5). */
export function isValidLicence(v: string): boolean {
  return LICENCE_RE.test(v) && !isAllZeros(v);
}

/** Vehicle sequence (serial) number: 4–9 letters or digits, not all zeros (spec §5). */
export function isValidSequence(v: string): boolean {
  return SEQUENCE_RE.test(v) && !isAllZeros(v);
}

/**
 * Trailer number: 6–10 characters of letters, digits and hyphens, at least one letter or digit
 * that is not zero (spec §5 "alphanumeric 6 to 10 characters, hyphens allowed", not all zeros).
 */
export function isValidTrailerNumber(v: string): boolean {
  return TRAILER_NUMBER_RE.test(v) && /[A-Za-z1-9]/.test(v);
}
