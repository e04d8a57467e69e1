import type { Language, Subscription } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import { subscriptionView } from '../billing.shared.ts';
import type { BillingDeps } from '../deps.ts';

export type CurrentSubscriptionDeps = Pick<BillingDeps, 'db'>;

/** The subscription that grants a plan now, or null. */
export async function currentSubscription(deps: CurrentSubscriptionDeps, user: CurrentUser, lang: Language): Promise<Subscription | null> {
  const s = await repo.currentSubscription(deps.db, user.id);
  return s ? subscriptionView(s, lang) : null;
}
