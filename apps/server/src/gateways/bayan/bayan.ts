/**
 * The Bayan gateway (issue 7; spec §1, §4, §5; DESIGN §1 gateways): Elm's Bayan service issues
 * the transport permit ("trip") and its electronic waybills that Saudi law requires of licensed
 * land carriers. Shapes follow what public integrations of the real API send to
 * `https://bayan.api.elm.sa/api/v1/carrier/...` (docs/bayan-wasl.md lists every guessed field).
 * Units: weights in kg, money in SAR (decimal strings on our side, numbers on the wire), dates
 * as ISO `YYYY-MM-DD`. Two implementations: `sandbox` (default, stateful, validates like the
 * service) and `http` (the real service, BAYAN_BASE_URL + app id/key + client id).
 */

/** A Saudi plate as Bayan takes it: 1–4 digits and three Arabic letters (the 17 of plate.ts). */
export interface BayanPlate {
  number: string;
  rightLetter: string;
  middleLetter: string;
  leftLetter: string;
}

/**
 * The plate of Elm's APIs (Bayan and WASL take the same shape) from our stored columns
 * (`plate_digits`, `plate_letters` = left, middle, right).
 */
export function elmPlate(digits: string, letters: string): BayanPlate {
  const [leftLetter = '', middleLetter = '', rightLetter = ''] = [...letters];
  return { number: digits, rightLetter, middleLetter, leftLetter };
}

export interface BayanVehicle {
  /** Muroor / WASL registration type id (plate.ts PLATE_TYPES, 1–11). */
  plateTypeId: number;
  vehiclePlate: BayanPlate;
}

export interface BayanDriver {
  /** National id or iqama: 10 digits, starting 1 (citizen) or 2 (resident). */
  identityNumber: string;
  /** The identity card's issue number (iqama issue count), 1–100. */
  issueNumber: number;
  /** Mobile in E.164: +9665XXXXXXXX. */
  mobile: string;
}

export interface BayanParty {
  name: string;
  phone: string;
  countryCode: 'SA';
  /** Bayan's city id (we send Masar's reference city id; see docs/bayan-wasl.md). */
  cityId: number;
  address: string;
}

export interface BayanLocation {
  countryCode: 'SA';
  cityId: number;
  address: string;
}

export interface BayanItem {
  /** Bayan goods type id; we send the goods type code (guess, docs/bayan-wasl.md). */
  goodTypeId: string;
  quantity: number;
  /** kg, whole item line */
  weight: number;
  /** Declared value of the line, SAR. */
  price: number;
  /** Bayan unit id (5 = "piece" in public integrations). */
  unitId: number;
}

/** Payment method ids as integrations send them: 1 cash, 2 bank transfer, 3 credit (guess). */
export type BayanPaymentMethod = 1 | 2 | 3;

export interface BayanWaybillInput {
  sender: BayanParty;
  recipient: BayanParty;
  items: BayanItem[];
  /** The carriage price of this waybill, SAR. */
  fare: number;
  paymentMethodId: BayanPaymentMethod;
  paidBySender: boolean;
  tradable: boolean;
  receivingLocation: BayanLocation;
  deliveryLocation: BayanLocation;
}

export interface BayanTripInput {
  vehicle: BayanVehicle;
  driver: BayanDriver;
  /** Pickup date, YYYY-MM-DD. */
  receivedDate: string;
  /** Expected delivery date, YYYY-MM-DD. */
  expectedDeliveryDate: string;
  notes?: string;
  waybills: BayanWaybillInput[];
}

export type BayanWaybillStatus = 'active' | 'closed' | 'cancelled';

export interface BayanWaybill {
  waybillId: string;
  /** The printed waybill number: 6 alphanumeric characters (spec §5). */
  waybillNumber: string;
  status: BayanWaybillStatus;
  actualDeliveryDate: string | null;
  cancelReasonId: number | null;
}

export interface BayanTrip {
  tripId: string;
  vehicle: BayanVehicle;
  driver: BayanDriver;
  receivedDate: string;
  expectedDeliveryDate: string;
  waybills: BayanWaybill[];
}

/** Cancellation reasons (spec §5): recipient refused, due to damage, due to theft → Bayan's reason ids (guess). */
export const BAYAN_CANCEL_REASON_IDS = { recipient_refused: 1, damage: 2, theft: 3 } as const;
export type BayanCancelReason = keyof typeof BAYAN_CANCEL_REASON_IDS;

export interface BayanGateway {
  readonly name: string;
  /**
   * POST /carrier/trip → the trip and its waybills' ids. BayanRejectedError on invalid data.
   * `idempotencyKey` (sent as the Idempotency-Key header): the same key answers the trip it
   * first created, so a retry after a lost answer (timeout, crash) never files a second permit.
   */
  createTrip(input: BayanTripInput, opts?: { idempotencyKey?: string }): Promise<BayanTrip>;
  /** PUT /carrier/trip/vehicle: another truck carries the trip. */
  changeVehicle(tripId: string, vehicle: BayanVehicle): Promise<BayanTrip>;
  /** PUT /carrier/trip/driver: another driver drives it. */
  changeDriver(tripId: string, driver: BayanDriver): Promise<BayanTrip>;
  /** GET /carrier/trip/:id; null when unknown. */
  getTrip(tripId: string): Promise<BayanTrip | null>;
  /** GET /carrier/trip/:id/print: the permit and waybills as a PDF. */
  printTrip(tripId: string): Promise<Buffer>;
  /** PUT /carrier/trip/waybill/close {waybillId, actualDeliveryDate}. */
  closeWaybill(waybillId: string, actualDeliveryDate: string): Promise<BayanWaybill>;
  /** PUT /carrier/trip/waybill/cancel {waybillId, reasonId}. */
  cancelWaybill(waybillId: string, reason: BayanCancelReason): Promise<BayanWaybill>;
}

/** The service could not be reached, timed out or failed (5xx): nothing is known to be created; retry later. */
export class BayanUnavailableError extends Error {}

/** The service refused the request (4xx): retrying the same data will not help. */
export class BayanRejectedError extends Error {
  readonly errors: { path: string; code: string }[];
  constructor(message: string, errors: { path: string; code: string }[] = []) {
    super(message);
    this.errors = errors;
  }
}
