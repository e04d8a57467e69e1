import type { PayoutAccount } from '@masar/shared';
import type { Db } from '../../../db/client.ts';
import { actingUser, type CurrentUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import * as repo from '../payouts.repository.ts';
import { requirePayee, toPayoutAccount } from '../payouts.shared.ts';

/**
 * PUT /payoutAccount (issue 50): the carrier's (or broker's) payout IBAN, already validated and
 * normalised by the shared schema (SA + 22, MOD 97 check digits, localized errors), and the holder's
 * name; replaces the previous one, with `account.payout_account_set` (the last 4 characters only)
 * in the same transaction. Errors: FORBIDDEN (a shipper).
 */
export async function setPayoutAccount({ db }: { db: Db }, user: CurrentUser, body: { iban: string; holderName: string }): Promise<PayoutAccount> {
  requirePayee(user);
  return db.transaction(async (tx) => {
    const row = await repo.upsertPayoutAccount(tx, user.id, body.iban, body.holderName);
    await publish(tx, {
      type: 'account.payout_account_set',
      aggregateType: 'account',
      aggregateId: user.id,
      actorId: actingUser(user),
      data: { accountId: user.id, ibanLast4: body.iban.slice(-4), bankCode: body.iban.slice(4, 6) },
    });
    return toPayoutAccount(row);
  });
}
