import { escrowSettleInput, fromHalalas, toHalalas, type Escrow, type EscrowSettleInput } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { EscrowDeps } from '../deps.ts';
import * as repo from '../escrow.repository.ts';
import { payoutPostings, toEscrow, totalOf } from '../escrow.shared.ts';
import { transitionEscrow } from '../lifecycle.ts';

/**
 * The operator settles a disputed escrow (admin CLI `escrow-settle`; issue 50), in one
 * transaction: `full` — all of it to the carrier; `partial` — `carrierSar` (incl. VAT, more than 0
 * and less than the total, else ESCROW_BAD_AMOUNT) to the carrier and the rest back to the
 * shipper's wallet; `refund` — all of it back. Ledger journal `escrow.settled`, the wallet's
 * refund entry, status `settled` and payment.settled with the reason. Errors: ESCROW_NOT_FOUND,
 * ESCROW_NOT_SETTLEABLE (not disputed).
 */
export async function settleEscrow(
  deps: Pick<EscrowDeps, 'db' | 'ledgerPost' | 'wallet' | 'now'>,
  ref: { loadId: string } | { escrowId: string },
  input: EscrowSettleInput,
): Promise<Escrow> {
  const s = escrowSettleInput.parse(input);
  return deps.db.transaction(async (tx) => {
    const e = 'loadId' in ref ? await repo.escrowOfLoad(tx, ref.loadId, true) : await repo.escrowById(tx, ref.escrowId, true);
    if (!e) throw new AppError('ESCROW_NOT_FOUND');
    if (e.status !== 'disputed') throw new AppError('ESCROW_NOT_SETTLEABLE');
    const total = totalOf(e);
    const carrier = s.kind === 'full' ? total : s.kind === 'refund' ? 0 : toHalalas(s.carrierSar!);
    if (s.kind === 'partial' && (carrier <= 0 || carrier >= total)) throw new AppError('ESCROW_BAD_AMOUNT');
    await deps.ledgerPost(tx, { factKind: 'escrow.settled', factId: e.id, memo: `${s.kind}: ${s.reason}`, postings: payoutPostings(e, carrier) });
    if (total - carrier > 0) await deps.wallet.credit(tx, e.shipperId, total - carrier, e.id);
    await transitionEscrow(
      tx,
      e,
      'settle',
      null,
      { settledAt: (deps.now ?? (() => new Date()))(), settlement: s.kind, settledCarrierHalalas: carrier, settlementReason: s.reason },
      { settlement: s.kind, carrierSar: fromHalalas(carrier), refundSar: fromHalalas(total - carrier), reason: s.reason },
      'ESCROW_NOT_SETTLEABLE',
    );
    return toEscrow((await repo.escrowById(tx, e.id))!);
  });
}
