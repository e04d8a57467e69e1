import type { CurrentUser } from '../../auth/auth.types.ts';
import { transition } from '../lifecycle.ts';
import type { TrucksDeps } from '../deps.ts';
import { ownTruck } from '../trucks.shared.ts';

export type RemoveTruckDeps = Pick<TrucksDeps, 'db'>;

/** Delete a truck post (any state but deleted; truck.deleted). */
export async function removeTruck(deps: RemoveTruckDeps, user: CurrentUser, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await ownTruck(tx, user, id);
    await transition(tx, id, 'delete', user.actorId ?? user.id);
  });
}
