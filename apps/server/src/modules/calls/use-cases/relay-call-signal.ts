import type { CallSignalInput } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { mine } from '../calls.shared.ts';
import type { CallsDeps } from '../deps.ts';

export type RelayCallSignalDeps = Pick<CallsDeps, 'db' | 'realtime'>;

/**
 * POST /meetings/v1/signal: relay an SDP offer/answer or an ICE candidate to the other party's
 * profile topic (kind `call-signal`), never stored. NOT_FOUND unless I am a side;
 * CALL_NOT_ACTIVE once the call is over. The caller's signals go to the user who answered (the
 * callee account while it rings), the callee's to the user who called.
 */
export async function relayCallSignal(deps: RelayCallSignalDeps, user: CurrentUser, input: CallSignalInput): Promise<{ relayed: boolean }> {
  const r = await mine(deps.db, user, input.meetingId);
  if (r.status !== 'ringing' && r.status !== 'active') throw new AppError('CALL_NOT_ACTIVE');
  const to = r.caller_id === user.id ? (r.answered_by ?? r.callee_id) : r.caller_user_id;
  if (!deps.realtime) return { relayed: false };
  await deps.realtime.publishToUsers([to], {
    v: 1,
    kind: 'call-signal',
    meetingId: r.id,
    from: user.id,
    signal: input.kind,
    payload: input.payload,
    at: new Date().toISOString(),
  });
  return { relayed: true };
}
