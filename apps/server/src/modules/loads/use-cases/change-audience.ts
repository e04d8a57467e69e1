import { z } from 'zod';
import { EDITABLE_LOAD_STATUSES, SHIPMENT_TYPE, type changeAudienceBody, type Load } from '@masar/shared';
import { requireApproved } from '../../../lib/access.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import * as authoring from '../authoring.repository.ts';
import { bookOwnVehicle, ownLoad, vendorAudience } from '../authoring.shared.ts';
import { loadEvent } from '../lifecycle.ts';
import * as repo from '../loads.repository.ts';
import type { AuthoringDeps } from '../ports.ts';

export type ChangeAudienceDeps = Pick<AuthoringDeps, 'db' | 'offers' | 'vendors' | 'get'>;

/**
 * Change where a posted, unposted or expired shipment goes (spec §3 carrier source):
 * marketplace (1) or the chosen vendors (2, each linked to an account, else
 * VENDOR_NOT_LINKED); narrowing to vendors closes the pending offers (bidders outside the new
 * audience can no longer book). Own vehicle (3) books it at once (lifecycle 'book':
 * unassigned, carrier = owner) and closes the pending offers. Publishes load.edited
 * { audience: { from, to } } (and load.booked for 3). LOAD_NOT_EDITABLE once booked.
 */
export async function changeAudience(deps: ChangeAudienceDeps, user: CurrentUser, id: string, body: z.output<typeof changeAudienceBody>): Promise<Load> {
  requireApproved(user);
  await deps.db.transaction(async (tx) => {
    const s = await ownLoad(tx, user, id);
    if (!(EDITABLE_LOAD_STATUSES as readonly string[]).includes(s.status)) throw new AppError('LOAD_NOT_EDITABLE');
    const to = body.shipmentType;
    if (to === SHIPMENT_TYPE.ownVehicle && s.expired) throw new AppError('INVALID_TRANSITION');
    const audience = to === SHIPMENT_TYPE.vendor ? await vendorAudience(deps, tx, user, body.vendorIds ?? []) : [];
    await repo.setLoadVendors(tx, id, audience);
    // an own-vehicle shipment is booked at once: no Book Now
    await authoring.updateLoadRow(tx, id, { shipmentType: to, ...(to === SHIPMENT_TYPE.ownVehicle ? { bookNow: false, bookNowFor: null } : {}) });
    if (to !== SHIPMENT_TYPE.marketplace) await deps.offers.closePending(tx, id, actingUser(user));
    await publish(tx, loadEvent('load.edited', id, user.id, actingUser(user), { audience: { from: s.shipment_type, to }, vendorIds: body.vendorIds ?? [] }));
    if (to === SHIPMENT_TYPE.ownVehicle) {
      const raw = await authoring.rawLoad(tx, id);
      await bookOwnVehicle(tx, user, id, raw.price, {});
    }
    await repo.bumpBoardLoads(tx, [id]);
  });
  return deps.get(id, user.id);
}
