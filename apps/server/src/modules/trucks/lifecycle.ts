import { TRUCK_ACTION_EVENT, truckTransition, type ErrorCode, type TruckAction, type TruckStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { publish } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './trucks.repository.ts';
import * as lifecycleRepo from './lifecycle.repository.ts';

/**
 * THE status change of a truck post (issue 19; one lifecycle like loads'). Inside the caller's
 * transaction: reads the truck FOR UPDATE (NOT_FOUND when absent or deleted); a posted truck
 * whose window has ended counts as `expired` for everyone but the expiry job; asks the shared
 * table (TRUCK_TRANSITIONS) where `action` leads (refused → `refuse`); writes the status with a
 * conditional update (STATUS_CHANGED when it lost a race); publishes the action's event
 * (`truck.posted`, `truck.unposted`, `truck.expired`, `truck.deleted`) with `status: {from, to}`
 * in the same transaction; then bumps the truck board's versions of its place (the truck search
 * cache, migration 0130) as its last write. Returns the new status.
 */
export async function transition(...args: Parameters<typeof change>): Promise<TruckStatus> {
  const to = await change(...args);
  const [tx, truckId] = args;
  await repo.bumpTruckBoard(tx, [truckId]);
  return to;
}

/** transition() without the bump (the same arguments): the expiry batch bumps all its trucks' places in one statement (one lock order). */
async function change(
  tx: DbOrTx,
  truckId: string,
  action: TruckAction,
  actorId: string | null,
  data: Record<string, unknown> = {},
  set: repo.TruckEdit = {},
  refuse: ErrorCode = 'TRUCK_NOT_EDITABLE',
): Promise<TruckStatus> {
  const s = await repo.truckState(tx, truckId, true);
  if (!s || s.status === 'deleted') throw new AppError('NOT_FOUND');
  const from: TruckStatus = s.status === 'posted' && s.ended && action !== 'expire' ? 'expired' : s.status;
  const to = action === 'expire' && !s.ended ? null : truckTransition(from, action);
  if (!to) throw new AppError(refuse);
  if (!(await lifecycleRepo.transitionRow(tx, truckId, s.status, to, set))) throw new AppError('STATUS_CHANGED');
  await publish(tx, {
    type: TRUCK_ACTION_EVENT[action],
    aggregateType: 'account',
    aggregateId: s.owner_id,
    actorId,
    data: { accountId: s.owner_id, truckId, referenceId: s.reference_id, ...data, status: { from, to } },
  });
  return to;
}

/** The expiry job's batch: posted trucks whose window ended become `expired` (truck.expired each), their places bumped once. */
export async function expireBatch(tx: DbOrTx, limit: number): Promise<number> {
  const due = await lifecycleRepo.dueForExpiry(tx, limit);
  for (const id of due) await change(tx, id, 'expire', null);
  await repo.bumpTruckBoard(tx, due);
  return due.length;
}
