import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { trailerViews } from '../fleet.shared.ts';

export type ListTrailersDeps = Pick<FleetDeps, 'db'>;

/** GET /trailers — a page of the caller's trailers, newest first (state default: all but deleted). */
export async function listTrailers(deps: ListTrailersDeps, user: CurrentUser, q: { search?: string; state?: repo.State; limit: number; skip: number }) {
  const { items, total } = await repo.listTrailers(deps.db, user.id, q, q.limit, q.skip);
  return { items: await trailerViews(deps.db, items), total };
}
