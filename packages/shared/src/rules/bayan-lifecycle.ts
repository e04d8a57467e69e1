/**
 * The Bayan trip state machine (issue 7, issue 22; issue 51: every status by a transition table).
 * Every allowed status change of a `bayan_trips` row is listed once here; the server applies it in
 * ONE place: apps/server/src/modules/bayan/lifecycle.ts `transitionTrip()` checks this table,
 * writes with a conditional update (`… where id = $id and status = $from`) and moves the shipment
 * (the load action of BAYAN_TRIP_LOAD_ACTION, whose event is the trip's) in the same transaction.
 * A trip is inserted `pending` (the reservation made before Bayan is called); a creation Bayan
 * refused removes the reservation.
 *
 * Trip statuses: `pending` (reserved; Bayan not answered yet, or did not answer: the shipment
 * waits in pending_bayan and the `bayan.create` job retries), `active` (Bayan filed it: trip id
 * and waybill stored), `closed` (Bayan closed the waybill: the shipment is completed),
 * `cancelled` (cancelled with a reason: the shipment is cancelled).
 */
import type { BayanTripStatus } from '../schemas/bayan.ts';
import type { LoadAction, Transition } from './lifecycle.ts';

/** What Bayan's answer, a party or the retry job does to a trip. */
export const BAYAN_TRIP_ACTIONS = ['create', 'close', 'cancel'] as const;
export type BayanTripAction = (typeof BAYAN_TRIP_ACTIONS)[number];

/** The allowed Bayan trip transitions, the only place they are listed. A pair not in this table is refused (INVALID_TRANSITION unless the caller names its code). */
export const BAYAN_TRIP_TRANSITIONS: readonly Transition<BayanTripStatus, BayanTripAction>[] = [
  { action: 'create', from: ['pending'], to: 'active', by: 'Bayan answered: POST /bayan/trips, or the bayan.create retry job' },
  { action: 'close', from: ['active'], to: 'closed', by: 'awarded carrier or shipper, after Bayan closed the waybill (delivery first)' },
  { action: 'cancel', from: ['pending', 'active'], to: 'cancelled', by: 'awarded carrier or shipper, with a reason (Bayan cancels an active waybill first)' },
];

/**
 * The shipment's side of each trip action (LOAD_TRANSITIONS in lifecycle.ts): its event
 * (LOAD_ACTION_EVENT) is the trip's. `create` moves a shipment waiting in pending_bayan back to
 * assigned; one already assigned only gets the `load.bayan_created` event.
 */
export const BAYAN_TRIP_LOAD_ACTION = {
  create: 'bayan_created',
  close: 'bayan_closed',
  cancel: 'bayan_cancelled',
} as const satisfies Record<BayanTripAction, LoadAction>;

/** The status `action` leads a trip to from `from`, or null when BAYAN_TRIP_TRANSITIONS does not allow it. */
export function bayanTripTransition(from: BayanTripStatus, action: BayanTripAction): BayanTripStatus | null {
  return BAYAN_TRIP_TRANSITIONS.find((x) => x.action === action && x.from.includes(from))?.to ?? null;
}
