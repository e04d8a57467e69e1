import { BAYAN_TRIP_LOAD_ACTION, LOAD_ACTION_EVENT, bayanTripTransition, type BayanTripAction, type BayanTripStatus, type ErrorCode } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { BayanTripRow } from './bayan.repository.ts';
import type { BayanLoads } from './ports.ts';
import * as lifecycleRepo from './lifecycle.repository.ts';

export type { TripTransitionSet } from './lifecycle.repository.ts';

/** What a trip transition writes and says: the trip's columns, the shipment's (close: its delivery) and the event's fields. */
export interface TripChange {
  set?: lifecycleRepo.TripTransitionSet;
  loadSet?: { deliveredAt?: Date };
  data?: Record<string, unknown>;
}

/**
 * THE status change of a Bayan trip (issue 51: every status by a transition table, like loads'),
 * inside the caller's transaction, on the trip's row as the caller read it (FOR UPDATE). Bayan
 * itself is called before, outside any transaction; this records its answer:
 * 1. asks BAYAN_TRIP_TRANSITIONS (packages/shared rules/bayan-lifecycle.ts) where `action` leads
 *    from the row's status: refused → `refuse` (INVALID_TRANSITION by default), nothing written;
 * 2. writes `update bayan_trips set status = $to, … where id = $id and status = $from` with
 *    `change.set`: no row → STATUS_CHANGED, nothing published;
 * 3. moves the shipment by the trip's load action (BAYAN_TRIP_LOAD_ACTION) through the loads
 *    module's transition(), which publishes its event (load.bayan_created, load.bayan_closed,
 *    load.bayan_cancelled) with `change.data`, `change.loadSet` on the load. `create` on a shipment
 *    that is not waiting in pending_bayan (Bayan answered the request itself) only publishes
 *    load.bayan_created: the shipment stays assigned.
 * Returns the new status.
 */
export async function transitionTrip(
  tx: DbOrTx,
  loads: BayanLoads,
  row: BayanTripRow,
  action: BayanTripAction,
  actorId: string | null,
  change: TripChange = {},
  refuse: ErrorCode = 'INVALID_TRANSITION',
): Promise<BayanTripStatus> {
  const from = row.status;
  const to = bayanTripTransition(from, action);
  if (!to) throw new AppError(refuse);
  if (!(await lifecycleRepo.transitionTripRow(tx, row.id, from, to, change.set ?? {}))) throw new AppError('STATUS_CHANGED');
  const loadAction = BAYAN_TRIP_LOAD_ACTION[action];
  const data = change.data ?? {};
  if (action === 'create' && (await loads.trip(tx, row.loadId, true))?.status !== 'pending_bayan')
    await loads.event(tx, LOAD_ACTION_EVENT[loadAction], row.loadId, row.shipperId, actorId, data);
  else await loads.transition(tx, row.loadId, loadAction, actorId, data, change.loadSet ?? {});
  return to;
}
