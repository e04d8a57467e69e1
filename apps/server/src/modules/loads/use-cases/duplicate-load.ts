import { SHIPMENT_TYPE, type Load } from '@masar/shared';
import { requireApproved } from '../../../lib/access.ts';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as authoring from '../authoring.repository.ts';
import * as repo from '../loads.repository.ts';
import type { AuthoringDeps } from '../ports.ts';

export type DuplicateLoadDeps = Pick<AuthoringDeps, 'db' | 'get'>;

/** Copy a load of mine as a new unposted load with a new reference (same stops and cargo). */
export async function duplicateLoad({ db, get }: DuplicateLoadDeps, user: CurrentUser, id: string): Promise<Load> {
  requireApproved(user);
  // the copy's id is made inside the transaction and returned by it (Idempotency-Key journal replay)
  const copyId = await db.transaction(async (tx) => {
    const copyId = newId();
    const s = await repo.loadState(tx, id);
    if (!s || s.shipper_id !== user.id) throw new AppError('NOT_FOUND');
    const src = await authoring.rawLoad(tx, id);
    const { stops, cargo } = await authoring.stopsAndCargo(tx, id);
    const now = new Date();
    await authoring.insertLoad(
      tx,
      {
        ...src,
        id: copyId,
        referenceId: await authoring.nextReference(tx),
        status: 'unposted',
        postedAt: null,
        carrierId: null,
        bookedPrice: null,
        bookedAt: null,
        vehicleId: null,
        driverId: null,
        trailerId: null,
        assignedAt: null,
        deliveredAt: null,
        paymentReceivedAt: null,
        // a copy is the owner's own new load, never a flagged re-post
        repostedFrom: null,
        // an own-vehicle copy goes to the marketplace (the owner may change its audience)
        shipmentType: src.shipmentType === SHIPMENT_TYPE.ownVehicle ? SHIPMENT_TYPE.marketplace : src.shipmentType,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      },
      stops.map(({ loadId: _l, ...x }) => ({ ...x, id: newId() })),
      cargo.map(({ loadId: _l, ...x }) => ({ ...x, id: newId() })),
    );
    if (src.shipmentType === SHIPMENT_TYPE.vendor) await repo.copyLoadVendors(tx, id, copyId);
    return copyId;
  });
  return get(copyId, user.id);
}
