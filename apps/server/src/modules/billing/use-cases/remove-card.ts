import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import type { BillingDeps } from '../deps.ts';

export type RemoveCardDeps = Pick<BillingDeps, 'db'>;

/** Remove a saved card (soft delete; its token is wiped). NOT_FOUND when it is not the account's. */
export async function removeCard(deps: RemoveCardDeps, user: CurrentUser, id: string): Promise<void> {
  if (!(await repo.deleteCard(deps.db, user.id, id))) throw new AppError('NOT_FOUND');
}
