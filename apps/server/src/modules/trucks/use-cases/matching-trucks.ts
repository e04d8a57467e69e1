import type { CurrentUser } from '../../auth/auth.types.ts';
import { AppError } from '../../../lib/errors.ts';
import * as repo from '../trucks.repository.ts';
import type { TrucksDeps } from '../deps.ts';
import { DEFAULT_MATCH_RADIUS_KM, hydrated } from '../trucks.shared.ts';

export type MatchingTrucksDeps = Pick<TrucksDeps, 'db' | 'records'>;

/** Posted trucks matching my posted load (its owner only), by deadhead then rate per km. */
export async function matchingTrucks(deps: MatchingTrucksDeps, user: CurrentUser, loadId: string, radiusKm: number | undefined, limit: number) {
  const l = await repo.loadForMatching(deps.db, loadId);
  if (!l || l.shipper_id !== user.id) throw new AppError('NOT_FOUND');
  if (!l.open) return { items: [] };
  const rows = await repo.matchingTruckIds(deps.db, loadId, radiusKm ?? DEFAULT_MATCH_RADIUS_KM, limit);
  const trucks = await hydrated(deps, deps.db, rows, user.id);
  const rate = new Map(rows.map((r) => [r.id, r.rate_km]));
  return {
    items: trucks.map((t) => {
      const r = rate.get(t.id);
      return { ...t, deadheadKm: t.deadheadKm ?? 0, ratePerKmSar: r == null ? null : Number(r).toFixed(2) };
    }),
  };
}
