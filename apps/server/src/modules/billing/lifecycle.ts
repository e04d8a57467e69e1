import {
  SUBSCRIPTION_ACTION_EVENT,
  subscriptionStatusesAllowing,
  subscriptionTransition,
  subscriptionTransitionOf,
  type ErrorCode,
  type SubscriptionAction,
  type SubscriptionStatus,
} from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { billingEvent, subData } from './billing.shared.ts';
import * as lifecycleRepo from './lifecycle.repository.ts';

export type { SubscriptionTransitionSet } from './lifecycle.repository.ts';

/**
 * THE status change of one subscription (issue 51: one lifecycle, as loads'). Inside the caller's
 * transaction:
 * 1. reads the subscription FOR UPDATE (NOT_FOUND when absent);
 * 2. asks the table of packages/shared rules/subscription-lifecycle.ts (`subscriptionTransition`)
 *    where `action` leads from its status: refused → `refuse` (INVALID_TRANSITION by default),
 *    nothing written;
 * 3. writes `update subscriptions set status = $to, …set where id = $id and status = $from`: no
 *    row → STATUS_CHANGED, nothing published;
 * 4. publishes the action's event (SUBSCRIPTION_ACTION_EVENT) with `data` (the subscription, its
 *    plan and period end; see subData) in the same transaction.
 * Returns the new status.
 */
export async function transition(
  tx: DbOrTx,
  subscriptionId: string,
  action: SubscriptionAction,
  data: Record<string, unknown>,
  set: lifecycleRepo.SubscriptionTransitionSet = {},
  refuse: ErrorCode = 'INVALID_TRANSITION',
): Promise<SubscriptionStatus> {
  const s = await lifecycleRepo.lockSubscription(tx, subscriptionId);
  if (!s) throw new AppError('NOT_FOUND');
  const from = s.status as SubscriptionStatus;
  const to = subscriptionTransition(from, action);
  if (!to) throw new AppError(refuse);
  if (!(await lifecycleRepo.transitionRow(tx, subscriptionId, from, to, set))) throw new AppError('STATUS_CHANGED');
  const type = SUBSCRIPTION_ACTION_EVENT[action];
  if (type) await billingEvent(tx, type, s.userId, data);
  return to;
}

/** A new plan replaces the user's live one (lifecycle 'replace', no event: the new plan's subscription.started says it). */
export async function replaceLive(tx: DbOrTx, userId: string): Promise<void> {
  await lifecycleRepo.endLive(tx, userId, subscriptionStatusesAllowing('replace'), subscriptionTransitionOf('replace').to);
}

/**
 * The renewal job's expiry (lifecycle 'expire'): trials and plans set to end whose period is over
 * become `expired`, a subscription.expired each, in the caller's transaction. Returns how many.
 */
export async function expireBatch(tx: DbOrTx): Promise<number> {
  const rows = await lifecycleRepo.expireEnded(tx, subscriptionStatusesAllowing('expire'), subscriptionTransitionOf('expire').to);
  for (const r of rows) await billingEvent(tx, SUBSCRIPTION_ACTION_EVENT.expire, r.userId, subData(r.id, r.planCode, r.endsAt));
  return rows.length;
}
