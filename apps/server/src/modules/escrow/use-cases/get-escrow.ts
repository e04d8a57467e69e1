import type { Escrow } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { EscrowDeps } from '../deps.ts';
import * as repo from '../escrow.repository.ts';
import { partyOf, toEscrow } from '../escrow.shared.ts';

/**
 * GET /loads/:id/escrow (issue 50): the shipper and the booked carrier see the escrow — the
 * carrier sees "Funded" before it assigns a truck. Errors: ESCROW_NOT_FOUND (no protection, or not
 * booked yet), NOT_FOUND (not a party).
 */
export async function getEscrow(deps: Pick<EscrowDeps, 'db'>, user: CurrentUser, loadId: string): Promise<Escrow> {
  const e = await repo.escrowOfLoad(deps.db, loadId);
  partyOf(e, user);
  return toEscrow(e!);
}
