import { CALL_RING_SECONDS, type Call, type CallType, type CallWithIce } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { CallRow } from './calls.repository.ts';
import * as repo from './calls.repository.ts';
import type { CallsDeps } from './deps.ts';
import { iceServersFor, type IceConfig } from './ice.ts';

/** The spec's call type ↔ the stored one. */
export const TYPE_OF: Record<CallType, 'audio' | 'video'> = { AudioCall: 'audio', VideoCall: 'video' };
export const SPEC_TYPE: Record<'audio' | 'video', CallType> = { audio: 'AudioCall', video: 'VideoCall' };

/** The event payload of a call: its parties, type and the caller's side (`by`); from the row, so no other connection is needed inside a transaction. */
export function callEventData(r: CallRow) {
  return {
    callId: r.id,
    conversationId: r.conversation_id,
    loadId: r.load_id,
    referenceId: r.reference_id,
    shipperId: r.shipper_id,
    carrierId: r.carrier_id,
    callType: SPEC_TYPE[r.type],
    by: r.caller_id === r.shipper_id ? ('shipper' as const) : ('carrier' as const),
  };
}

/** Seconds an unanswered call rings: the deps' `ringSeconds` (tests) or CALL_RING_SECONDS. */
export const ringSecondsOf = (deps: Pick<CallsDeps, 'ringSeconds'>) => deps.ringSeconds ?? CALL_RING_SECONDS;

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** A call row as account `accountId` sees it (spec §7 meeting): the counterpart is the other side. */
export function toCall(r: CallRow, accountId: string, ringSeconds: number): Call {
  const isReceiver = r.callee_id === accountId;
  return {
    meetingId: r.id,
    conversationId: r.conversation_id,
    loadId: r.load_id,
    referenceId: r.reference_id,
    type: SPEC_TYPE[r.type],
    status: r.status,
    isReceiver,
    counterpart: isReceiver ? { userId: r.caller_id, companyName: r.caller_company } : { userId: r.callee_id, companyName: r.callee_company },
    callerDeviceId: r.caller_device_id,
    answeredDeviceId: r.answered_device_id,
    createdAt: iso(r.created_at)!,
    answeredAt: iso(r.answered_at),
    endedAt: iso(r.ended_at),
    endReason: r.end_reason,
    ringsUntil: new Date(new Date(r.created_at).getTime() + ringSeconds * 1000).toISOString(),
  };
}

/** A call with the ICE servers of the user (the team member when one acts). */
export const withIce = (ice: IceConfig, c: Call, user: CurrentUser): CallWithIce => ({ ...c, iceServers: iceServersFor(ice, user.actorId ?? user.id) });

/** The call if I am one of its two accounts; NOT_FOUND otherwise. */
export async function mine(tx: DbOrTx, user: CurrentUser, id: string, lock = false) {
  const r = await repo.callById(tx, id, lock);
  if (!r || (r.caller_id !== user.id && r.callee_id !== user.id)) throw new AppError('NOT_FOUND');
  return r;
}
