/**
 * Numeric fleet limits (spec §5, §9) and derived rules. Units: kg, cm, years.
 */
export const FLEET_LIMITS = {
  /** Vehicle weight: above 0 and at most 45 tons (spec §5), kg. */
  vehicleWeightMaxKg: 45_000,
  /** WASL/Bayan minimum weight: vehicles under 3.5 t need no WASL verification (spec §4, §9), kg. */
  waslMinWeightKg: 3_500,
  trailerLengthMinCm: 500,
  trailerLengthMaxCm: 2000,
  trailerBreadthMinCm: 200,
  trailerBreadthMaxCm: 500,
  trailerCapacityMinKg: 1000,
  trailerCapacityMaxKg: 50_000,
  driverMinAge: 18,
  iqamaIssueCountMin: 1,
  iqamaIssueCountMax: 100,
  vehicleYearMin: 1950,
} as const;

/** Vehicle weight in kg is valid: > 0 and ≤ 45,000 (spec §5). */
export function isValidVehicleWeight(kg: number): boolean {
  return Number.isFinite(kg) && kg > 0 && kg <= FLEET_LIMITS.vehicleWeightMaxKg;
}

/** Model year: 1950 … next calendar year (a new model year is sold from autumn). */
export function isValidVehicleYear(year: number, now = new Date()): boolean {
  return Number.isInteger(year) && year >= FLEET_LIMITS.vehicleYearMin && year <= now.getUTCFullYear() + 1;
}

export const isValidTrailerLength = (cm: number) => Number.isFinite(cm) && cm >= FLEET_LIMITS.trailerLengthMinCm && cm <= FLEET_LIMITS.trailerLengthMaxCm;
export const isValidTrailerBreadth = (cm: number) => Number.isFinite(cm) && cm >= FLEET_LIMITS.trailerBreadthMinCm && cm <= FLEET_LIMITS.trailerBreadthMaxCm;
export const isValidTrailerCapacity = (kg: number) => Number.isFinite(kg) && kg >= FLEET_LIMITS.trailerCapacityMinKg && kg <= FLEET_LIMITS.trailerCapacityMaxKg;

/** WASL statuses (spec §4). */
export const WASL_STATUSES = ['not_submitted', 'not_required', 'verified', 'not_verified'] as const;
export type WaslStatus = (typeof WASL_STATUSES)[number];

/**
 * WASL status a vehicle starts with: `not_required` under 3.5 t (spec §4 "not required (below
 * minimum weight)"), otherwise `not_submitted` until the WASL gateway answers.
 */
export function initialWaslStatus(weightKg: number): WaslStatus {
  return weightKg < FLEET_LIMITS.waslMinWeightKg ? 'not_required' : 'not_submitted';
}

/**
 * Age in whole years on `now` of someone born on `dob` (YYYY-MM-DD, calendar date). Returns
 * NaN for an invalid date.
 */
export function ageOn(dob: string, now = new Date()): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dob);
  if (!m) return NaN;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return NaN;
  let age = now.getUTCFullYear() - y;
  const beforeBirthday = now.getUTCMonth() + 1 < mo || (now.getUTCMonth() + 1 === mo && now.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

/** Driver is at least 18 on `now` (spec §5 "minimum age 18"). */
export function isAdult(dob: string, now = new Date()): boolean {
  const a = ageOn(dob, now);
  return Number.isFinite(a) && a >= FLEET_LIMITS.driverMinAge && a < 120;
}
