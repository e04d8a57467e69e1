import type { Language, Subscription } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import { DEMO_PLAN_CODE, subData, subscriptionView } from '../billing.shared.ts';
import type { BillingDeps } from '../deps.ts';
import * as lifecycle from '../lifecycle.ts';

export type CancelSubscriptionDeps = Pick<BillingDeps, 'db'>;

/**
 * Cancel at the end of the paid period (a trial ends at once): lifecycle 'cancel', with
 * subscription.cancelled. NO_ACTIVE_PLAN when nothing (or only the demo plan) is in force.
 */
export async function cancelSubscription(deps: CancelSubscriptionDeps, user: CurrentUser, lang: Language): Promise<Subscription> {
  const { db } = deps;
  const s = await repo.currentSubscription(db, user.id);
  if (!s || s.planCode === DEMO_PLAN_CODE) throw new AppError('NO_ACTIVE_PLAN');
  await db.transaction(async (tx) => {
    const set = s.trial ? { active: false, endsAt: new Date(), cancelledAt: new Date() } : { cancelAtPeriodEnd: true, cancelledAt: new Date() };
    await lifecycle.transition(tx, s.id, 'cancel', subData(s.id, s.planCode, s.trial ? new Date() : s.endsAt), set, 'NO_ACTIVE_PLAN');
  });
  return subscriptionView((await repo.findSubscription(db, s.id)) ?? s, lang);
}
