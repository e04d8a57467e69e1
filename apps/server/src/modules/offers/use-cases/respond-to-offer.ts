import type { Offer, OfferAction } from '@masar/shared';
import { requireApproved } from '../../../lib/access.ts';
import { AppError, dbErrorCode } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import type { OffersDeps } from '../deps.ts';
import { transitionOffer } from '../lifecycle.ts';
import { assertOpen, bookAccepted, closedReason, mustGet, notBlocked } from '../offers.shared.ts';
import * as repo from '../offers.repository.ts';

export type RespondToOfferDeps = Pick<OffersDeps, 'db' | 'loads' | 'relations'>;

/**
 * Answer an offer. Only its two parties may (load owner = shipper side, bidder = carrier
 * side) and only the one that did not name the current price (NOT_YOUR_TURN). Accepting
 * needs a plan (spec §6) and books the load in one transaction.
 */
export async function respondToOffer(
  deps: RespondToOfferDeps,
  user: CurrentUser,
  body: { offerId: string; action: OfferAction; priceSar?: string },
): Promise<Offer> {
  const { db, loads } = deps;
  requireApproved(user);
  const peek = await repo.offerState(db, body.offerId);
  if (!peek || (peek.carrier_id !== user.id && peek.shipper_id !== user.id)) throw new AppError('NOT_FOUND');
  const party: repo.Party = peek.shipper_id === user.id ? 'shipper' : 'carrier';
  await notBlocked(deps, db, peek.shipper_id, peek.carrier_id);
  if (body.action === 'accept' && !user.activeSubscriptionId) throw new AppError('PLAN_REQUIRED');
  try {
    await db.transaction(async (tx) => {
      // load first, offer second: answers on one load queue up on the load row (no deadlock)
      const load = await loads.stateForOffer(tx, peek.load_id, 'update');
      const o = await repo.offerState(tx, body.offerId, true);
      if (!load || !o) throw new AppError('NOT_FOUND');
      if (o.status !== 'pending') {
        const reason = closedReason(load);
        throw new AppError(reason && reason !== 'BIDDING_CLOSED' ? reason : 'OFFER_NOT_PENDING');
      }
      if (o.last_offer_by === party) throw new AppError('NOT_YOUR_TURN');
      const by = { actorId: actingUser(user), party };
      if (body.action === 'reject') {
        await transitionOffer(tx, o.id, 'reject', by);
        return;
      }
      assertOpen(load);
      if (body.action === 'counter') {
        await transitionOffer(tx, o.id, 'counter', by, { priceSar: body.priceSar! }, { price: body.priceSar!, lastOfferBy: party });
        return;
      }
      // offer.accepted, then load.booked (the loads lifecycle), then the other bids close
      await transitionOffer(tx, o.id, 'accept', by, { priceSar: o.price });
      await bookAccepted(deps, tx, { loadId: o.load_id, carrierId: o.carrier_id, priceSar: o.price, actorId: actingUser(user), offerId: o.id });
    });
  } catch (e) {
    // the partial unique index offers_one_accepted: another accept won the race
    if (dbErrorCode(e) === '23505') throw new AppError('SHIPMENT_ALREADY_ASSIGNED');
    throw e;
  }
  return mustGet(db, body.offerId);
}
