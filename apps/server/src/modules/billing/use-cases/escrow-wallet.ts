import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import * as repo from '../billing.repository.ts';

/**
 * The wallet's side of payment protection (issue 50), the port the escrow module funds and
 * refunds through, inside its own transaction `tx`.
 *
 * `debitForEscrow`: lock the payer's wallet (row lock on the account), check the balance (sum of
 * its entries) covers `halalas` (integer, > 0), write one `escrow` entry of −halalas tagged with
 * the escrow. Idempotent per escrow: a second call for the same escrow writes nothing
 * (unique `(escrow_id, kind)`, migration 0141). Errors: INSUFFICIENT_WALLET_BALANCE (402).
 */
export async function debitForEscrow(tx: DbOrTx, userId: string, halalas: number, escrowId: string): Promise<void> {
  await repo.lockWallet(tx, userId);
  if ((await repo.walletBalance(tx, userId)) < halalas) throw new AppError('INSUFFICIENT_WALLET_BALANCE');
  await repo.insertWalletEntry(tx, { id: newId(), userId, kind: 'escrow', amountHalalas: -halalas, escrowId });
}

/** `creditFromEscrow`: return `halalas` (> 0) of an escrow to the payer's wallet, once per escrow. */
export async function creditFromEscrow(tx: DbOrTx, userId: string, halalas: number, escrowId: string): Promise<void> {
  await repo.insertWalletEntry(tx, { id: newId(), userId, kind: 'escrow_refund', amountHalalas: halalas, escrowId });
}
