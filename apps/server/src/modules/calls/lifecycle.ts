import { CALL_ACTION_EVENT, CALL_END_REASON, callTransition, type CallAction, type CallStatus, type ErrorCode } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { publish } from '../events/events.service.ts';
import * as repo from './calls.repository.ts';
import { callEventData } from './calls.shared.ts';
import type { CallsChatLine } from './deps.ts';
import * as lifecycleRepo from './lifecycle.repository.ts';

/**
 * THE status change of a call (issue 51: every status by a transition table, like loads'), inside
 * the caller's transaction, on the call's row as the caller read it (FOR UPDATE: repo.callById
 * with lock, or the ring-time job's SKIP LOCKED batch):
 * 1. asks CALL_TRANSITIONS (packages/shared rules/call-lifecycle.ts) where `action` leads from the
 *    row's status: refused → `refuse` (INVALID_TRANSITION by default), nothing written;
 * 2. writes `update calls set status = $to, … where id = $id and status = $from` (answering
 *    records who and which tab, `answer.answeredBy` / `answeredDeviceId`; ending records the
 *    action's end_reason, CALL_END_REASON): no row → STATUS_CHANGED, nothing published;
 * 3. an ended call frees both accounts' lines (call_lines);
 * 4. publishes the action's event (CALL_ACTION_EVENT: call.accepted, call.ended, call.missed) on
 *    the conversation with the call's payload (callEventData), `reason` when it ended, and `data`
 *    (call.accepted: `deviceId`; call.ended: `endedBy`).
 * Returns the new status.
 */
export async function transitionCall(
  tx: DbOrTx,
  row: repo.CallRow,
  action: CallAction,
  actorId: string | null,
  data: Record<string, unknown> = {},
  answer?: { answeredBy: string; answeredDeviceId: string },
  refuse: ErrorCode = 'INVALID_TRANSITION',
): Promise<CallStatus> {
  const from = row.status;
  const to = callTransition(from, action);
  if (!to) throw new AppError(refuse);
  const reason = action === 'answer' ? null : CALL_END_REASON[action];
  const set = reason ? { endReason: reason } : answer;
  if (!set) throw new Error('transitionCall: answering needs who answered');
  if (!(await lifecycleRepo.transitionCallRow(tx, row.id, from, to, set))) throw new AppError('STATUS_CHANGED');
  if (reason) await repo.releaseLines(tx, row.id);
  await publish(tx, {
    type: CALL_ACTION_EVENT[action],
    aggregateType: 'conversation',
    aggregateId: row.conversation_id,
    actorId,
    data: { ...callEventData(row), ...(reason ? { reason } : {}), ...data },
  });
  return to;
}

/** A transition that lost to another (the row moved on meanwhile): the callers that answered quietly before keep doing so. */
export const lostTransition = (e: unknown) => e instanceof AppError && (e.code === 'STATUS_CHANGED' || e.code === 'INVALID_TRANSITION');

/** What each ending action's line says (issue 48): a cancelled or unanswered call was missed. */
const LINE_OUTCOME = { decline: 'declined', cancel: 'missed', timeout: 'missed', hangup: 'ended' } as const;

/**
 * End a call: transitionCall() with an ending action (decline, cancel, timeout, hangup), then its
 * line in the conversation through the chat module's port (issue 48), in the same transaction —
 * the transition's conditional update lets one ending win, so a call has exactly one line, and
 * both sides re-read the thread on the call's event of that commit. An answered call's line
 * carries its length: answered_at to ended_at, the database's clock, whole seconds. Errors as
 * transitionCall's (nothing written).
 */
export async function endCall(
  chat: CallsChatLine,
  tx: DbOrTx,
  row: repo.CallRow,
  action: Exclude<CallAction, 'answer'>,
  actorId: string | null,
  data: Record<string, unknown> = {},
): Promise<CallStatus> {
  const to = await transitionCall(tx, row, action, actorId, data);
  const ended = (await repo.callById(tx, row.id))!;
  const duration =
    ended.answered_at && ended.ended_at ? Math.max(0, Math.round((new Date(ended.ended_at).getTime() - new Date(ended.answered_at).getTime()) / 1000)) : null;
  await chat.recordCallLine(tx, {
    callId: row.id,
    conversationId: row.conversation_id,
    callerId: row.caller_id,
    authorId: actorId ?? row.caller_user_id,
    calleeId: row.callee_id,
    type: row.type,
    outcome: LINE_OUTCOME[action],
    durationSeconds: LINE_OUTCOME[action] === 'ended' ? duration : null,
  });
  return to;
}
