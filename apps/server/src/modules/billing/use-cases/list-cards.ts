import type { SavedCard } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import { cardView } from '../billing.shared.ts';
import type { BillingDeps } from '../deps.ts';

export type ListCardsDeps = Pick<BillingDeps, 'db'>;

/** The account's saved cards, the default first. */
export async function listCards(deps: ListCardsDeps, user: CurrentUser): Promise<SavedCard[]> {
  return (await repo.listCards(deps.db, user.id)).map(cardView);
}
