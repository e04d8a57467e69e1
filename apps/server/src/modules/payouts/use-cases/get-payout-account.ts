import type { PayoutAccount } from '@masar/shared';
import type { Db } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../payouts.repository.ts';
import { requirePayee, toPayoutAccount } from '../payouts.shared.ts';

/** GET /payoutAccount (issue 50): my payout IBAN with its bank's name. NOT_FOUND before one is set; FORBIDDEN for a shipper. */
export async function getPayoutAccount({ db }: { db: Db }, user: CurrentUser): Promise<PayoutAccount> {
  requirePayee(user);
  const r = await repo.payoutAccountOf(db, user.id);
  if (!r) throw new AppError('NOT_FOUND');
  return toPayoutAccount(r);
}
