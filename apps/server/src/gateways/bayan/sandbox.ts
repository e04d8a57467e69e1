import { randomInt } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { isValidDriverId, isValidPlateDigits, PLATE_LETTER_VALUES, PLATE_LETTERS, PLATE_TYPE_IDS } from '@masar/shared';
import {
  BAYAN_CANCEL_REASON_IDS,
  BayanRejectedError,
  BayanUnavailableError,
  type BayanCancelReason,
  type BayanDriver,
  type BayanGateway,
  type BayanTrip,
  type BayanTripInput,
  type BayanVehicle,
  type BayanWaybill,
} from './bayan.ts';

/** Where the sandbox keeps its trips: a table (sandbox.repository.ts, survives restarts and is shared by instances) or memory (unit tests). */
export interface BayanSandboxStore {
  nextTripId(): Promise<number>;
  get(tripId: number): Promise<BayanTrip | null>;
  /**
   * Keep a trip. A new trip with an idempotency key that already filed one is not kept: the
   * first trip of that key is returned instead (otherwise the trip itself).
   */
  put(trip: BayanTrip, isNew: boolean, idempotencyKey?: string): Promise<BayanTrip>;
}

export function memoryBayanStore(): BayanSandboxStore {
  const trips = new Map<number, BayanTrip>();
  const byKey = new Map<string, number>();
  let next = 100000001;
  return {
    nextTripId: async () => next++,
    get: async (id) => (trips.has(id) ? structuredClone(trips.get(id)!) : null),
    put: async (trip, isNew, key) => {
      if (isNew && key !== undefined) {
        const first = byKey.get(key);
        if (first !== undefined) return structuredClone(trips.get(first)!);
        byKey.set(key, Number(trip.tripId));
      }
      trips.set(Number(trip.tripId), structuredClone(trip));
      return trip;
    },
  };
}

/**
 * Knobs of the sandbox (BAYAN_SANDBOX_FAIL, BAYAN_SANDBOX_DELAY_MS; tests change them at run
 * time): `fail` makes every call answer "unavailable", `failNext` the next n calls, `delayMs`
 * delays every answer (to show timeouts and spinners), `answerDelayMs` delays a trip creation's
 * answer after the trip is filed (BAYAN_SANDBOX_ANSWER_DELAY_MS).
 */
export interface BayanSandboxControl {
  fail: boolean;
  failNext: number;
  delayMs: number;
  /** Trip creation only: the trip is filed at once, its answer comes this many ms later. */
  answerDelayMs: number;
}

export type BayanSandbox = BayanGateway & { control: BayanSandboxControl };

const MOBILE = /^\+9665\d{8}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const WAYBILL_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A waybill's id is its trip id × 100 + its index (1-based): no second lookup table. */
const waybillIdOf = (tripId: number, i: number) => String(tripId * 100 + i + 1);
const tripOfWaybill = (waybillId: string) => (/^\d{9,}$/.test(waybillId) ? Math.floor(Number(waybillId) / 100) : NaN);

type Issue = { path: string; code: string };

function checkVehicle(v: BayanVehicle, issues: Issue[], at = 'vehicle') {
  if (!PLATE_TYPE_IDS.includes(v?.plateTypeId)) issues.push({ path: `${at}.plateTypeId`, code: 'INVALID_PLATE_TYPE' });
  const p = v?.vehiclePlate;
  if (!p || !isValidPlateDigits(String(p.number ?? ''))) issues.push({ path: `${at}.vehiclePlate.number`, code: 'INVALID_PLATE_NUMBER' });
  for (const k of ['rightLetter', 'middleLetter', 'leftLetter'] as const)
    if (!p || !PLATE_LETTER_VALUES.includes(p[k])) issues.push({ path: `${at}.vehiclePlate.${k}`, code: 'INVALID_PLATE_LETTER' });
}
function checkDriver(d: BayanDriver, issues: Issue[], at = 'driver') {
  if (!isValidDriverId(String(d?.identityNumber ?? ''))) issues.push({ path: `${at}.identityNumber`, code: 'INVALID_IDENTITY_NUMBER' });
  if (!Number.isInteger(d?.issueNumber) || d.issueNumber < 1 || d.issueNumber > 100) issues.push({ path: `${at}.issueNumber`, code: 'INVALID_ISSUE_NUMBER' });
  if (!MOBILE.test(String(d?.mobile ?? ''))) issues.push({ path: `${at}.mobile`, code: 'INVALID_MOBILE' });
}

/**
 * Validate a trip as the Bayan service does (what public integrations report it refusing):
 * plate letters from the 17 Saudi plate letters, 4-digit plate number not all zeros, plate type
 * 1–11, identity 10 digits starting 1 or 2, issue number 1–100, mobile +9665XXXXXXXX, at least
 * one waybill with at least one item, quantities and weights above 0, fare and prices not
 * negative, dates YYYY-MM-DD with delivery not before receipt. Returns the issues (empty = valid).
 */
export function validateBayanTrip(t: BayanTripInput): Issue[] {
  const issues: Issue[] = [];
  checkVehicle(t.vehicle, issues);
  checkDriver(t.driver, issues);
  if (!DATE.test(t.receivedDate ?? '')) issues.push({ path: 'receivedDate', code: 'INVALID_DATE' });
  if (!DATE.test(t.expectedDeliveryDate ?? '')) issues.push({ path: 'expectedDeliveryDate', code: 'INVALID_DATE' });
  else if (DATE.test(t.receivedDate ?? '') && t.expectedDeliveryDate < t.receivedDate)
    issues.push({ path: 'expectedDeliveryDate', code: 'DELIVERY_BEFORE_RECEIPT' });
  if (!Array.isArray(t.waybills) || t.waybills.length === 0) issues.push({ path: 'waybills', code: 'WAYBILL_REQUIRED' });
  (t.waybills ?? []).forEach((w, i) => {
    const at = `waybills.${i}`;
    for (const party of ['sender', 'recipient'] as const) {
      const p = w[party];
      if (!p?.name?.trim()) issues.push({ path: `${at}.${party}.name`, code: 'REQUIRED' });
      if (!p?.phone || !/^\+9665\d{8}$|^\+966\d{8,9}$/.test(p.phone)) issues.push({ path: `${at}.${party}.phone`, code: 'INVALID_PHONE' });
      if (!Number.isInteger(p?.cityId) || p.cityId <= 0) issues.push({ path: `${at}.${party}.cityId`, code: 'INVALID_CITY' });
    }
    for (const loc of ['receivingLocation', 'deliveryLocation'] as const)
      if (!Number.isInteger(w[loc]?.cityId) || w[loc].cityId <= 0) issues.push({ path: `${at}.${loc}.cityId`, code: 'INVALID_CITY' });
    if (!(typeof w.fare === 'number' && w.fare >= 0)) issues.push({ path: `${at}.fare`, code: 'INVALID_FARE' });
    if (![1, 2, 3].includes(w.paymentMethodId)) issues.push({ path: `${at}.paymentMethodId`, code: 'INVALID_PAYMENT_METHOD' });
    if (!Array.isArray(w.items) || w.items.length === 0) issues.push({ path: `${at}.items`, code: 'ITEM_REQUIRED' });
    (w.items ?? []).forEach((it, j) => {
      if (!it.goodTypeId) issues.push({ path: `${at}.items.${j}.goodTypeId`, code: 'REQUIRED' });
      if (!(it.quantity > 0)) issues.push({ path: `${at}.items.${j}.quantity`, code: 'INVALID_QUANTITY' });
      if (!(it.weight > 0)) issues.push({ path: `${at}.items.${j}.weight`, code: 'INVALID_WEIGHT' });
      if (!(it.price >= 0)) issues.push({ path: `${at}.items.${j}.price`, code: 'INVALID_PRICE' });
    });
  });
  return issues;
}

const newWaybillNumber = () => Array.from({ length: 6 }, () => WAYBILL_CHARS[randomInt(WAYBILL_CHARS.length)]).join('');
const latinPlate = (v: BayanVehicle) =>
  `${[v.vehiclePlate.leftLetter, v.vehiclePlate.middleLetter, v.vehiclePlate.rightLetter]
    .map((l) => PLATE_LETTERS.find((x) => x.ar === l)?.latin ?? '?')
    .join('')} ${v.vehiclePlate.number}`;

/** A one-page permit: trip, vehicle, driver and each waybill (Latin text; the sandbox's printout, not Elm's layout). */
async function renderTripPdf(t: BayanTrip): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `Bayan trip ${t.tripId} (sandbox)` } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.font('Helvetica-Bold').fontSize(16).text('Bayan transport permit (SANDBOX)');
  doc.moveDown(0.5).font('Helvetica').fontSize(11);
  doc.text(`Trip: ${t.tripId}`);
  doc.text(`Vehicle plate: ${latinPlate(t.vehicle)} (type ${t.vehicle.plateTypeId})`);
  doc.text(`Driver identity: ${t.driver.identityNumber} (issue ${t.driver.issueNumber}), mobile ${t.driver.mobile}`);
  doc.text(`Received: ${t.receivedDate}   Expected delivery: ${t.expectedDeliveryDate}`);
  for (const w of t.waybills) {
    doc.moveDown(0.5).font('Helvetica-Bold').text(`Waybill ${w.waybillNumber} (id ${w.waybillId}) - ${w.status}`);
    doc.font('Helvetica');
    if (w.actualDeliveryDate) doc.text(`Delivered: ${w.actualDeliveryDate}`);
  }
  doc.end();
  return done;
}

/**
 * The sandbox Bayan service (BAYAN_GATEWAY=sandbox, the default): validates like the real one,
 * keeps its trips in `store`, returns trip ids (9 digits), waybill ids and 6-character waybill
 * numbers, prints a PDF, and can be told to fail or be slow (`control`).
 */
export function createSandboxBayan(opts: {
  store: BayanSandboxStore;
  fail?: boolean;
  delayMs?: number;
  answerDelayMs?: number;
  /** Told when a filed trip's answer starts being held (answerDelayMs > 0): the trip is stored. */
  onAnswerHeld?: (tripId: string) => void;
}): BayanSandbox {
  const control: BayanSandboxControl = { fail: opts.fail ?? false, failNext: 0, delayMs: opts.delayMs ?? 0, answerDelayMs: opts.answerDelayMs ?? 0 };
  const { store } = opts;
  async function gate() {
    if (control.delayMs > 0) await new Promise((r) => setTimeout(r, control.delayMs));
    if (control.fail) throw new BayanUnavailableError('Bayan sandbox: unavailable (BAYAN_SANDBOX_FAIL)');
    if (control.failNext > 0) {
      control.failNext -= 1;
      throw new BayanUnavailableError('Bayan sandbox: unavailable (failNext)');
    }
  }
  async function mustTrip(tripId: string | number): Promise<BayanTrip> {
    const t = Number.isSafeInteger(Number(tripId)) ? await store.get(Number(tripId)) : null;
    if (!t) throw new BayanRejectedError('trip not found', [{ path: 'tripId', code: 'TRIP_NOT_FOUND' }]);
    return t;
  }
  async function waybillOp(waybillId: string, apply: (w: BayanWaybill) => void): Promise<BayanWaybill> {
    await gate();
    const trip = await mustTrip(tripOfWaybill(waybillId));
    const w = trip.waybills.find((x) => x.waybillId === waybillId);
    if (!w) throw new BayanRejectedError('waybill not found', [{ path: 'waybillId', code: 'WAYBILL_NOT_FOUND' }]);
    if (w.status !== 'active') throw new BayanRejectedError(`waybill is ${w.status}`, [{ path: 'waybillId', code: 'WAYBILL_NOT_ACTIVE' }]);
    apply(w);
    await store.put(trip, false);
    return w;
  }
  return {
    name: 'sandbox',
    control,
    async createTrip(input, o) {
      await gate();
      const issues = validateBayanTrip(input);
      if (issues.length) throw new BayanRejectedError('invalid trip', issues);
      const id = await store.nextTripId();
      const trip: BayanTrip = {
        tripId: String(id),
        vehicle: input.vehicle,
        driver: input.driver,
        receivedDate: input.receivedDate,
        expectedDeliveryDate: input.expectedDeliveryDate,
        waybills: input.waybills.map((_, i) => ({
          waybillId: waybillIdOf(id, i),
          waybillNumber: newWaybillNumber(),
          status: 'active',
          actualDeliveryDate: null,
          cancelReasonId: null,
        })),
      };
      // the same idempotency key answers the trip it first filed (like the real service)
      const kept = await store.put(trip, true, o?.idempotencyKey);
      // filed, but the answer is late (crash tests: a process dying between filing and recording)
      if (control.answerDelayMs > 0) {
        opts.onAnswerHeld?.(kept.tripId);
        await new Promise((r) => setTimeout(r, control.answerDelayMs));
      }
      return kept;
    },
    async changeVehicle(tripId, vehicle) {
      await gate();
      const issues: Issue[] = [];
      checkVehicle(vehicle, issues);
      if (issues.length) throw new BayanRejectedError('invalid vehicle', issues);
      const trip = await mustTrip(tripId);
      trip.vehicle = vehicle;
      await store.put(trip, false);
      return trip;
    },
    async changeDriver(tripId, driver) {
      await gate();
      const issues: Issue[] = [];
      checkDriver(driver, issues);
      if (issues.length) throw new BayanRejectedError('invalid driver', issues);
      const trip = await mustTrip(tripId);
      trip.driver = driver;
      await store.put(trip, false);
      return trip;
    },
    async getTrip(tripId) {
      await gate();
      return Number.isSafeInteger(Number(tripId)) ? store.get(Number(tripId)) : null;
    },
    async printTrip(tripId) {
      await gate();
      return renderTripPdf(await mustTrip(tripId));
    },
    closeWaybill(waybillId, actualDeliveryDate) {
      if (!DATE.test(actualDeliveryDate)) return Promise.reject(new BayanRejectedError('invalid date', [{ path: 'actualDeliveryDate', code: 'INVALID_DATE' }]));
      return waybillOp(waybillId, (w) => {
        w.status = 'closed';
        w.actualDeliveryDate = actualDeliveryDate;
      });
    },
    cancelWaybill(waybillId, reason: BayanCancelReason) {
      const reasonId = BAYAN_CANCEL_REASON_IDS[reason];
      if (!reasonId) return Promise.reject(new BayanRejectedError('invalid reason', [{ path: 'reasonId', code: 'INVALID_REASON' }]));
      return waybillOp(waybillId, (w) => {
        w.status = 'cancelled';
        w.cancelReasonId = reasonId;
      });
    },
  };
}
