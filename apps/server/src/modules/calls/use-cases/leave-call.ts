import type { Call } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../calls.repository.ts';
import { callEventData, mine, ringSecondsOf, toCall } from '../calls.shared.ts';
import type { CallsDeps } from '../deps.ts';
import { endCall, lostTransition } from '../lifecycle.ts';
import { missCall } from './expire-due-calls.ts';

export type LeaveCallDeps = Pick<CallsDeps, 'db' | 'ringSeconds' | 'chat'>;

/**
 * DELETE /meetings/v1/leave?meetingId (spec §7): leave the call. While it rings the caller
 * cancels it (missed: the callee is notified) and the callee declines it; while active either
 * side ends it (hangup). Leaving an ended call answers it as it is (a retry, the other side
 * was first). Publishes call.missed or call.ended, and leaves the call's line in the conversation
 * (missed, declined, or ended with its length; issue 48) in the same transaction.
 */
export async function leaveCall(deps: LeaveCallDeps, user: CurrentUser, meetingId: string): Promise<Call> {
  const ringSeconds = ringSecondsOf(deps);
  const row = await deps.db.transaction(async (tx) => {
    const r = await mine(tx, user, meetingId, true);
    const byCaller = r.caller_id === user.id;
    const actorId = user.actorId ?? user.id;
    if (r.status === 'ringing' && byCaller) {
      await missCall(deps, tx, r, new Date(r.created_at).getTime() + ringSeconds * 1000 <= Date.now() ? 'timeout' : 'cancelled', actorId);
    } else if (r.status === 'ringing' || r.status === 'active') {
      const by = callEventData(r).by;
      const endedBy = byCaller ? by : by === 'shipper' ? 'carrier' : 'shipper';
      // a transition that lost (the other side was first) answers the call as it is
      await endCall(deps.chat, tx, r, r.status === 'ringing' ? 'decline' : 'hangup', actorId, { endedBy }).catch((e: unknown) => {
        if (!lostTransition(e)) throw e;
      });
    }
    return (await repo.callById(tx, r.id))!;
  });
  return toCall(row, user.id, ringSeconds);
}
