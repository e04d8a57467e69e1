import type { LoadBayan } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../bayan.repository.ts';
import type { BayanDeps } from '../deps.ts';

export type GetLoadBayanDeps = Pick<BayanDeps, 'db' | 'loads'>;

/** GET /bayan/trips?loadId=: the shipment's Bayan for its page (shipper or awarded carrier), or null. */
export async function getLoadBayan(deps: GetLoadBayanDeps, user: CurrentUser, loadId: string): Promise<LoadBayan> {
  const load = await deps.loads.trip(deps.db, loadId);
  if (!load || (load.shipper_id !== user.id && load.carrier_id !== user.id)) throw new AppError('NOT_FOUND');
  const r = await repo.tripOfLoad(deps.db, loadId);
  return { bayan: r ? { id: r.id, tripId: r.tripId, waybillNumber: r.waybillNumber, status: r.status } : null };
}
