import { fromHalalas } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import type { EscrowDeps } from '../deps.ts';
import * as repo from '../escrow.repository.ts';
import { payoutPostings, totalOf } from '../escrow.shared.ts';
import { transitionEscrow } from '../lifecycle.ts';

const REASON = 'load cancelled';

/**
 * On `load.cancelled` (outbox handler, inside its transaction): a funded escrow goes back to the
 * shipper's wallet in full (ledger `escrow.refunded`, status `refunded`, payment.settled
 * `refund`); an unfunded one is closed (`cancelled`). A disputed one waits for the operator.
 */
export async function closeOnCancel(deps: Pick<EscrowDeps, 'ledgerPost' | 'wallet' | 'now'>, tx: DbOrTx, loadId: string): Promise<void> {
  const e = await repo.escrowOfLoad(tx, loadId, true);
  if (!e) return;
  if (e.status === 'unfunded') {
    await transitionEscrow(tx, e, 'cancel', null);
    return;
  }
  if (e.status !== 'funded') return;
  const total = totalOf(e);
  await deps.ledgerPost(tx, { factKind: 'escrow.refunded', factId: e.id, memo: REASON, postings: payoutPostings(e, 0) });
  await deps.wallet.credit(tx, e.shipperId, total, e.id);
  await transitionEscrow(
    tx,
    e,
    'refund',
    null,
    { settledAt: (deps.now ?? (() => new Date()))(), settlement: 'refund', settledCarrierHalalas: 0, settlementReason: REASON },
    { settlement: 'refund', carrierSar: '0.00', refundSar: fromHalalas(total), reason: REASON },
  );
}
