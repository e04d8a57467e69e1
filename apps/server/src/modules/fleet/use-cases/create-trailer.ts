import { AppError } from '../../../lib/errors.ts';
import type { Trailer } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { mapUnique, trailerRow, type TrailerIn } from '../fleet.shared.ts';
import { getTrailer } from './get-trailer.ts';

export type CreateTrailerDeps = Pick<FleetDeps, 'db'>;

/** POST /trailers — add a trailer of the caller. Errors: DUPLICATE_TRAILER_NUMBER (per owner). */
export async function createTrailer(deps: CreateTrailerDeps, user: CurrentUser, b: TrailerIn): Promise<Trailer> {
  // the id is returned by the transaction: a crash-recovered retry replays it (Idempotency-Key journal)
  const row = trailerRow(user.id, b);
  const id = await mapUnique(() =>
    deps.db.transaction(async (tx) => {
      if (await repo.trailerNumberTaken(tx, user.id, row.trailerNumber)) throw new AppError('DUPLICATE_TRAILER_NUMBER');
      await repo.insertTrailers(tx, [row]);
      return row.id;
    }),
  );
  return getTrailer(deps, user, id);
}
