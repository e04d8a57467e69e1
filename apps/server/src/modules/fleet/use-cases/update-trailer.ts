import { AppError } from '../../../lib/errors.ts';
import type { Trailer } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { mapUnique, mustTrailer, type TrailerUpd } from '../fleet.shared.ts';
import { getTrailer } from './get-trailer.ts';

export type UpdateTrailerDeps = Pick<FleetDeps, 'db'>;

/** PATCH /trailers/:id — edit a trailer of the caller. Errors: NOT_FOUND, DUPLICATE_TRAILER_NUMBER (per owner). */
export async function updateTrailer(deps: UpdateTrailerDeps, user: CurrentUser, id: string, b: TrailerUpd): Promise<Trailer> {
  await mapUnique(() =>
    deps.db.transaction(async (tx) => {
      await mustTrailer(tx, user, id);
      if (b.trailerNumber && (await repo.trailerNumberTaken(tx, user.id, b.trailerNumber, id))) throw new AppError('DUPLICATE_TRAILER_NUMBER');
      await repo.updateTrailer(tx, id, b);
    }),
  );
  return getTrailer(deps, user, id);
}
