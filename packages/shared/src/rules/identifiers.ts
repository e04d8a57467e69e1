import { isAllZeros } from './plate.ts';

/**
 * Pure validators of Saudi identifiers used by fleet and vendor forms (spec §5). Each takes
 * the raw string (already trimmed by the caller or not) and answers true when valid. Arabic-
 * Indic digits are NOT accepted here: the schemas convert them first.
 */

/** IMEI of the GPS device: exactly 15 digits, not all zeros (spec §5 "IMEI 15 characters (digits)"). */
export function isValidImei(v: string): boolean {
  return /^\d{15}$/.test(v) && !isAllZeros(v);
}

/**
 * Driver ID / Iqama number: exactly 10 digits starting with 1 (Saudi national ID) or 2
 * (Iqama, resident) (spec §5).
 */
export function isValidDriverId(v: string): boolean {
  return /^[12]\d{9}$/.test(v);
}

/** Commercial registration (CR, company legal entity) number: exactly 10 digits, not all zeros (spec §5). */
export function isValidCr(v: string): boolean {
  return /^\d{10}$/.test(v) && !isAllZeros(v);
}

/** VAT registration number: 15 digits starting with 3 (ZATCA format, spec §5). */
export function isValidVat(v: string): boolean {
  return /^3\d{14}$/.test(v);
}

/** Transport licence (TL) number: 8–15 letters or digits, no spaces or symbols (spec §5). */
export function isValidTl(v: string): boolean {
  return /^[A-Za-z0-9]{8,15}$/.test(v);
}

/** MOI number: exactly 10 digits, not all zeros (spec §5; uniqueness is checked by the server). */
export function isValidMoi(v: string): boolean {
  return /^\d{10}$/.test(v) && !isAllZeros(v);
}

/** Driving licence number: 8–12 digits, not all zeros (spec §5). */
export function isValidLicence(v: string): boolean {
  return /^\d{8,12}$/.test(v) && !isAllZeros(v);
}

/** Vehicle sequence (serial) number: 4–9 letters or digits, not all zeros (spec §5). */
export function isValidSequence(v: string): boolean {
  return /^[A-Za-z0-9]{4,9}$/.test(v) && !isAllZeros(v);
}

/**
 * Trailer number: 6–10 characters of letters, digits and hyphens, at least one letter or digit
 * that is not zero (spec §5 "alphanumeric 6 to 10 characters, hyphens allowed", not all zeros).
 */
export function isValidTrailerNumber(v: string): boolean {
  return /^[A-Za-z0-9-]{6,10}$/.test(v) && /[A-Za-z1-9]/.test(v);
}
