import type { AcceptCallInput, CallWithIce } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../calls.repository.ts';
import { mine, ringSecondsOf, toCall, withIce } from '../calls.shared.ts';
import type { CallsDeps } from '../deps.ts';
import { lostTransition, transitionCall } from '../lifecycle.ts';
import { expireDueCalls } from './expire-due-calls.ts';

export type AcceptCallDeps = Pick<CallsDeps, 'db' | 'ice' | 'ringSeconds' | 'chat'>;

/**
 * POST /meetings/v1/accept (spec §7: meetingId, deviceId): the called side answers. NOT_FOUND
 * unless my account is a side; CALL_NOT_RINGING when I am the caller or it no longer rings
 * (answered elsewhere, ended, missed). Publishes call.accepted with the answering tab.
 */
export async function acceptCall(deps: AcceptCallDeps, user: CurrentUser, input: AcceptCallInput): Promise<CallWithIce> {
  await expireDueCalls(deps);
  const row = await deps.db.transaction(async (tx) => {
    const r = await mine(tx, user, input.meetingId, true);
    if (r.callee_id !== user.id) throw new AppError('CALL_NOT_RINGING');
    const by = user.actorId ?? user.id;
    const answer = { answeredBy: by, answeredDeviceId: input.deviceId };
    await transitionCall(tx, r, 'answer', by, { deviceId: input.deviceId }, answer, 'CALL_NOT_RINGING').catch((e: unknown) => {
      throw lostTransition(e) ? new AppError('CALL_NOT_RINGING') : e;
    });
    return (await repo.callById(tx, r.id))!;
  });
  return withIce(deps.ice, toCall(row, user.id, ringSecondsOf(deps)), user);
}
