/**
 * The WASL gateway (issue 7; spec §3, §4): Elm's WASL registers commercial vehicles and their
 * drivers with the Transport General Authority's tracking system. A vehicle or driver that
 * carries a shipment needing Bayan (3.5 t and more) must be WASL verified. Shapes follow public
 * integrations of `https://wasl.api.elm.sa` (docs/bayan-wasl.md lists the guesses). Two
 * implementations: `sandbox` (default, rule-based, no state needed) and `http`.
 */
export interface WaslVehicleInput {
  /** The vehicle's sequence (serial) number on its registration card. */
  sequenceNumber: string;
  /** Plate type id 1–11 (plate.ts PLATE_TYPES). */
  plateType: number;
  vehiclePlate: { number: string; rightLetter: string; middleLetter: string; leftLetter: string };
  /** GPS device IMEI (15 digits), when the vehicle has one. */
  imeiNumber?: string;
}

export interface WaslDriverInput {
  /** National id or iqama, 10 digits. */
  identityNumber: string;
  /** Date of birth in the Umm al-Qura calendar, `YYYY-MM-DD` (Saudis register with Hijri). */
  dateOfBirthHijri: string;
  /** Date of birth, Gregorian `YYYY-MM-DD`. */
  dateOfBirthGregorian: string;
  /** +9665XXXXXXXX */
  mobileNumber: string;
}

/** WASL's verdict: verified, or not verified with WASL's reasons (codes). */
export interface WaslResult {
  status: 'verified' | 'not_verified';
  reasons: string[];
  /** WASL's reference for the registration (referenceKey), when it gave one. */
  referenceKey: string | null;
}

export interface WaslGateway {
  readonly name: string;
  registerVehicle(v: WaslVehicleInput): Promise<WaslResult>;
  registerDriver(d: WaslDriverInput): Promise<WaslResult>;
}

/** WASL could not be reached or failed (5xx, timeout): the status stays as it was. */
export class WaslUnavailableError extends Error {}
