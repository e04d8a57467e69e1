import { fromHalalas, LEDGER_ACCOUNTS, type LedgerBalances } from '@masar/shared';
import type { LedgerDeps } from '../deps.ts';
import * as repo from '../ledger.repository.ts';

/**
 * An account's ledger balances (GET /ledger/balances): every account kind that has postings, in
 * halalas and SAR, in the order of LEDGER_ACCOUNTS. `ownerId` null: the platform's.
 */
export async function getBalances({ db }: Pick<LedgerDeps, 'db'>, ownerId: string | null): Promise<LedgerBalances> {
  const rows = await repo.balancesOf(db, ownerId);
  const items = LEDGER_ACCOUNTS.flatMap((account) => {
    const r = rows.find((x) => x.account === account);
    return r ? [{ account, balanceHalalas: r.balance, balanceSar: fromHalalas(r.balance) }] : [];
  });
  return { items };
}
