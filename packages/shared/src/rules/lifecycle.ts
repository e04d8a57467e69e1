/**
 * The shipment and offer state machine (spec §4 "States and transitions"; issue 7). Every
 * allowed status change is listed once here. The server applies them in ONE place each (issue 18):
 * apps/server/src/modules/loads/lifecycle.ts `transition()` for loads and
 * apps/server/src/modules/offers/lifecycle.ts `transitionOffer()` for offers check this table,
 * write with a conditional update and publish the action's event in the same transaction. The API
 * docs print `LOAD_TRANSITIONS`; every transition shows on the shipment timeline.
 *
 * Load statuses:
 * - `unposted` — saved, not on the board (draft, or taken off with unpost);
 * - `posted` — on the board (marketplace) or offered to chosen vendors; bids are taken;
 * - `expired` — its pickup time passed while posted (the expiry job); repost with new dates;
 * - `unassigned` — booked (an offer was accepted, or an own-vehicle shipment), no truck yet;
 * - `assigned` — a vehicle with its driver and trailer is assigned; the trip runs;
 * - `pending_bayan` — the Bayan trip was requested but the Bayan service did not answer; a
 *   retry job creates it and moves the shipment back to `assigned`;
 * - `completed` — delivered and its Bayan closed (or no Bayan: below 3.5 t, trip completed);
 * - `cancelled` — deleted by its owner, or its Bayan was cancelled with a reason.
 *
 * Offer statuses: `pending` (waits for the party that did not name the last price), `accepted`
 * (won), `rejected`, `withdrawn`, `closed` (lost: another offer won, or the shipment was edited or
 * taken off the board), `cancelled` (the booked shipment was cancelled).
 */
import { EDITABLE_LOAD_STATUSES, type LoadStatus, type OfferStatus } from '../constants.ts';

export { LOAD_STATUSES, EDITABLE_LOAD_STATUSES, ACTIVE_LOAD_STATUSES, OFFER_STATUSES, type LoadStatus, type OfferStatus } from '../constants.ts';

/** What a user or job does to a shipment (the event names end in these). */
export const LOAD_ACTIONS = [
  'post',
  'unpost',
  'repost',
  'expire',
  'book',
  'assign',
  'unassign',
  'bayan_requested',
  'bayan_created',
  'bayan_closed',
  'bayan_cancelled',
  'complete',
  'cancel',
] as const;
export type LoadAction = (typeof LOAD_ACTIONS)[number];

/** The domain event each action publishes (events.ts; the shipment timeline shows them). */
export const LOAD_ACTION_EVENT = {
  post: 'load.posted',
  unpost: 'load.unposted',
  repost: 'load.posted',
  expire: 'load.expired',
  book: 'load.booked',
  assign: 'load.assigned',
  unassign: 'load.unassigned',
  bayan_requested: 'load.bayan_requested',
  bayan_created: 'load.bayan_created',
  bayan_closed: 'load.bayan_closed',
  bayan_cancelled: 'load.bayan_cancelled',
  complete: 'load.completed',
  cancel: 'load.cancelled',
} as const satisfies Record<LoadAction, string>;

/** One allowed transition: `action` moves a shipment from any of `from` to `to`. */
export interface Transition<S extends string, A extends string> {
  action: A;
  from: readonly S[];
  to: S;
  /** Who may do it (documentation; the services check ownership). */
  by: string;
}

/**
 * The allowed load transitions, the only place they are listed (spec §4). A `(status, action)`
 * pair not in this table is refused with INVALID_TRANSITION.
 */
export const LOAD_TRANSITIONS: readonly Transition<LoadStatus, LoadAction>[] = [
  { action: 'post', from: ['unposted'], to: 'posted', by: 'owner' },
  { action: 'unpost', from: ['posted'], to: 'unposted', by: 'owner' },
  { action: 'repost', from: ['posted', 'unposted', 'expired'], to: 'posted', by: 'owner' },
  { action: 'expire', from: ['posted'], to: 'expired', by: 'expiry job' },
  { action: 'book', from: ['posted', 'unposted'], to: 'unassigned', by: 'owner accepting an offer, or an own-vehicle shipment' },
  { action: 'assign', from: ['unassigned'], to: 'assigned', by: 'awarded carrier (owner for own vehicle)' },
  { action: 'unassign', from: ['assigned', 'pending_bayan'], to: 'unassigned', by: 'awarded carrier, before the Bayan trip exists' },
  { action: 'bayan_requested', from: ['assigned'], to: 'pending_bayan', by: 'Bayan service unavailable' },
  { action: 'bayan_created', from: ['pending_bayan'], to: 'assigned', by: 'Bayan retry job' },
  { action: 'bayan_closed', from: ['assigned'], to: 'completed', by: 'awarded carrier or owner (More Options → close Bayan)' },
  { action: 'complete', from: ['assigned'], to: 'completed', by: 'no Bayan (below 3.5 t): after the driver completes the job' },
  { action: 'bayan_cancelled', from: ['assigned', 'pending_bayan'], to: 'cancelled', by: 'awarded carrier or owner, with a reason' },
  { action: 'cancel', from: ['posted', 'unposted', 'expired', 'unassigned'], to: 'cancelled', by: 'owner' },
];

/**
 * Where the carrier may mark the payment received (issue 48): only once the shipment is
 * `completed` (its Bayan closed, or completed without Bayan). Not a status change: the shipment
 * stays completed and `load.payment_received` is published. Anything else → SHIPMENT_NOT_COMPLETED
 * (`cancelled`: INVALID_TRANSITION).
 */
export const PAYMENT_RECEIVABLE_STATUSES: readonly LoadStatus[] = ['completed'];

/** May the payment of a shipment in `status` be marked received (PAYMENT_RECEIVABLE_STATUSES)? */
export const mayMarkPaymentReceived = (status: string): boolean => (PAYMENT_RECEIVABLE_STATUSES as readonly string[]).includes(status);

/** The status `action` leads to from `from`, or null when the table does not allow it. */
export function loadTransition(from: LoadStatus, action: LoadAction): LoadStatus | null {
  const t = LOAD_TRANSITIONS.find((x) => x.action === action && x.from.includes(from));
  return t ? t.to : null;
}

/** Statuses from which `action` is allowed (for SQL guards: `status in (...)`). */
export function loadStatusesAllowing(action: LoadAction): readonly LoadStatus[] {
  return LOAD_TRANSITIONS.filter((t) => t.action === action).flatMap((t) => t.from);
}

/** The actions the table allows from `status` — what "More Options" may offer (before role checks). */
export function loadActionsFrom(status: LoadStatus): LoadAction[] {
  return LOAD_TRANSITIONS.filter((t) => t.from.includes(status)).map((t) => t.action);
}

export const OFFER_TRANSITION_ACTIONS = ['counter', 'accept', 'reject', 'withdraw', 'close', 'cancel'] as const;
export type OfferTransitionAction = (typeof OFFER_TRANSITION_ACTIONS)[number];

/** The allowed offer transitions (a counter offer keeps the offer pending with a new price). */
export const OFFER_TRANSITIONS: readonly Transition<OfferStatus, OfferTransitionAction>[] = [
  { action: 'counter', from: ['pending'], to: 'pending', by: 'the party that did not name the last price' },
  { action: 'accept', from: ['pending'], to: 'accepted', by: 'the party that did not name the last price' },
  { action: 'reject', from: ['pending'], to: 'rejected', by: 'the party that did not name the last price' },
  { action: 'withdraw', from: ['pending'], to: 'withdrawn', by: 'the bidder' },
  { action: 'close', from: ['pending'], to: 'closed', by: 'system: another offer won, the shipment was edited, unposted or cancelled' },
  { action: 'cancel', from: ['accepted'], to: 'cancelled', by: 'system: the booked shipment was cancelled' },
];

/** The domain event each offer action publishes (an offer's aggregate is its load: per-load order). */
export const OFFER_ACTION_EVENT = {
  counter: 'offer.countered',
  accept: 'offer.accepted',
  reject: 'offer.rejected',
  withdraw: 'offer.withdrawn',
  close: 'offer.closed',
  cancel: 'offer.cancelled',
} as const satisfies Record<OfferTransitionAction, string>;

/** The status `action` leads an offer to from `from`, or null when OFFER_TRANSITIONS does not allow it. */
export function offerTransition(from: OfferStatus, action: OfferTransitionAction): OfferStatus | null {
  const t = OFFER_TRANSITIONS.find((x) => x.action === action && x.from.includes(from));
  return t ? t.to : null;
}

/**
 * What "More Options" on a shipment offers (spec §2 my shipments; issue 7): the lifecycle
 * table's actions from the shipment's status, narrowed to what the viewer's role may do.
 * The server returns these as `Load.options`; the web shows exactly these items.
 */
export const LOAD_OPTIONS = [
  'edit',
  'extend_dates',
  'unpost',
  'repost',
  'duplicate',
  'cancel',
  'assign',
  'unassign',
  'create_bayan',
  'close_bayan',
  'cancel_bayan',
  'complete',
  'payment_received',
  'track',
] as const;
export type LoadOption = (typeof LOAD_OPTIONS)[number];

export interface LoadOptionsView {
  status: LoadStatus;
  /** owner: posted it; carrier: the awarded carrier (for an own-vehicle shipment the owner is both). */
  role: 'owner' | 'carrier' | 'owner_carrier' | 'other';
  /** A Bayan trip exists (created, not closed or cancelled). */
  hasBayan: boolean;
  /** The assigned vehicle needs Bayan (3.5 t or more). */
  bayanRequired: boolean;
  /** The driver completed the trip (proof of drop). */
  delivered: boolean;
  /** The carrier already marked the payment received. */
  paymentReceived: boolean;
}

/** The options of one shipment for one viewer, in menu order. */
export function loadOptionsFor(v: LoadOptionsView): LoadOption[] {
  const owner = v.role === 'owner' || v.role === 'owner_carrier';
  const carrier = v.role === 'carrier' || v.role === 'owner_carrier';
  const can = (a: LoadAction) => loadTransition(v.status, a) !== null;
  const out: LoadOption[] = [];
  if (owner && (EDITABLE_LOAD_STATUSES as readonly string[]).includes(v.status)) out.push('edit', 'extend_dates');
  if (owner && can('unpost')) out.push('unpost');
  if (owner && (v.status === 'unposted' || v.status === 'expired')) out.push('repost');
  if (owner) out.push('duplicate');
  if (carrier && can('assign')) out.push('assign');
  if (carrier && can('unassign') && !v.hasBayan) out.push('unassign');
  if (carrier && v.status === 'assigned' && v.bayanRequired && !v.hasBayan) out.push('create_bayan');
  // delivery first (issue 22): after the driver's proof of drop; before it, only the owner (the
  // shipper), who closes with a recorded reason (the override dialog)
  if ((owner || carrier) && v.hasBayan && can('bayan_closed') && (v.delivered || owner)) out.push('close_bayan');
  if ((owner || carrier) && (v.hasBayan || v.status === 'pending_bayan') && can('bayan_cancelled')) out.push('cancel_bayan');
  if ((owner || carrier) && can('complete') && !v.bayanRequired && v.delivered) out.push('complete');
  if (owner && can('cancel')) out.push('cancel');
  if ((owner || carrier) && (v.status === 'assigned' || v.status === 'pending_bayan' || v.status === 'completed')) out.push('track');
  if (carrier && mayMarkPaymentReceived(v.status) && !v.paymentReceived) out.push('payment_received');
  return out;
}
