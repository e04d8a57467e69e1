import type { InOutQuery, LoadInOutResponse } from '@masar/shared';
import type { TrucksDeps } from '../deps.ts';
import { areaRatio, cappedCounts, inOutWindow } from '../trucks.shared.ts';

export type LoadInOutDeps = Pick<TrucksDeps, 'readDb' | 'loads' | 'areaFigures'>;

/**
 * Shipment in/out (GET /loadInOutLogs; issue 19, spec §2): open marketplace loads delivering to
 * (in: last drop in the circle, delivery in the window) or picking up in (out: first pickup in
 * the circle, pickup in the window) the area, read through the loads module (its port), with
 * both counts (capped) and the same ratio.
 */
export async function loadInOut(deps: LoadInOutDeps, q: InOutQuery, viewerId: string | null, fresh = false): Promise<LoadInOutResponse> {
  const a = { cityId: q.cityId, radius: q.radius, ...inOutWindow(q) };
  const [log, ratio] = await Promise.all([deps.loads.inOutLog(a, q.direction, q.limit, q.cursor, viewerId, fresh), areaRatio(deps, q.cityId, q.radius, fresh)]);
  return {
    direction: q.direction,
    from: a.from.toISOString(),
    to: a.to.toISOString(),
    counts: cappedCounts(log.counts),
    ratio,
    items: log.items,
    nextCursor: log.nextCursor,
  };
}
