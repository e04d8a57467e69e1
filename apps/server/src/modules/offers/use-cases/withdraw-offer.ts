import type { Offer } from '@masar/shared';
import { requireApproved } from '../../../lib/access.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import type { OffersDeps } from '../deps.ts';
import { transitionOffer } from '../lifecycle.ts';
import { mustGet } from '../offers.shared.ts';
import * as repo from '../offers.repository.ts';

export type WithdrawOfferDeps = Pick<OffersDeps, 'db' | 'loads'>;

/** The carrier takes back a pending offer. */
export async function withdrawOffer({ db, loads }: WithdrawOfferDeps, user: CurrentUser, offerId: string): Promise<Offer> {
  requireApproved(user);
  const peek = await repo.offerState(db, offerId);
  if (!peek || peek.carrier_id !== user.id) throw new AppError('NOT_FOUND');
  await db.transaction(async (tx) => {
    await loads.stateForOffer(tx, peek.load_id, 'update');
    await transitionOffer(tx, offerId, 'withdraw', { actorId: actingUser(user), party: 'carrier' });
  });
  return mustGet(db, offerId);
}
