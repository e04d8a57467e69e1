import type { Truck } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { transition } from '../lifecycle.ts';
import type { TrucksDeps } from '../deps.ts';
import { ownTruck } from '../trucks.shared.ts';
import { getTruck } from './get-truck.ts';

export type UnpostTruckDeps = Pick<TrucksDeps, 'db' | 'records'>;

/** Take a posted truck off the board. */
export async function unpostTruck(deps: UnpostTruckDeps, user: CurrentUser, id: string): Promise<Truck> {
  await deps.db.transaction(async (tx) => {
    await ownTruck(tx, user, id);
    await transition(tx, id, 'unpost', user.actorId ?? user.id);
  });
  return getTruck(deps, id, user.id);
}
