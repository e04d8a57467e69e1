import type { Trailer } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import { mustTrailer, trailerViews } from '../fleet.shared.ts';

export type GetTrailerDeps = Pick<FleetDeps, 'db'>;

/** GET /trailers/:id — a live trailer of the caller. Errors: NOT_FOUND (also another owner's). */
export async function getTrailer(deps: GetTrailerDeps, user: CurrentUser, id: string): Promise<Trailer> {
  return (await trailerViews(deps.db, [await mustTrailer(deps.db, user, id)]))[0];
}
