import type { PaymentIntent } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import type { BillingDeps } from '../deps.ts';
import { toIntentView } from '../settlement.ts';

export type GetIntentDeps = Pick<BillingDeps, 'db'>;

/** One of the account's payment intents. NOT_FOUND when it is not the account's. */
export async function getIntent(deps: GetIntentDeps, user: CurrentUser, id: string): Promise<PaymentIntent> {
  const i = await repo.findIntent(deps.db, user.id, id);
  if (!i) throw new AppError('NOT_FOUND');
  return toIntentView(deps, i);
}
