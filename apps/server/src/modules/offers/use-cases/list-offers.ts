import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { OffersDeps } from '../deps.ts';
import * as repo from '../offers.repository.ts';

export type ListOffersDeps = Pick<OffersDeps, 'db' | 'loads' | 'records'>;

/**
 * Offers list: `loadId` → the offers on that load (all of them for its owner, only mine for
 * a bidder); `box=sent` → offers I made; `box=received` → offers on my loads; neither →
 * both; `turn=mine` → the open ones waiting for my answer. The offers on my loads carry the
 * bidder's fact-based record (`carrierRecord`).
 */
export async function listOffers(
  { db, loads, records }: ListOffersDeps,
  user: CurrentUser,
  q: { loadId?: string; box?: 'sent' | 'received'; turn?: 'mine'; limit: number; skip: number },
) {
  let ownerOfLoad = false;
  if (q.loadId) {
    const load = await loads.stateForOffer(db, q.loadId, 'none');
    if (!load) throw new AppError('NOT_FOUND');
    ownerOfLoad = load.shipper_id === user.id;
  }
  const page = await repo.listOffersFor(db, { me: user.id, ...q, ownerOfLoad });
  const received = page.items.filter((o) => o.shipperId === user.id);
  if (!records || !received.length) return page;
  const byCarrier = await records.carriers(
    db,
    received.map((o) => o.carrierId),
  );
  return {
    ...page,
    items: page.items.map((o) => (o.shipperId === user.id && byCarrier.has(o.carrierId) ? { ...o, carrierRecord: byCarrier.get(o.carrierId) } : o)),
  };
}
