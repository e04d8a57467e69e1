/**
 * Money in SAR, exact to the halala (1 SAR = 100 halalas). Amounts travel as decimal strings
 * with two decimals ("1500.00") in the API and as integer halalas in arithmetic, never through
 * a JS float that rounds (issue 6: invoices with 15% VAT must add up to the halala). The
 * database keeps numeric(12,2), whose text form is exactly this string.
 */

/** Largest amount accepted for a price, SAR (numeric(12,2) holds 10 digits before the point). */
export const MONEY_MAX_SAR = '9999999999.99';
const MONEY_RE = /^(0|[1-9]\d{0,9})(?:\.(\d{1,2}))?$/;

/** True when `s` is a non-negative SAR amount with at most 10 integer digits and 2 decimals. */
export function isMoneyString(s: string): boolean {
  return MONEY_RE.test(s);
}

/**
 * "1500.5" → 150050 halalas. Throws RangeError on anything that is not a money string, so a
 * float never sneaks in. Halalas stay far below 2^53 (max 999,999,999,999).
 */
export function toHalalas(s: string): number {
  const m = MONEY_RE.exec(s);
  if (!m) throw new RangeError(`not a SAR amount: ${s}`);
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** 150050 → "1500.50". `h` must be a safe integer (negative allowed for ledger entries). */
export function fromHalalas(h: number): string {
  if (!Number.isSafeInteger(h)) throw new RangeError(`not a whole number of halalas: ${h}`);
  const sign = h < 0 ? '-' : '';
  const a = Math.abs(h);
  return `${sign}${Math.trunc(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

/** A money string in canonical form: "1500.5" → "1500.50", "07" is rejected by the pattern. */
export function normalizeMoney(s: string): string {
  return fromHalalas(toHalalas(s));
}

/**
 * VAT on an amount of halalas, rounded half up to the halala. `ratePercent` defaults to Saudi
 * VAT 15% (ZATCA). Integer arithmetic only.
 */
export function vatHalalas(h: number, ratePercent = 15): number {
  return Math.floor((h * ratePercent + 50) / 100);
}

/**
 * Rate per km of a price over a distance, SAR string rounded half up to the halala
 * ("0.00" for a zero distance).
 */
export function ratePerKmSar(priceSar: string, distanceKm: number): string {
  if (!(distanceKm > 0)) return '0.00';
  return fromHalalas(Math.round(toHalalas(priceSar) / distanceKm));
}

/**
 * The price a load is carried at (issue 22): once booked, the agreed (booked) price — after a
 * counter offer it differs from the posted one — else the posted price; the rate per km of that
 * price (a load under 1 km is priced per its first km, as when posted). `postedPriceSar` stays for
 * showing it labelled "posted"; `agreed` tells whether a booked price applies. Every screen and
 * export that shows a load's price uses this, so none shows the posted price after booking.
 */
export function loadPriceOf(l: { priceSar: string; ratePerKmSar: string; bookedPriceSar: string | null; distanceKm: number }): {
  priceSar: string;
  ratePerKmSar: string;
  postedPriceSar: string;
  agreed: boolean;
} {
  if (l.bookedPriceSar === null) return { priceSar: l.priceSar, ratePerKmSar: l.ratePerKmSar, postedPriceSar: l.priceSar, agreed: false };
  return { priceSar: l.bookedPriceSar, ratePerKmSar: ratePerKmSar(l.bookedPriceSar, Math.max(l.distanceKm, 1)), postedPriceSar: l.priceSar, agreed: true };
}
