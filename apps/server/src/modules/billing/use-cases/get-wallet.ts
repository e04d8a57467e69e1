import { fromHalalas, type Wallet } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import type { BillingDeps } from '../deps.ts';

export type GetWalletDeps = Pick<BillingDeps, 'db'>;

/** Balance = the sum of the ledger; the latest entries. */
export async function getWallet(deps: GetWalletDeps, user: CurrentUser): Promise<Wallet> {
  const [balance, entries] = await Promise.all([repo.walletBalance(deps.db, user.id), repo.walletEntriesOf(deps.db, user.id, 50)]);
  return {
    balanceSar: fromHalalas(balance),
    entries: entries.map((e) => ({
      id: e.id,
      kind: e.kind,
      amountSar: fromHalalas(e.amountHalalas),
      intentId: e.intentId,
      createdAt: e.createdAt.toISOString(),
    })),
  };
}
