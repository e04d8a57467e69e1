import type { z } from 'zod';
import type { repostTruckBody, Truck } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { requireApproved } from '../../../lib/access.ts';
import { AppError } from '../../../lib/errors.ts';
import type * as repo from '../trucks.repository.ts';
import { transition } from '../lifecycle.ts';
import type { TrucksDeps } from '../deps.ts';
import { ownTruck, windowOf } from '../trucks.shared.ts';
import { getTruck } from './get-truck.ts';

export type RepostBody = z.output<typeof repostTruckBody>;

export type RepostTruckDeps = Pick<TrucksDeps, 'db' | 'records'>;

/** Put an unposted or expired truck back on the board, with a new window when given (needed once the old one ended). */
export async function repostTruck(deps: RepostTruckDeps, user: CurrentUser, id: string, b: RepostBody | undefined): Promise<Truck> {
  requireApproved(user);
  await deps.db.transaction(async (tx) => {
    const s = await ownTruck(tx, user, id);
    let set: repo.TruckEdit = { postedAt: new Date() };
    if (b?.availableFrom || b?.availableTo) {
      const from = b.availableFrom ?? s.available_from;
      set = { ...set, ...windowOf(from, b.availableTo ?? (b.availableFrom ? undefined : s.available_to)) };
    } else if (s.available_to.getTime() <= Date.now()) throw new AppError('TRUCK_REPOST_NEEDS_DATES');
    await transition(tx, id, 'repost', user.actorId ?? user.id, { repost: true }, set);
  });
  return getTruck(deps, id, user.id);
}
