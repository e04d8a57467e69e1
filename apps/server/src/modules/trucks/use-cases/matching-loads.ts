import type { MatchingLoadsResponseData } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { AppError } from '../../../lib/errors.ts';
import * as repo from '../trucks.repository.ts';
import type { TrucksDeps } from '../deps.ts';
import { DEFAULT_MATCH_RADIUS_KM } from '../trucks.shared.ts';
import { getTruck } from './get-truck.ts';

export type MatchingLoadsDeps = Pick<TrucksDeps, 'db' | 'records' | 'toLoadMatch'>;

/** Open loads matching my truck (its owner only), by deadhead then best rate per km; radius: the request's, else the truck's, else 200 km. */
export async function matchingLoads(
  deps: MatchingLoadsDeps,
  user: CurrentUser,
  truckId: string,
  radiusKm: number | undefined,
  limit: number,
): Promise<MatchingLoadsResponseData> {
  const t = await getTruck(deps, truckId, user.id);
  if (!t.isMine) throw new AppError('NOT_FOUND');
  if (t.status !== 'posted') return { items: [] };
  const rows = await repo.matchingLoads(deps.db, truckId, radiusKm ?? t.originRadiusKm ?? DEFAULT_MATCH_RADIUS_KM, limit);
  return {
    items: rows.map(deps.toLoadMatch),
  };
}
