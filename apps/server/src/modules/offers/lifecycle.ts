import { OFFER_ACTION_EVENT, offerTransition, type ErrorCode, type OfferStatus, type OfferTransitionAction } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { publish } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './offers.repository.ts';
import * as lifecycleRepo from './lifecycle.repository.ts';

/** Who does an offer action: the user (null for the system) and the side the history row names. */
export interface OfferActor {
  actorId: string | null;
  party: repo.Party;
}

/**
 * THE status change of an offer (issue 18: one lifecycle), inside the caller's transaction:
 * reads the offer FOR UPDATE (NOT_FOUND when absent), asks OFFER_TRANSITIONS (packages/shared
 * rules/lifecycle.ts) where `action` leads from its status (refused → `refuse`, OFFER_NOT_PENDING
 * by default, nothing written), writes `update offers set status = $to … where id = $id and
 * status = $from` (no row → STATUS_CHANGED), appends the offer's history row (offer_events) and
 * publishes the action's event (OFFER_ACTION_EVENT) on the offer's load with { offerId, carrierId,
 * by, …data, status: { from, to } }. A counter offer stays pending with `set.price` and the turn.
 * Returns the new status.
 */
export async function transitionOffer(
  tx: DbOrTx,
  offerId: string,
  action: OfferTransitionAction,
  by: OfferActor,
  data: Record<string, unknown> = {},
  set: lifecycleRepo.OfferTransitionSet = {},
  refuse: ErrorCode = 'OFFER_NOT_PENDING',
): Promise<OfferStatus> {
  const o = await repo.offerState(tx, offerId, true);
  if (!o) throw new AppError('NOT_FOUND');
  const from = o.status;
  const to = offerTransition(from, action);
  if (!to) throw new AppError(refuse);
  if (!(await lifecycleRepo.transitionOfferRow(tx, offerId, from, to, set))) throw new AppError('STATUS_CHANGED');
  const price = action === 'counter' ? (set.price ?? null) : action === 'accept' ? o.price : null;
  await repo.insertEvent(tx, { id: newId(), offerId, byParty: by.party, action, price });
  await publish(tx, {
    type: OFFER_ACTION_EVENT[action],
    aggregateType: 'load',
    aggregateId: o.load_id,
    actorId: by.actorId,
    data: { shipperId: o.shipper_id, offerId, carrierId: o.carrier_id, by: by.party, ...data, status: { from, to } },
  });
  return to;
}

/** Close the pending offers of a load (all but `exceptId`: the accepted one) through transitionOffer, by the shipper's side. Returns how many. */
export async function closePendingOfLoad(tx: DbOrTx, loadId: string, actorId: string | null, exceptId?: string): Promise<number> {
  const ids = await lifecycleRepo.offersOfLoadIn(tx, loadId, 'pending', exceptId);
  for (const id of ids) await transitionOffer(tx, id, 'close', { actorId, party: 'shipper' });
  return ids.length;
}

/** Withdraw `carrierId`'s own pending offer on a load (Book Now supersedes it), through transitionOffer. Returns how many (0 or 1: offers_one_open). */
export async function withdrawPendingOfCarrier(tx: DbOrTx, loadId: string, carrierId: string, reason: string): Promise<number> {
  const ids = await lifecycleRepo.pendingOfCarrierOnLoad(tx, loadId, carrierId);
  for (const id of ids) await transitionOffer(tx, id, 'withdraw', { actorId: carrierId, party: 'carrier' }, { reason });
  return ids.length;
}

/** The accepted offer of a booked shipment that was cancelled becomes `cancelled`. Returns how many (0 or 1). */
export async function cancelAcceptedOfLoad(tx: DbOrTx, loadId: string, actorId: string | null): Promise<number> {
  const ids = await lifecycleRepo.offersOfLoadIn(tx, loadId, 'accepted');
  for (const id of ids) await transitionOffer(tx, id, 'cancel', { actorId, party: 'shipper' });
  return ids.length;
}

/** Close the pending offers between `blockerId` and `otherId` (issue 8), each by the blocker's side. Returns how many. */
export async function closePendingBetweenUsers(tx: DbOrTx, blockerId: string, otherId: string): Promise<number> {
  const rows = await lifecycleRepo.pendingBetween(tx, blockerId, otherId);
  for (const r of rows)
    await transitionOffer(tx, r.id, 'close', { actorId: blockerId, party: r.shipper_id === blockerId ? 'shipper' : 'carrier' }, { reason: 'blocked' });
  return rows.length;
}
