import type { TruckPage } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../trucks.repository.ts';
import type { TrucksDeps } from '../deps.ts';
import { hydrated } from '../trucks.shared.ts';

export type MyTrucksDeps = Pick<TrucksDeps, 'db' | 'records'>;

/** My truck posts of a tab (all but deleted, posted, unposted, expired), newest first, one page. */
export async function myTrucks(
  deps: MyTrucksDeps,
  user: CurrentUser,
  tab: 'all' | 'posted' | 'unposted' | 'expired',
  limit: number,
  cursor?: string,
): Promise<TruckPage> {
  const { ids, nextCursor } = await repo.myTruckIds(deps.db, user.id, tab, limit, cursor);
  return {
    items: await hydrated(
      deps,
      deps.db,
      ids.map((id) => ({ id })),
      user.id,
    ),
    nextCursor,
  };
}
