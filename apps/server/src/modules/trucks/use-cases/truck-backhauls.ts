import type { BackhaulsResponse } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { AppError } from '../../../lib/errors.ts';
import type { TrucksDeps } from '../deps.ts';
import { DAY_MS } from '../trucks.shared.ts';
import { getTruck } from './get-truck.ts';

export type TruckBackhaulsDeps = Pick<TrucksDeps, 'db' | 'records' | 'loads'>;

/** 00:00 in Riyadh (UTC+3, no daylight saving) of the day of `d`. */
const riyadhDayStart = (d: Date) => new Date(Math.floor((d.getTime() + 3 * 3_600_000) / DAY_MS) * DAY_MS - 3 * 3_600_000);

/**
 * Backhauls of my posted truck (GET /truck/:id/backhauls; issue 19): open marketplace loads
 * picked up within the radius (default 200 km) of its destination city, in the 7 days from the
 * day its availability ends (00:00 Riyadh), ranked by deadhead then rate per km (the loads module's
 * query). The truck must go to exactly one city (BACKHAUL_TRUCK_DESTINATION, 400, for
 * anywhere, regions or several cities); 404 unless mine; empty when not posted.
 */
export async function truckBackhauls(
  deps: TruckBackhaulsDeps,
  user: CurrentUser,
  truckId: string,
  q: { radius?: number; equipmentType?: string; limit: number },
): Promise<BackhaulsResponse> {
  const t = await getTruck(deps, truckId, user.id);
  if (!t.isMine) throw new AppError('NOT_FOUND');
  const [dest] = t.destinationCities;
  if (t.anywhere || t.destinationCities.length !== 1 || t.destinationRegions.length) throw new AppError('BACKHAUL_TRUCK_DESTINATION');
  const from = { cityId: dest.id, after: riyadhDayStart(new Date(t.availableTo)), radiusKm: q.radius, equipmentType: q.equipmentType, limit: q.limit };
  const names = { en: dest.nameEn, ar: dest.nameAr };
  if (t.status !== 'posted') return { ...(await deps.loads.backhaulsFrom(user.id, { ...from, limit: 1 }, names)), items: [] };
  return deps.loads.backhaulsFrom(user.id, from, names);
}
