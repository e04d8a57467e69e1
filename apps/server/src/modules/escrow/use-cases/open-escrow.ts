import { toHalalas, vatHalalas } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import * as repo from '../escrow.repository.ts';
import { fundLocked, type FundDeps } from './fund-escrow.ts';

/**
 * On `load.booked` of a load posted with payment protection (outbox handler, inside its
 * transaction): open the escrow of the agreed price + VAT 15% (rounded half up, money.ts
 * vatHalalas) and fund it from the shipper's wallet when the balance covers it; otherwise it stays
 * `unfunded` until the shipper tops up and funds it. Idempotent: a redelivered event finds the
 * escrow (unique per load) and, if funded, does nothing.
 */
export async function openEscrow(deps: FundDeps, tx: DbOrTx, loadId: string): Promise<void> {
  const b = await repo.bookingOf(tx, loadId);
  if (!b?.protection || !b.carrierId || !b.bookedPrice) return;
  const price = toHalalas(b.bookedPrice);
  if (price <= 0) return;
  await repo.insertEscrow(tx, { id: newId(), loadId, shipperId: b.shipperId, carrierId: b.carrierId, priceHalalas: price, vatHalalas: vatHalalas(price) });
  const e = (await repo.escrowOfLoad(tx, loadId, true))!;
  if (e.status !== 'unfunded') return;
  try {
    await fundLocked(deps, tx, e, null);
  } catch (err) {
    // nothing was written: the wallet check comes before every write
    if (err instanceof AppError && err.code === 'INSUFFICIENT_WALLET_BALANCE') return;
    throw err;
  }
}
