import type { Truck } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import type { TrucksDeps } from '../deps.ts';
import { hydrated } from '../trucks.shared.ts';

export type GetTruckDeps = Pick<TrucksDeps, 'db' | 'records'>;

/**
 * A truck as `viewerId` may see it: posted ones for anyone signed in, the others only for the owner (spec §4).
 * With `withRecord` it carries its owner's fact-based record (truck details). NOT_FOUND otherwise.
 */
export async function getTruck(deps: GetTruckDeps, id: string, viewerId: string | null, via: DbOrTx = deps.db, withRecord = false): Promise<Truck> {
  const [t] = await hydrated(deps, via, [{ id }], viewerId, withRecord);
  if (!t || t.status === 'deleted') throw new AppError('NOT_FOUND');
  if (!t.isMine && t.status !== 'posted') throw new AppError('NOT_FOUND');
  return t;
}
