/**
 * Detention from facts (issue 50): the waiting time at a stop is from the driver's arrival step to
 * the departure step (pickup: `at_pickup` → `to_drop`; drop: `at_drop` → `completed`), each at the
 * device's time when it was recorded offline (`recordedAt`, migration 0137) else the server's.
 * Billable = max(0, dwell − free hours), charged per started minute at the post's hourly rate
 * (halalas, rounded half up), capped per stop by the post's cap when it has one. Pure: no clock,
 * `now` is given (a stop still occupied accrues to `now`).
 */
export interface DetentionInput {
  arrivedAt: Date;
  /** null while the truck is still at the stop (accruing). */
  departedAt: Date | null;
  now: Date;
  freeHours: number;
  /** SAR per hour in halalas (integer). */
  rateHalalas: number;
  /** per stop, halalas; null: no cap. */
  capHalalas: number | null;
}
export interface DetentionResult {
  dwellMinutes: number;
  billableMinutes: number;
  amountHalalas: number;
  capped: boolean;
  accruing: boolean;
}

export function detentionOf(i: DetentionInput): DetentionResult {
  const end = i.departedAt ?? i.now;
  const dwellMinutes = Math.max(0, Math.floor((end.getTime() - i.arrivedAt.getTime()) / 60_000));
  const billableMinutes = Math.max(0, dwellMinutes - i.freeHours * 60);
  // minutes × rate per hour / 60, half up, in integers
  const raw = Math.floor((billableMinutes * i.rateHalalas * 2 + 60) / 120);
  const capped = i.capHalalas !== null && raw > i.capHalalas;
  return { dwellMinutes, billableMinutes, amountHalalas: capped ? i.capHalalas! : raw, capped, accruing: i.departedAt === null };
}

/** The trip steps that bound the wait at each stop. */
export const DETENTION_STEPS = {
  pickup: { arrival: 'at_pickup', departure: 'to_drop' },
  drop: { arrival: 'at_drop', departure: 'completed' },
} as const;
