import type { Language, Subscription } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import { subscriptionView } from '../billing.shared.ts';
import type { BillingDeps } from '../deps.ts';

export type ListSubscriptionsDeps = Pick<BillingDeps, 'db'>;

/** The account's subscriptions, newest first (a page). */
export async function listSubscriptions(deps: ListSubscriptionsDeps, user: CurrentUser, lang: Language, limit: number, skip: number): Promise<Subscription[]> {
  return (await repo.listSubscriptions(deps.db, user.id, limit, skip)).map((s) => subscriptionView(s, lang));
}
