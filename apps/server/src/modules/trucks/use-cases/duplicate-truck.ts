import type { Truck } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { newId } from '../../../lib/ids.ts';
import * as repo from '../trucks.repository.ts';
import type { TrucksDeps } from '../deps.ts';
import { ownTruck, publishCreated } from '../trucks.shared.ts';
import { getTruck } from './get-truck.ts';

export type DuplicateTruckDeps = Pick<TrucksDeps, 'db' | 'records'>;

/** Copy a truck as a new unposted one (truck.created { duplicateOf }). */
export async function duplicateTruck(deps: DuplicateTruckDeps, user: CurrentUser, id: string): Promise<Truck> {
  const copy = newId();
  await deps.db.transaction(async (tx) => {
    await ownTruck(tx, user, id);
    const r = await repo.truckRow(tx, id);
    await repo.insertTruck(tx, {
      ...r,
      id: copy,
      referenceId: await repo.nextReference(tx),
      status: 'unposted',
      postedAt: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await publishCreated(tx, user, copy, id);
  });
  return getTruck(deps, copy, user.id);
}
