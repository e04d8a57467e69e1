import type { Tender } from '@masar/shared';
import { requireApproved } from '../../../lib/access.ts';
import { AppError, dbErrorCode } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import type { TendersDeps } from '../deps.ts';
import { closeOpenInvites, transitionInvite, transitionTender } from '../lifecycle.ts';
import * as repo from '../tenders.repository.ts';
import { getTender } from './get-tender.ts';

export type AwardTenderDeps = Pick<TendersDeps, 'db' | 'offers' | 'relations'>;

/**
 * POST /tenders/:id/award — the owner awards an accepted or countered answer
 * (TENDER_NOT_AWARDABLE otherwise): one transaction, the tender row locked FOR UPDATE first
 * (racing awards queue on it; the losers see it awarded: TENDER_NOT_OPEN). The load is booked
 * through the offers module's booking path at the answered amount (offer.accepted,
 * load.booked), then tender.invite_awarded, tender.awarded and tender.invite_closed for
 * every other open invite. PLAN_REQUIRED without an active plan (as accepting an offer);
 * SHIPMENT_ALREADY_ASSIGNED / SHIPMENT_CANCELLED when the load is no longer open.
 */
export async function awardTender(deps: AwardTenderDeps, user: CurrentUser, id: string, inviteId: string): Promise<Tender> {
  const { db, offers, relations } = deps;
  requireApproved(user);
  if (!user.activeSubscriptionId) throw new AppError('PLAN_REQUIRED');
  try {
    await db.transaction(async (tx) => {
      const t = await repo.tenderState(tx, id, true);
      if (!t || t.owner_id !== user.id) throw new AppError('NOT_FOUND');
      if (t.status !== 'open') throw new AppError('TENDER_NOT_OPEN');
      const inv = await repo.inviteState(tx, inviteId, true);
      if (!inv || inv.tender_id !== id) throw new AppError('NOT_FOUND');
      if ((inv.status !== 'accepted' && inv.status !== 'countered') || !inv.amount) throw new AppError('TENDER_NOT_AWARDABLE');
      if (relations && (await relations.blockedBetween(tx, user.id, inv.carrier_id))) throw new AppError('USER_BLOCKED');
      const offerId = await offers.bookForTender(tx, {
        loadId: t.load_id,
        carrierId: inv.carrier_id,
        priceSar: inv.amount,
        actorId: actingUser(user),
        tenderId: id,
      });
      await transitionInvite(tx, t, inv.id, 'award', actingUser(user), { amountSar: inv.amount }, {}, 'TENDER_NOT_AWARDABLE');
      await transitionTender(
        tx,
        id,
        'award',
        actingUser(user),
        { inviteId: inv.id, carrierId: inv.carrier_id, amountSar: inv.amount, offerId },
        { awardedInviteId: inv.id },
      );
      await closeOpenInvites(tx, t, actingUser(user), 'awarded', inv.id);
    });
  } catch (e) {
    // the partial unique indexes (one accepted offer per load, one awarded invite per tender)
    if (dbErrorCode(e) === '23505') throw new AppError('SHIPMENT_ALREADY_ASSIGNED');
    throw e;
  }
  return getTender(deps, user, id);
}
