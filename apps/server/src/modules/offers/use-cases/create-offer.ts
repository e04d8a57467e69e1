import type { Offer } from '@masar/shared';
import { requireApproved } from '../../../lib/access.ts';
import { AppError, dbErrorCode } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import type { OffersDeps } from '../deps.ts';
import { assertOpen, mustGet, notBlocked, offerEvent } from '../offers.shared.ts';
import * as repo from '../offers.repository.ts';

export type CreateOfferDeps = Pick<OffersDeps, 'db' | 'loads' | 'relations'>;

/**
 * A carrier (or broker) bids `priceSar` on a posted load (offer.created). NOT_FOUND when the
 * load is not visible to it (off the board, or a vendor shipment not for it); OWN_LOAD_BID;
 * USER_BLOCKED; SHIPMENT_CANCELLED / SHIPMENT_ALREADY_ASSIGNED / BIDDING_CLOSED when the load is
 * not open; DUPLICATE_OFFER when it already has an open offer on it.
 */
export async function createOffer(deps: CreateOfferDeps, user: CurrentUser, body: { loadId: string; priceSar: string }): Promise<Offer> {
  const { db, loads } = deps;
  requireApproved(user);
  let id: string;
  try {
    // the id is made inside the transaction and returned by it: a retry of a request that died
    // after this commit replays the result (Idempotency-Key journal) and reads the same offer back
    id = await db.transaction(async (tx) => {
      const id = newId();
      const load = await loads.stateForOffer(tx, body.loadId, 'share');
      if (!load) throw new AppError('NOT_FOUND');
      if (load.shipper_id === user.id) throw new AppError('OWN_LOAD_BID');
      await notBlocked(deps, tx, user.id, load.shipper_id);
      // A load off the board (unposted, booked, cancelled, deleted) is invisible to a carrier
      // that is not its booked carrier and never bid on it: 404, as GET /loads/:id answers,
      // so a bid does not confirm that the load exists.
      const onBoard = !load.deleted && (load.status === 'posted' || load.expired);
      if (!onBoard && load.carrier_id !== user.id && !(await repo.hasOfferOn(tx, load.id, user.id))) throw new AppError('NOT_FOUND');
      // a vendor shipment is invisible to anyone but its chosen vendors (issue 7)
      if (!(await loads.mayBid(tx, load.id, user.id))) throw new AppError('NOT_FOUND');
      assertOpen(load);
      await repo.insertOffer(tx, {
        id,
        loadId: load.id,
        carrierId: user.id,
        shipperId: load.shipper_id,
        price: body.priceSar,
        originalPrice: body.priceSar,
        lastOfferBy: 'carrier',
        status: 'pending',
      });
      await repo.insertEvent(tx, { id: newId(), offerId: id, byParty: 'carrier', action: 'bid', price: body.priceSar });
      await publish(tx, offerEvent('offer.created', load.id, load.shipper_id, actingUser(user), { offerId: id, carrierId: user.id, priceSar: body.priceSar }));
      return id;
    });
  } catch (e) {
    if (dbErrorCode(e) === '23505') throw new AppError('DUPLICATE_OFFER');
    throw e;
  }
  return mustGet(db, id);
}
