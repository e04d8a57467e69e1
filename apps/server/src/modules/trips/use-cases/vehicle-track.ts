import { TRAIL_MAX_HOURS, TRAIL_MAX_POINTS, type VehicleTrack } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { AppError } from '../../../lib/errors.ts';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { toPosition } from '../trips.shared.ts';

export type VehicleTrackDeps = Pick<TripsDeps, 'db' | 'now'>;

/** Latest position and the trail of the last `hours` (≤ 72 h, ≤ 2000 newest points, oldest first) of the user's vehicle. */
export async function vehicleTrack(deps: VehicleTrackDeps, user: CurrentUser, vehicleId: string, hours: number): Promise<VehicleTrack> {
  const { db } = deps;
  const v = await repo.vehicleById(db, vehicleId);
  if (!v || v.owner_id !== user.id) throw new AppError('NOT_FOUND');
  const since = new Date(deps.now().getTime() - Math.min(hours, TRAIL_MAX_HOURS) * 3_600_000);
  const [points, latest] = await Promise.all([repo.trail(db, vehicleId, since, TRAIL_MAX_POINTS), repo.latestOf(db, [vehicleId])]);
  return { vehicleId, latest: latest[0] ? toPosition(latest[0]) : null, trail: points.reverse().map(toPosition) };
}
