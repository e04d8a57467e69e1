import type { Truck } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { requireApproved } from '../../../lib/access.ts';
import { newId } from '../../../lib/ids.ts';
import * as repo from '../trucks.repository.ts';
import { transition } from '../lifecycle.ts';
import type { TrucksDeps } from '../deps.ts';
import { checkRefs, publishCreated, windowOf, type CreateBody } from '../trucks.shared.ts';
import { getTruck } from './get-truck.ts';

export type CreateTruckDeps = Pick<TrucksDeps, 'db' | 'records'>;

/**
 * Post a truck, or save it unposted (`post: false`; truck.created), for an approved account.
 * Destinations are deduplicated (none when "anywhere"); pallets and deck space are kept for LTL
 * only; the vehicle's own trailer is the default trailer. Errors: those of checkRefs and windowOf.
 */
export async function createTruck(deps: CreateTruckDeps, user: CurrentUser, b: CreateBody): Promise<Truck> {
  requireApproved(user);
  const id = newId();
  await deps.db.transaction(async (tx) => {
    await checkRefs(tx, user, b);
    const vehicle = b.vehicleId ? await repo.ownVehicle(tx, user.id, b.vehicleId) : null;
    await repo.insertTruck(tx, {
      id,
      referenceId: await repo.nextReference(tx),
      ownerId: user.id,
      status: 'unposted',
      loadType: b.loadType,
      equipmentType: b.equipmentType,
      ...windowOf(b.availableFrom, b.availableTo),
      originCityId: b.originCityId,
      originRadiusKm: b.originRadiusKm ?? null,
      anywhere: b.anywhere,
      destinationCityIds: b.anywhere ? [] : [...new Set(b.destinationCityIds)],
      destinationRegionIds: b.anywhere ? [] : [...new Set(b.destinationRegionIds)],
      minRate: b.minRateSar,
      rateBasis: b.rateBasis,
      capacityKg: b.capacityKg,
      pallets: b.loadType === 'LTL' ? (b.pallets ?? null) : null,
      spaceCm: b.loadType === 'LTL' ? (b.spaceCm ?? null) : null,
      vehicleId: b.vehicleId ?? null,
      trailerId: b.trailerId ?? vehicle?.trailer_id ?? null,
      comments: b.comments ?? null,
    });
    if (b.post) await transition(tx, id, 'post', user.actorId ?? user.id, {}, { postedAt: new Date() });
    else await publishCreated(tx, user, id);
  });
  return getTruck(deps, id, user.id);
}
