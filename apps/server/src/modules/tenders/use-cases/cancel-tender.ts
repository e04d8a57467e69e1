import type { Tender } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import type { TendersDeps } from '../deps.ts';
import { closeOpenInvites, transitionTender } from '../lifecycle.ts';
import * as repo from '../tenders.repository.ts';
import { getTender } from './get-tender.ts';

export type CancelTenderDeps = Pick<TendersDeps, 'db'>;

/** POST /tenders/:id/cancel — the owner cancels an open tender: its open invites close (tender.invite_closed), tender.cancelled. */
export async function cancelTender(deps: CancelTenderDeps, user: CurrentUser, id: string): Promise<Tender> {
  await deps.db.transaction(async (tx) => {
    const t = await repo.tenderState(tx, id, true);
    if (!t || t.owner_id !== user.id) throw new AppError('NOT_FOUND');
    if (t.status !== 'open') throw new AppError('TENDER_NOT_OPEN');
    await closeOpenInvites(tx, t, actingUser(user), 'cancelled');
    await transitionTender(tx, id, 'cancel', user.id);
  });
  return getTender(deps, user, id);
}
