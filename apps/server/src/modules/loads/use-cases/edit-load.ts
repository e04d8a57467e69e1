import { z } from 'zod';
import { EDITABLE_LOAD_STATUSES, SHIPMENT_TYPE, type Load, type StopInput, type updateLoadBody } from '@masar/shared';
import { requireApproved } from '../../../lib/access.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import * as authoring from '../authoring.repository.ts';
import { bookNowColumns, checkEquipment, checkWindow, derive, loadColumns, ownLoad, termColumns } from '../authoring.shared.ts';
import { loadEvent } from '../lifecycle.ts';
import * as repo from '../loads.repository.ts';
import type { AuthoringDeps } from '../ports.ts';

export type EditLoadDeps = Pick<AuthoringDeps, 'db' | 'config' | 'routing' | 'offers' | 'get'>;

/**
 * Edit a posted or unposted load. stops/cargo replace the whole list. Changing the stop
 * cities (origin, destination or a stop in between) or the equipment deletes every offer
 * on the load (spec §4). Distance, rate per km and expiry are recomputed. One transaction.
 */
export async function editLoad(
  deps: EditLoadDeps,
  user: CurrentUser,
  id: string,
  body: z.output<typeof updateLoadBody>,
): Promise<{ load: Load; offersDeleted: boolean }> {
  requireApproved(user);
  let offersDeleted = false;
  await deps.db.transaction(async (tx) => {
    const s = await ownLoad(tx, user, id);
    if (!(EDITABLE_LOAD_STATUSES as readonly string[]).includes(s.status)) throw new AppError('LOAD_NOT_EDITABLE');
    const current = await authoring.rawLoad(tx, id);
    const existing = await authoring.stopsAndCargo(tx, id);
    if (body.equipmentType !== undefined) await checkEquipment(tx, body.equipmentType);
    const stops: StopInput[] =
      body.stops ??
      existing.stops.map((x) => ({
        stopType: x.stopType as 1 | 2,
        cityId: x.cityId,
        districtId: x.districtId ?? undefined,
        address: x.address ?? undefined,
        addressDetails: x.addressDetails ?? undefined,
        date: x.date.toISOString(),
      }));
    const d = await derive(deps, tx, stops, body.cargo ?? existing.cargo);
    checkWindow(body.pickupLatest !== undefined ? new Date(body.pickupLatest) : current.pickupLatestAt, d);
    const price = body.priceSar ?? current.price;
    const citiesChanged = body.stops !== undefined && body.stops.map((x) => x.cityId).join(',') !== existing.stops.map((x) => x.cityId).join(',');
    const equipmentChanged = body.equipmentType !== undefined && body.equipmentType !== s.equipment_type;
    if (citiesChanged || equipmentChanged) {
      await deps.offers.deleteAll(tx, id);
      offersDeleted = true;
    }
    if (body.stops) await authoring.replaceStops(tx, id, d.stops);
    if (body.cargo) await authoring.replaceCargo(tx, id, d.cargo);
    await authoring.updateLoadRow(tx, id, {
      ...loadColumns(deps, d, price),
      ...(body.loadType !== undefined ? { loadType: body.loadType } : {}),
      ...(body.equipmentType !== undefined ? { equipmentType: body.equipmentType } : {}),
      ...(body.comments !== undefined ? { comments: body.comments } : {}),
      ...termColumns(body),
      ...(s.shipment_type === SHIPMENT_TYPE.ownVehicle ? {} : bookNowColumns(body, { bookNow: current.bookNow, bookNowFor: current.bookNowFor })),
    });
    await publish(tx, loadEvent('load.edited', id, user.id, actingUser(user), { offersReset: offersDeleted, fields: Object.keys(body) }));
    await repo.bumpBoardLoads(tx, [id], [{ cityId: current.pickupCityId, equipment: s.equipment_type }]);
  });
  return { load: await deps.get(id, user.id), offersDeleted };
}
