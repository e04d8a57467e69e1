import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import type { BillingDeps } from '../deps.ts';

export type MakeDefaultCardDeps = Pick<BillingDeps, 'db'>;

/** Make a saved card the default (the renewal card). NOT_FOUND when it is not the account's. */
export async function makeDefaultCard(deps: MakeDefaultCardDeps, user: CurrentUser, id: string): Promise<void> {
  if (!(await repo.findCard(deps.db, user.id, id))) throw new AppError('NOT_FOUND');
  await repo.setDefaultCard(deps.db, user.id, id);
}
