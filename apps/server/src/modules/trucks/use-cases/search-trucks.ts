import type { SearchTrucksQuery, TruckPage } from '@masar/shared';
import * as repo from '../trucks.repository.ts';
import type { TrucksDeps } from '../deps.ts';
import { hydrated } from '../trucks.shared.ts';

export type SearchTrucksDeps = Pick<TrucksDeps, 'readDb' | 'records'>;

/** One page of the truck board (GET /searchTrucks) for `viewerId` (isMine), uncached, read on the replica when there is one. */
export async function searchTrucks(deps: SearchTrucksDeps, q: SearchTrucksQuery, viewerId: string | null): Promise<TruckPage> {
  const { ids, nextCursor } = await repo.searchTruckIds(deps.readDb, q);
  return { items: await hydrated(deps, deps.readDb, ids, viewerId, true), nextCursor };
}
