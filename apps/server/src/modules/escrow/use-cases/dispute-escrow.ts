import type { Escrow, EscrowDisputeBody } from '@masar/shared';
import { actingUser, type CurrentUser } from '../../auth/auth.types.ts';
import type { EscrowDeps } from '../deps.ts';
import * as repo from '../escrow.repository.ts';
import { partyOf, toEscrow } from '../escrow.shared.ts';
import { transitionEscrow } from '../lifecycle.ts';

/**
 * POST /loads/:id/escrow/dispute (issue 50): the shipper or the booked carrier holds a funded
 * escrow (before or after completion, until the release has run) with a reason and evidence;
 * the operator settles it (admin CLI escrow-settle). Under the escrow's row lock, so a dispute
 * and a release racing end with exactly one of them. Errors: ESCROW_NOT_FOUND, NOT_FOUND,
 * ESCROW_NOT_DISPUTABLE (409: unfunded, already disputed, released, settled, refunded).
 */
export async function disputeEscrow(deps: Pick<EscrowDeps, 'db' | 'now'>, user: CurrentUser, loadId: string, body: EscrowDisputeBody): Promise<Escrow> {
  return deps.db.transaction(async (tx) => {
    const e = await repo.escrowOfLoad(tx, loadId, true);
    const by = partyOf(e, user);
    await transitionEscrow(
      tx,
      e!,
      'dispute',
      actingUser(user),
      { disputedAt: (deps.now ?? (() => new Date()))(), disputeBy: user.id, disputeReason: body.reason, disputeEvidence: body.evidence },
      { by, reason: body.reason },
      'ESCROW_NOT_DISPUTABLE',
    );
    return toEscrow((await repo.escrowById(tx, e!.id))!);
  });
}
