import { z } from 'zod';
import { ACTIVE_LOAD_STATUSES, EDITABLE_LOAD_STATUSES, EXTEND_DATES_MAX_DAYS, type extendDatesBody, type Load } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import * as authoring from '../authoring.repository.ts';
import { DAY_MS, HOUR_MS, ownLoad } from '../authoring.shared.ts';
import { loadEvent } from '../lifecycle.ts';
import * as repo from '../loads.repository.ts';
import type { AuthoringDeps } from '../ports.ts';

export type ExtendDatesDeps = Pick<AuthoringDeps, 'db' | 'config' | 'get'>;

/**
 * Extend the pickup (first stop) and/or delivery (last stop) date (spec §2): each may move
 * later by at most EXTEND_DATES_MAX_DAYS (30) days beyond its current date, never earlier,
 * and into the future; the stops must stay in time order and the pickup window keeps its
 * length. Allowed while the load is editable or booked (posted, unposted, expired,
 * unassigned, assigned, pending_bayan); LOAD_NOT_EDITABLE when completed or cancelled,
 * EXTEND_DATES_RANGE when out of range. Publishes load.dates_extended { pickup, delivery }
 * with the old and new dates; a posted load's expiry follows its new pickup.
 */
export async function extendDates({ db, config, get }: ExtendDatesDeps, user: CurrentUser, id: string, body: z.output<typeof extendDatesBody>): Promise<Load> {
  await db.transaction(async (tx) => {
    const s = await ownLoad(tx, user, id);
    const allowed = [...EDITABLE_LOAD_STATUSES, ...ACTIVE_LOAD_STATUSES] as readonly string[];
    if (!allowed.includes(s.status)) throw new AppError('LOAD_NOT_EDITABLE');
    const { stops } = await authoring.stopsAndCargo(tx, id);
    const raw = await authoring.rawLoad(tx, id);
    const dates = stops.map((x) => x.date);
    const first = 0;
    const last = stops.length - 1;
    const range = (path: string) => new AppError('EXTEND_DATES_RANGE', { errors: [{ path, message: 'EXTEND_DATES_RANGE' }] });
    const move = (i: number, iso: string, path: string) => {
      const to = new Date(iso);
      const from = dates[i];
      if (to.getTime() < from.getTime() || to.getTime() > from.getTime() + EXTEND_DATES_MAX_DAYS * DAY_MS || to.getTime() <= Date.now()) throw range(path);
      dates[i] = to;
      return { from: from.toISOString(), to: to.toISOString() };
    };
    const data: Record<string, unknown> = {};
    if (body.pickupDate) data.pickup = move(first, body.pickupDate, 'pickupDate');
    if (body.deliveryDate) data.delivery = move(last, body.deliveryDate, 'deliveryDate');
    for (let i = 1; i < dates.length; i++) if (dates[i] < dates[i - 1]) throw range(body.pickupDate && i === 1 ? 'pickupDate' : 'deliveryDate');
    if (body.pickupDate) await authoring.setStopDate(tx, stops[first].id, dates[first]);
    if (body.deliveryDate) await authoring.setStopDate(tx, stops[last].id, dates[last]);
    const shift = dates[first].getTime() - stops[first].date.getTime();
    const latest = raw.pickupLatestAt ? new Date(raw.pickupLatestAt.getTime() + shift) : null;
    if (latest && latest > dates[last]) throw range('pickupDate');
    await authoring.updateLoadRow(tx, id, {
      pickupAt: dates[first],
      dropAt: dates[last],
      pickupLatestAt: latest,
      expiresAt: new Date(dates[first].getTime() + config.LOAD_EXPIRY_HOURS_AFTER_PICKUP * HOUR_MS),
    });
    await publish(tx, loadEvent('load.dates_extended', id, user.id, actingUser(user), data));
    await repo.bumpBoardLoads(tx, [id]);
  });
  return get(id, user.id);
}
