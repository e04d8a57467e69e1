import type { Truck } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { requireApproved } from '../../../lib/access.ts';
import { publish } from '../../events/events.service.ts';
import { AppError } from '../../../lib/errors.ts';
import * as repo from '../trucks.repository.ts';
import type { TrucksDeps } from '../deps.ts';
import { checkRefs, ownTruck, windowOf, type UpdateBody } from '../trucks.shared.ts';
import { getTruck } from './get-truck.ts';

export type UpdateTruckDeps = Pick<TrucksDeps, 'db' | 'records'>;

/**
 * Edit my truck (any state but deleted), for an approved account: only the fields given change;
 * publishes truck.edited with the names of the fields changed (nothing when none is given).
 */
export async function updateTruck(deps: UpdateTruckDeps, user: CurrentUser, id: string, b: UpdateBody): Promise<Truck> {
  requireApproved(user);
  await deps.db.transaction(async (tx) => {
    const s = await ownTruck(tx, user, id);
    await checkRefs(tx, user, b);
    const { set, fields } = await editOf(tx, user, s, b);
    if (!fields.length) return;
    await repo.updateTruck(tx, id, set, s.place);
    await publish(tx, {
      type: 'truck.edited',
      aggregateType: 'account',
      aggregateId: user.id,
      actorId: user.actorId ?? user.id,
      data: { accountId: user.id, truckId: id, referenceId: s.reference_id, fields },
    });
  });
  return getTruck(deps, id, user.id);
}

/** The columns an edit sets and the names of the fields it changes (truck.edited `fields`). */
async function editOf(tx: DbOrTx, user: CurrentUser, s: repo.TruckState, b: UpdateBody): Promise<{ set: repo.TruckEdit; fields: string[] }> {
  const set: repo.TruckEdit = {};
  const fields: string[] = [];
  const put = <K extends keyof repo.TruckEdit>(k: K, v: repo.TruckEdit[K], name: string) => {
    set[k] = v;
    fields.push(name);
  };
  if (b.availableFrom !== undefined || b.availableTo !== undefined) {
    const from = b.availableFrom ?? s.available_from;
    // a new start without a new end keeps the window's length
    const to =
      b.availableTo ?? (b.availableFrom ? new Date(Date.parse(b.availableFrom) + (s.available_to.getTime() - s.available_from.getTime())) : s.available_to);
    const w = windowOf(from, to);
    put('availableFrom', w.availableFrom, 'availableFrom');
    put('availableTo', w.availableTo, 'availableTo');
  }
  if (b.loadType !== undefined) put('loadType', b.loadType, 'loadType');
  if (b.equipmentType !== undefined) put('equipmentType', b.equipmentType, 'equipmentType');
  if (b.originCityId !== undefined) put('originCityId', b.originCityId, 'originCityId');
  if (b.originRadiusKm !== undefined) put('originRadiusKm', b.originRadiusKm, 'originRadiusKm');
  if (b.anywhere !== undefined || b.destinationCityIds !== undefined || b.destinationRegionIds !== undefined) {
    const anywhere = b.anywhere ?? false;
    const cities = anywhere ? [] : [...new Set(b.destinationCityIds ?? [])];
    const regions = anywhere ? [] : [...new Set(b.destinationRegionIds ?? [])];
    if (!anywhere && cities.length + regions.length === 0)
      throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'destinationCityIds', message: 'v.truckDestinations' }] });
    put('anywhere', anywhere, 'destinations');
    set.destinationCityIds = cities;
    set.destinationRegionIds = regions;
  }
  if (b.minRateSar !== undefined) put('minRate', b.minRateSar, 'minRateSar');
  if (b.rateBasis !== undefined) put('rateBasis', b.rateBasis, 'rateBasis');
  if (b.capacityKg !== undefined) put('capacityKg', b.capacityKg, 'capacityKg');
  if (b.pallets !== undefined) put('pallets', b.pallets, 'pallets');
  if (b.spaceCm !== undefined) put('spaceCm', b.spaceCm, 'spaceCm');
  if (b.vehicleId !== undefined) {
    const v = await repo.ownVehicle(tx, user.id, b.vehicleId);
    put('vehicleId', b.vehicleId, 'vehicleId');
    if (b.trailerId === undefined) set.trailerId = v?.trailer_id ?? null;
  }
  if (b.trailerId !== undefined) put('trailerId', b.trailerId, 'trailerId');
  if (b.comments !== undefined) put('comments', b.comments, 'comments');
  return { set, fields };
}
