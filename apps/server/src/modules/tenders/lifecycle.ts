import {
  TENDER_ACTION_EVENT,
  TENDER_INVITE_ACTION_EVENT,
  tenderInviteTransition,
  tenderTransition,
  type ErrorCode,
  type TenderAction,
  type TenderInviteAction,
  type TenderInviteStatus,
  type TenderStatus,
} from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { publish } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './tenders.repository.ts';
import * as lifecycleRepo from './lifecycle.repository.ts';

/**
 * THE status change of a tender (issue 19 "Tendering"), inside the caller's transaction: reads
 * the tender FOR UPDATE (NOT_FOUND when absent), asks TENDER_TRANSITIONS (packages/shared
 * schemas/tenders.ts) where `action` leads (refused → `refuse`, TENDER_NOT_OPEN by default),
 * writes the status with a conditional update (STATUS_CHANGED when it lost a race) and publishes
 * the action's event (tender.awarded / tender.closed / tender.cancelled) on the tender's load
 * with `{tenderId, …data, status: {from, to}}`. Returns the new status.
 */
export async function transitionTender(
  tx: DbOrTx,
  tenderId: string,
  action: TenderAction,
  actorId: string | null,
  data: Record<string, unknown> = {},
  set: lifecycleRepo.TenderSet = {},
  refuse: ErrorCode = 'TENDER_NOT_OPEN',
): Promise<TenderStatus> {
  const t = await repo.tenderState(tx, tenderId, true);
  if (!t) throw new AppError('NOT_FOUND');
  const from = t.status;
  const to = tenderTransition(from, action);
  if (!to) throw new AppError(refuse);
  if (!(await lifecycleRepo.transitionTenderRow(tx, tenderId, from, to, { ...set, closed: to !== 'open' }))) throw new AppError('STATUS_CHANGED');
  await publish(tx, {
    type: TENDER_ACTION_EVENT[action],
    aggregateType: 'load',
    aggregateId: t.load_id,
    actorId,
    data: { tenderId, ...data, status: { from, to } },
  });
  return to;
}

/**
 * THE status change of a tender invite, as transitionTender: reads the invite FOR UPDATE, asks
 * TENDER_INVITE_TRANSITIONS (refused → `refuse`), conditional update (STATUS_CHANGED), then the
 * action's event (TENDER_INVITE_ACTION_EVENT: tender.invited, tender.answered,
 * tender.invite_expired, tender.invite_awarded, tender.invite_closed) on the tender's load with
 * `{tenderId, inviteId, carrierId, …data, status: {from, to}}`. Returns the new status.
 */
export async function transitionInvite(
  tx: DbOrTx,
  tender: { id: string; load_id: string },
  inviteId: string,
  action: TenderInviteAction,
  actorId: string | null,
  data: Record<string, unknown> = {},
  set: lifecycleRepo.InviteSet = {},
  refuse: ErrorCode = 'TENDER_ALREADY_ANSWERED',
): Promise<TenderInviteStatus> {
  const i = await repo.inviteState(tx, inviteId, true);
  if (!i || i.tender_id !== tender.id) throw new AppError('NOT_FOUND');
  const from = i.status;
  const to = tenderInviteTransition(from, action);
  if (!to) throw new AppError(refuse);
  if (!(await lifecycleRepo.transitionInviteRow(tx, inviteId, from, to, set))) throw new AppError('STATUS_CHANGED');
  await publish(tx, {
    type: TENDER_INVITE_ACTION_EVENT[action],
    aggregateType: 'load',
    aggregateId: tender.load_id,
    actorId,
    data: { tenderId: tender.id, inviteId, carrierId: i.carrier_id, ...data, status: { from, to } },
  });
  return to;
}

/** The invite statuses bidding is still open for (closed when the tender ends). */
export const OPEN_INVITE_STATUSES: TenderInviteStatus[] = ['waiting', 'invited', 'accepted', 'countered'];

/** Close every open invite of a tender but `exceptId` ("bidding closed", spec §4): tender.invite_closed each. Returns how many. */
export async function closeOpenInvites(
  tx: DbOrTx,
  tender: { id: string; load_id: string },
  actorId: string | null,
  reason: 'awarded' | 'deadline' | 'cancelled' | 'load_unavailable',
  exceptId?: string,
): Promise<number> {
  const open = (await repo.invitesIn(tx, tender.id, OPEN_INVITE_STATUSES)).filter((i) => i.id !== exceptId);
  for (const i of open) await transitionInvite(tx, tender, i.id, 'close', actorId, { reason });
  return open.length;
}

/**
 * Waterfall: invite the next waiting carrier (lowest position) for `stepMinutes`, never past the
 * deadline (tender.invited). Returns false when nobody is left.
 */
export async function inviteNext(tx: DbOrTx, tender: repo.TenderState, actorId: string | null): Promise<boolean> {
  const [next] = await repo.invitesIn(tx, tender.id, ['waiting']);
  if (!next) return false;
  const ends = new Date(Math.min(Date.now() + tender.step_minutes * 60_000, Number(tender.deadline_ms)));
  await transitionInvite(tx, tender, next.id, 'invite', actorId, { position: next.position, windowEndsAt: ends.toISOString() }, { invitedWindowEndsAt: ends });
  return true;
}
