import type { BayanTripView } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { mustTrip, view } from '../bayan.shared.ts';
import type { BayanDeps } from '../deps.ts';

export type GetBayanTripDeps = Pick<BayanDeps, 'db'>;

/** GET /bayan/trips/:id: a trip of which the caller is the carrier or the shipper (NOT_FOUND otherwise). */
export async function getBayanTrip(deps: GetBayanTripDeps, user: CurrentUser, id: string): Promise<BayanTripView> {
  await mustTrip(deps.db, user, id);
  return view(deps.db, id);
}
