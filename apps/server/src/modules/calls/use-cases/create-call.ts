import type { CallWithIce, CreateCallInput } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import * as repo from '../calls.repository.ts';
import { callEventData, ringSecondsOf, toCall, TYPE_OF, withIce } from '../calls.shared.ts';
import type { CallsDeps } from '../deps.ts';
import { expireDueCalls } from './expire-due-calls.ts';

export type CreateCallDeps = Pick<CallsDeps, 'db' | 'chat' | 'relations' | 'ice' | 'scheduleExpiry' | 'ringSeconds'>;

/**
 * POST /meetings/v1/meeting (spec §7): ring the other side of a conversation. NOT_FOUND unless
 * I am one of its two sides; USER_BLOCKED when either blocked the other; CALL_NOT_ALLOWED when
 * the other side's `audio` (AudioCall) or `video` (VideoCall) contact setting leaves me out;
 * CALL_BUSY when the conversation already has a ringing or active call, or either account is
 * in another one (of racing calls exactly one rings). Publishes call.created.
 */
export async function createCall(deps: CreateCallDeps, user: CurrentUser, input: CreateCallInput): Promise<CallWithIce> {
  const p = await deps.chat.callParties(input.conversationId);
  if (!p || (p.shipperId !== user.id && p.carrierId !== user.id)) throw new AppError('NOT_FOUND');
  const calleeId = p.shipperId === user.id ? p.carrierId : p.shipperId;
  const r = await deps.relations.reach(input.type === 'VideoCall' ? 'video' : 'audio', calleeId, user.id, true);
  if (r === 'blocked') throw new AppError('USER_BLOCKED');
  if (r === 'refused') throw new AppError('CALL_NOT_ALLOWED');
  // a call whose ring time is over but that the job has not reached yet must not keep a line busy
  await expireDueCalls(deps);
  const id = newId();
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await repo.insertCall(tx, {
      id,
      conversationId: p.id,
      loadId: p.loadId,
      callerId: user.id,
      callerUserId: user.actorId ?? user.id,
      calleeId,
      type: TYPE_OF[input.type],
      deviceId: input.deviceId ?? null,
    });
    if (!inserted) throw new AppError('CALL_BUSY');
    // both lines or none: a line held by another call rolls this one back
    if ((await repo.takeLines(tx, id, [user.id, calleeId])) !== 2) throw new AppError('CALL_BUSY');
    const created = (await repo.callById(tx, id))!;
    await publish(tx, {
      type: 'call.created',
      aggregateType: 'conversation',
      aggregateId: p.id,
      actorId: user.actorId ?? user.id,
      data: callEventData(created),
    });
    return created;
  });
  await deps.scheduleExpiry?.(id, ringSecondsOf(deps) + 1);
  return withIce(deps.ice, toCall(row, user.id, ringSecondsOf(deps)), user);
}
