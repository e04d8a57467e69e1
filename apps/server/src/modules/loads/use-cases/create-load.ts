import { z } from 'zod';
import { REPOST_WINDOW_DAYS, SHIPMENT_TYPE, type createLoadBody, type Load } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { requireApproved } from '../../../lib/access.ts';
import { newId } from '../../../lib/ids.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import * as authoring from '../authoring.repository.ts';
import {
  bookNowColumns,
  bookOwnVehicle,
  checkEquipment,
  checkWindow,
  DAY_MS,
  derive,
  loadColumns,
  termColumns,
  vendorAudience,
  type Derived,
  type DerivedColumns,
} from '../authoring.shared.ts';
import { loadEvent, transition } from '../lifecycle.ts';
import * as repo from '../loads.repository.ts';
import type { AuthoringDeps } from '../ports.ts';

export type CreateLoadDeps = Pick<AuthoringDeps, 'db' | 'config' | 'routing' | 'vendors' | 'get'>;

const RIYADH_OFFSET_MS = 3 * 3_600_000;
/** Midnight (Asia/Riyadh, UTC+3 all year) of the day of `t`. */
const riyadhDayStart = (t: Date) => new Date(Math.floor((t.getTime() + RIYADH_OFFSET_MS) / DAY_MS) * DAY_MS - RIYADH_OFFSET_MS);

/**
 * Re-post detection (issue 19): when the poster is the booked carrier of another shipper's load
 * on the same lane (first pickup city → last drop city), booked within REPOST_WINDOW_DAYS, whose
 * pickup days overlap the new load's (Riyadh days, windows included), the new load is marked
 * `reposted_from` that load (the operator's report) and load.reposted is published on the
 * original — its shipper is a party, and its timeline shows it. Same transaction as the post.
 */
async function flagRepost(tx: DbOrTx, user: CurrentUser, load: { id: string; referenceId: string }, d: Derived, latest: Date | null) {
  const first = riyadhDayStart(d.pickup.date);
  const last = riyadhDayStart(latest && latest > d.pickup.date ? latest : d.pickup.date);
  const original = await repo.wonLoadOnLane(tx, {
    posterId: user.id,
    pickupCityId: d.pickup.cityId,
    dropCityId: d.drop.cityId,
    dayStart: first,
    dayEnd: new Date(last.getTime() + DAY_MS),
    bookedSince: new Date(Date.now() - REPOST_WINDOW_DAYS * DAY_MS),
    exceptId: load.id,
  });
  if (!original) return;
  await authoring.updateLoadRow(tx, load.id, { repostedFrom: original.id });
  await publish(
    tx,
    loadEvent('load.reposted', original.id, original.shipper_id, actingUser(user), { repostLoadId: load.id, repostReferenceId: load.referenceId }),
  );
}

/**
 * Post (or save unposted) a load. `outer`: run inside the caller's transaction (a savepoint),
 * e.g. a CSV import chunk that commits the load together with its cursor.
 */
export async function createLoad(deps: CreateLoadDeps, user: CurrentUser, body: z.output<typeof createLoadBody>, outer?: DbOrTx): Promise<Load> {
  requireApproved(user);
  const type = body.shipmentType ?? SHIPMENT_TYPE.marketplace;
  const ownVehicle = type === SHIPMENT_TYPE.ownVehicle;
  const post = body.post !== false && !ownVehicle;
  // the id is made inside the transaction and returned by it: a retry of a request that died
  // after this commit replays the result (Idempotency-Key journal) and reads the same load back
  const id = await (outer ?? deps.db).transaction(async (tx) => {
    const id = newId();
    const referenceId = await authoring.nextReference(tx);
    await checkEquipment(tx, body.equipmentType);
    const audience = type === SHIPMENT_TYPE.vendor ? await vendorAudience(deps, tx, user, body.vendorIds ?? []) : [];
    const d = await derive(deps, tx, body.stops, body.cargo);
    checkWindow(body.pickupLatest ? new Date(body.pickupLatest) : null, d);
    const now = new Date();
    await authoring.insertLoad(
      tx,
      {
        id,
        referenceId,
        shipperId: user.id,
        // created unposted; posting is the lifecycle's 'post' (below, same transaction)
        status: 'unposted',
        loadType: body.loadType,
        equipmentType: body.equipmentType,
        shipmentType: type,
        comments: body.comments ?? null,
        postedAt: null,
        ...termColumns(body),
        ...bookNowColumns(ownVehicle ? { bookNow: false } : body, null),
        ...(loadColumns(deps, d, body.priceSar) as DerivedColumns),
      },
      d.stops,
      d.cargo,
    );
    if (audience.length) await repo.setLoadVendors(tx, id, audience);
    if (post) await transition(tx, id, 'post', actingUser(user), { priceSar: body.priceSar, shipmentType: type }, { postedAt: now });
    if (ownVehicle) await bookOwnVehicle(tx, user, id, body.priceSar, {});
    if (post) await flagRepost(tx, user, { id, referenceId }, d, body.pickupLatest ? new Date(body.pickupLatest) : null);
    // a post shows at once on the pages of its place (issue 24). Inside a caller's transaction
    // (a CSV import chunk) the bump would not be its last statement: those posts show within
    // SEARCH_CACHE_TTL_MS instead (docs/load-board.md)
    if (post && !outer) await repo.bumpBoardLoads(tx, [id]);
    return id;
  });
  return deps.get(id, user.id, outer);
}
