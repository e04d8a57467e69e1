import { escrowTransition, fromHalalas, type Escrow } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import { actingUser, type CurrentUser } from '../../auth/auth.types.ts';
import type { EscrowDeps } from '../deps.ts';
import * as repo from '../escrow.repository.ts';
import { fundingPostings, partyOf, toEscrow, totalOf } from '../escrow.shared.ts';
import { transitionEscrow } from '../lifecycle.ts';

export type FundDeps = Pick<EscrowDeps, 'ledgerPost' | 'wallet' | 'now'>;

/**
 * Fund an `unfunded` escrow the caller has locked, inside `tx`: debit the shipper's billing wallet
 * price + VAT (INSUFFICIENT_WALLET_BALANCE, 402, before anything is written), post the ledger
 * journal `escrow.funded` (platform funding → the shipper's escrow_held) and move the escrow to
 * `funded` (payment.funded). ESCROW_NOT_FUNDABLE (409) when it is not unfunded.
 */
export async function fundLocked(deps: FundDeps, tx: DbOrTx, e: repo.EscrowRow, actorId: string | null): Promise<void> {
  if (!escrowTransition(e.status, 'fund')) throw new AppError('ESCROW_NOT_FUNDABLE');
  await deps.wallet.debit(tx, e.shipperId, totalOf(e), e.id);
  await deps.ledgerPost(tx, {
    factKind: 'escrow.funded',
    factId: e.id,
    memo: `escrow of load ${e.loadId}: ${fromHalalas(totalOf(e))} SAR held`,
    postings: fundingPostings(e),
  });
  await transitionEscrow(tx, e, 'fund', actorId, { fundedAt: (deps.now ?? (() => new Date()))() }, {}, 'ESCROW_NOT_FUNDABLE');
}

/**
 * POST /loads/:id/escrow/fund (issue 50): the shipper funds its protected load's escrow from the
 * wallet after a top-up (the booking funds it at once when the wallet covers it). Errors:
 * ESCROW_NOT_FOUND, NOT_FOUND (not a party), FORBIDDEN (the carrier), ESCROW_NOT_FUNDABLE,
 * INSUFFICIENT_WALLET_BALANCE.
 */
export async function fundEscrow(deps: FundDeps & Pick<EscrowDeps, 'db'>, user: CurrentUser, loadId: string): Promise<Escrow> {
  return deps.db.transaction(async (tx) => {
    const e = await repo.escrowOfLoad(tx, loadId, true);
    if (partyOf(e, user) !== 'shipper') throw new AppError('FORBIDDEN');
    await fundLocked(deps, tx, e!, actingUser(user));
    return toEscrow((await repo.escrowById(tx, e!.id))!);
  });
}
