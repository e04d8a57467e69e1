import type { Db } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { getPayoutAccount } from './use-cases/get-payout-account.ts';
import { setPayoutAccount } from './use-cases/set-payout-account.ts';

/** Payout settings (issue 50): the carrier's Saudi IBAN. Batches and QuickPay come later. */
export function createPayoutsService(deps: { db: Db }) {
  return {
    get: (user: CurrentUser) => getPayoutAccount(deps, user),
    set: (user: CurrentUser, body: { iban: string; holderName: string }) => setPayoutAccount(deps, user, body),
  };
}
export type PayoutsService = ReturnType<typeof createPayoutsService>;
