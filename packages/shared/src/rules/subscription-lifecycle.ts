/**
 * The subscription state machine (issue 8 billing; issue 51: one table like loads' and offers').
 * Every allowed change of `subscriptions.status` is listed once here. The server applies them in
 * ONE place: apps/server/src/modules/billing/lifecycle.ts `transition()` (one subscription) and its
 * batch forms (the renewal job's expiry, a new plan replacing the live one) check this table, write
 * with a conditional update (`… where id = $id and status = $from`) and publish the action's event
 * in the same transaction.
 *
 * Statuses (SUBSCRIPTION_STATUSES, schemas/billing.ts), each row's first one written by its insert:
 * - `trialing` — the free trial of a plan (start a trial; once per account);
 * - `active` — a paid plan (checkout), or the demo accounts' plan (no end);
 * - `past_due` — a renewal charge failed; retried, and after the last try it ends with its period;
 * - `cancelled` — the owner cancelled (a trial ends at once, a paid plan runs to its period end),
 *   or a new plan replaced it;
 * - `expired` — its period ended without renewal (a trial, a cancelled plan, an unpaid renewal).
 */
import type { SubscriptionStatus } from '../schemas/billing.ts';
import type { Transition } from './lifecycle.ts';

/** What a user or job does to a subscription. */
export const SUBSCRIPTION_ACTIONS = ['renew', 'renewal_failed', 'cancel', 'replace', 'expire'] as const;
export type SubscriptionAction = (typeof SUBSCRIPTION_ACTIONS)[number];

/** The domain event each action publishes (events.ts); a replaced plan publishes none (the new plan's subscription.started says it). */
export const SUBSCRIPTION_ACTION_EVENT = {
  renew: 'subscription.renewed',
  renewal_failed: 'subscription.past_due',
  cancel: 'subscription.cancelled',
  replace: null,
  expire: 'subscription.expired',
} as const satisfies Record<SubscriptionAction, string | null>;

/**
 * The allowed subscription transitions, the only place they are listed. A `(status, action)` pair
 * not in this table is refused (nothing written). The `from` lists are what the billing code meets:
 * - `renew` is applied when a renewal charge is paid, which can be long after the charge was asked
 *   (3-D Secure, or the reconcile job settling a charge a crash left unrecorded, issue 22): the
 *   payer was charged for the next period, so it applies whatever happened to the plan meanwhile
 *   (cancelled or expired); only a trial is never renewed.
 * - `renewal_failed` is recorded after the gateway answered; the owner may have cancelled meanwhile.
 * - `cancel` again on a plan already cancelled at its period end records the cancellation again.
 */
export const SUBSCRIPTION_TRANSITIONS: readonly Transition<SubscriptionStatus, SubscriptionAction>[] = [
  {
    action: 'renew',
    from: ['active', 'past_due', 'cancelled', 'expired'],
    to: 'active',
    by: 'renewal charge paid (renewal job, 3-D Secure confirmation, reconcile job)',
  },
  { action: 'renewal_failed', from: ['active', 'past_due', 'cancelled'], to: 'past_due', by: 'renewal job: the charge failed or no card' },
  { action: 'cancel', from: ['trialing', 'active', 'past_due', 'cancelled'], to: 'cancelled', by: 'owner (a trial ends at once, a plan at its period end)' },
  { action: 'replace', from: ['trialing', 'active', 'past_due', 'cancelled'], to: 'cancelled', by: 'checkout of a new plan (it ends the live one)' },
  { action: 'expire', from: ['trialing', 'active', 'past_due', 'cancelled'], to: 'expired', by: 'renewal job: a trial or a plan set to end, past its period' },
];

/** The table's row of `action`: each subscription action has one (one `to`, whatever its `from`), so batch forms need no per-row target. */
export const subscriptionTransitionOf = (action: SubscriptionAction): Transition<SubscriptionStatus, SubscriptionAction> =>
  SUBSCRIPTION_TRANSITIONS.find((t) => t.action === action)!;

/** The status `action` leads a subscription to from `from`, or null when SUBSCRIPTION_TRANSITIONS does not allow it. */
export function subscriptionTransition(from: SubscriptionStatus, action: SubscriptionAction): SubscriptionStatus | null {
  const { from: allowed, to } = subscriptionTransitionOf(action);
  return allowed.includes(from) ? to : null;
}

/** Statuses from which `action` is allowed (for the batch updates' guard: `status in (...)`). */
export const subscriptionStatusesAllowing = (action: SubscriptionAction): readonly SubscriptionStatus[] => subscriptionTransitionOf(action).from;
