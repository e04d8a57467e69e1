/*
 * A shipment's pickup and delivery windows and when they end (issue 19; docs/account-record.md):
 * pure time arithmetic shared by the fact-based record (modules/records) and the dashboards
 * (modules/dashboards), which count on-time arrivals by the same rule.
 */

const HOUR_MS = 3_600_000;
/** Saudi Arabia keeps UTC+3 all year (no daylight saving): stop hours are Riyadh wall-clock times. */
const RIYADH_OFFSET_MS = 3 * HOUR_MS;

/** The instant of Riyadh wall-clock `hhmm` ("HH:MM") on the Riyadh calendar day of `d`; "24:00" (no hours) is the day's end. */
function riyadhDayAt(d: Date, hhmm: string | null): Date {
  const local = new Date(d.getTime() + RIYADH_OFFSET_MS);
  const [h, m] = hhmm ? hhmm.split(':').map(Number) : [24, 0];
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), h, m) - RIYADH_OFFSET_MS);
}

/** The stop windows of a shipment, as the loads module gives them. */
export interface StopWindows {
  pickupAt: Date;
  pickupLatestAt: Date | null;
  pickupHoursTo: string | null;
  dropAt: Date;
  dropHoursTo: string | null;
}

/**
 * The end of the pickup window: the latest pickup time when the shipper set one; else the pickup
 * day's closing hour (pickup hours "to", Riyadh time); else the end of the pickup day (Riyadh).
 * Never before the pickup time itself.
 */
export function pickupWindowEnd(w: StopWindows): Date {
  const end = w.pickupLatestAt ?? riyadhDayAt(w.pickupAt, w.pickupHoursTo);
  return end.getTime() < w.pickupAt.getTime() ? w.pickupAt : end;
}

/** The end of the delivery window: the drop day's closing hour (drop hours "to", Riyadh time), else the end of the drop day; never before the drop time. */
export function deliveryWindowEnd(w: StopWindows): Date {
  const end = riyadhDayAt(w.dropAt, w.dropHoursTo);
  return end.getTime() < w.dropAt.getTime() ? w.dropAt : end;
}
