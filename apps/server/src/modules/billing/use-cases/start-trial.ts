import dayjs from 'dayjs';
import { TRIAL_DAYS, type Language, type Subscription } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import { assertPlanFor, billingEvent, subData, subscriptionView } from '../billing.shared.ts';
import type { BillingDeps } from '../deps.ts';

export type StartTrialDeps = Pick<BillingDeps, 'db'>;

/** Start the free trial of a plan for the account's audience: once per account, never after a paid plan. */
export async function startTrial(deps: StartTrialDeps, user: CurrentUser, planCode: string, lang: Language): Promise<Subscription> {
  const plan = assertPlanFor(user, planCode);
  return deps.db.transaction(async (tx) => {
    await repo.lockWallet(tx, user.id); // one subscription write per user at a time
    if (await repo.hasAnySubscription(tx, user.id)) throw new AppError('TRIAL_USED');
    const id = newId();
    const now = new Date();
    await repo.insertSubscription(tx, {
      id,
      userId: user.id,
      planCode: plan.code,
      planName: plan.name.en,
      active: true,
      status: 'trialing',
      trial: true,
      startedAt: now,
      endsAt: dayjs(now).add(TRIAL_DAYS, 'day').toDate(),
      cancelAtPeriodEnd: false,
      months: plan.months,
    });
    await billingEvent(tx, 'subscription.started', user.id, subData(id, plan.code, dayjs(now).add(TRIAL_DAYS, 'day').toDate()));
    const s = await repo.currentSubscription(tx, user.id);
    return subscriptionView(s!, lang);
  });
}
