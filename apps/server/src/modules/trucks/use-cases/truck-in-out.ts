import type { InOutQuery, TruckInOutResponse } from '@masar/shared';
import { areaWindowKey } from '../../../lib/memo.ts';
import * as repo from '../trucks.repository.ts';
import type { TrucksDeps } from '../deps.ts';
import { areaRatio, cappedCounts, hydrated, inOutWindow } from '../trucks.shared.ts';

export type TruckInOutDeps = Pick<TrucksDeps, 'readDb' | 'records' | 'loads' | 'areaFigures'>;

/**
 * Truck in/out (GET /truckInOutLogs; issue 19, spec §2): posted trucks arriving in (going to a
 * city of the circle or its region; not "anywhere") or leaving (origin in the circle) the area,
 * free some time in the window; one page in availability order, both directions' counts
 * (capped at COUNT_CAP) and the area's load-to-truck ratio of the last 24 h. No cache: every
 * call (and …/refresh) reads the database (the replica when there is one).
 */
export async function truckInOut(deps: TruckInOutDeps, q: InOutQuery, viewerId: string | null, fresh = false): Promise<TruckInOutResponse> {
  const a = { cityId: q.cityId, radius: q.radius, ...inOutWindow(q) };
  const [counts, page, ratio] = await Promise.all([
    deps.areaFigures(`trucks:${areaWindowKey(a)}`, () => repo.truckInOutCounts(deps.readDb, a), fresh),
    repo.truckInOutIds(deps.readDb, a, q.direction, q.limit, q.cursor),
    areaRatio(deps, q.cityId, q.radius, fresh),
  ]);
  return {
    direction: q.direction,
    from: a.from.toISOString(),
    to: a.to.toISOString(),
    counts: cappedCounts(counts),
    ratio,
    items: await hydrated(
      deps,
      deps.readDb,
      page.ids.map((id) => ({ id })),
      viewerId,
    ),
    nextCursor: page.nextCursor,
  };
}
