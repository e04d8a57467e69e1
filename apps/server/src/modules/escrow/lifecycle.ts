import { ESCROW_ACTION_EVENT, escrowTransition, fromHalalas, type EscrowAction, type EscrowStatus, type ErrorCode } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { publish } from '../events/events.service.ts';
import type { EscrowRow } from './escrow.repository.ts';
import * as lifecycleRepo from './lifecycle.repository.ts';

/** What an escrow event adds to the common fields (payment.released, payment.disputed, payment.settled). */
export type EscrowEventData =
  | Record<string, never>
  | { carrierSar: string }
  | { by: 'shipper' | 'carrier'; reason: string }
  | { settlement: 'full' | 'partial' | 'refund'; carrierSar: string; refundSar: string; reason: string };

/**
 * THE status change of an escrow (issue 50), inside the caller's transaction, on a row the caller
 * read FOR UPDATE: asks ESCROW_TRANSITIONS (packages/shared rules/escrow-lifecycle.ts) where
 * `action` leads (refused → `refuse`), writes it with a conditional update (STATUS_CHANGED when it
 * lost a race) and publishes the action's event (payment.funded / released / disputed / settled)
 * on the load with `{escrowId, escrowStatus: {from, to}, totalSar, …data}`. Returns the new status.
 */
export async function transitionEscrow(
  tx: DbOrTx,
  e: EscrowRow,
  action: EscrowAction,
  actorId: string | null,
  set: lifecycleRepo.EscrowSet = {},
  data: EscrowEventData = {},
  refuse: ErrorCode = 'STATUS_CHANGED',
): Promise<EscrowStatus> {
  const from = e.status;
  const to = escrowTransition(from, action);
  if (!to) throw new AppError(refuse);
  if (!(await lifecycleRepo.transitionEscrowRow(tx, e.id, from, to, set))) throw new AppError('STATUS_CHANGED');
  const type = ESCROW_ACTION_EVENT[action];
  if (type) {
    const totalSar = fromHalalas(e.priceHalalas + e.vatHalalas);
    await publish(tx, {
      type,
      aggregateType: 'load',
      aggregateId: e.loadId,
      actorId,
      data: { escrowId: e.id, escrowStatus: { from, to }, totalSar, carrierId: e.carrierId, ...data },
    });
  }
  return to;
}
