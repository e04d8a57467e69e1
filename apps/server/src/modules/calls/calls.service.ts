import {
  CALL_RING_SECONDS,
  type AcceptCallInput,
  type Call,
  type CallSignalInput,
  type CallSignalMessage,
  type CallWithIce,
  type CreateCallInput,
  type CurrentCall,
  type ReachChannel,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { publish } from '../events/events.service.ts';
import { iceServersFor, type IceConfig } from './ice.ts';
import * as repo from './calls.repository.ts';
import { callEventData, SPEC_TYPE, TYPE_OF } from './calls.shared.ts';
import { lostTransition, transitionCall } from './lifecycle.ts';

/** The chat module's answer: a conversation's load and two sides (chat.callParties). */
export interface CallsChat {
  callParties(id: string): Promise<{
    id: string;
    loadId: string;
    referenceId: string;
    shipperId: string;
    carrierId: string;
    shipperCompany: string;
    carrierCompany: string;
  } | null>;
}
/** The relations module's answer: blocks and the `audio` / `video` contact settings (relations.reach). */
export interface CallsRelations {
  reach(channel: ReachChannel, ownerId: string, viewerId: string, counterpart: boolean): Promise<'ok' | 'blocked' | 'refused'>;
}
/** The real-time broker's publish to profile topics (null when REALTIME=false: signals go nowhere). */
export interface CallsRealtime {
  publishToUsers(userIds: Iterable<string>, message: CallSignalMessage): Promise<void>;
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/**
 * One-to-one audio and video calls about a load (issue 21 "Calls"; spec §3, §4, §7
 * /meetings/v1/*; docs/calls.md). A call belongs to a chat conversation and is between its two
 * accounts (a team member acts for its owner). Media is peer to peer (WebRTC): the server keeps
 * the state, relays the signalling to the other party's profile topic, and hands out ICE servers.
 *
 * Rules: only the two parties (NOT_FOUND for anyone else); a block either way refuses
 * (USER_BLOCKED); the callee side's `audio` or `video` contact setting applies as chat's does
 * (CALL_NOT_ALLOWED); one ringing-or-active call per conversation and per account (CALL_BUSY).
 * Every state change publishes its event in the same transaction: call.created, call.accepted,
 * call.ended (declined, hangup), call.missed (cancelled, timeout — the callee is notified). A
 * call's status changes only through transitionCall() (lifecycle.ts: the CALL_TRANSITIONS table).
 */
export function createCallsService(deps: {
  db: Db;
  chat: CallsChat;
  relations: CallsRelations;
  realtime: CallsRealtime | null;
  ice: IceConfig;
  /** Queue the ring-time check of a new call (a job that runs once the ring time is over). */
  scheduleExpiry?: (callId: string, afterSeconds: number) => Promise<void>;
  /** Seconds an unanswered call rings (CALL_RING_SECONDS). */
  ringSeconds?: number;
}) {
  const { db } = deps;
  const ringSeconds = deps.ringSeconds ?? CALL_RING_SECONDS;

  function toCall(r: repo.CallRow, accountId: string): Call {
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
  const withIce = (c: Call, user: CurrentUser): CallWithIce => ({ ...c, iceServers: iceServersFor(deps.ice, user.actorId ?? user.id) });

  /** The call if I am one of its two accounts; NOT_FOUND otherwise. */
  async function mine(user: CurrentUser, id: string, tx: DbOrTx = db, lock = false) {
    const r = await repo.callById(tx, id, lock);
    if (!r || (r.caller_id !== user.id && r.callee_id !== user.id)) throw new AppError('NOT_FOUND');
    return r;
  }

  /** End a ringing call unanswered (missed: cancelled or timeout), in `tx`; false when it no longer rang. */
  async function miss(tx: DbOrTx, r: repo.CallRow, reason: 'cancelled' | 'timeout', actorId: string | null): Promise<boolean> {
    try {
      await transitionCall(tx, r, reason === 'timeout' ? 'timeout' : 'cancel', actorId);
      return true;
    } catch (e) {
      if (lostTransition(e)) return false;
      throw e;
    }
  }

  const service = {
    /**
     * POST /meetings/v1/meeting (spec §7): ring the other side of a conversation. NOT_FOUND unless
     * I am one of its two sides; USER_BLOCKED when either blocked the other; CALL_NOT_ALLOWED when
     * the other side's `audio` (AudioCall) or `video` (VideoCall) contact setting leaves me out;
     * CALL_BUSY when the conversation already has a ringing or active call, or either account is
     * in another one (of racing calls exactly one rings). Publishes call.created.
     */
    async create(user: CurrentUser, input: CreateCallInput): Promise<CallWithIce> {
      const p = await deps.chat.callParties(input.conversationId);
      if (!p || (p.shipperId !== user.id && p.carrierId !== user.id)) throw new AppError('NOT_FOUND');
      const calleeId = p.shipperId === user.id ? p.carrierId : p.shipperId;
      const r = await deps.relations.reach(input.type === 'VideoCall' ? 'video' : 'audio', calleeId, user.id, true);
      if (r === 'blocked') throw new AppError('USER_BLOCKED');
      if (r === 'refused') throw new AppError('CALL_NOT_ALLOWED');
      // a call whose ring time is over but that the job has not reached yet must not keep a line busy
      await service.expireDue();
      const id = newId();
      const row = await db.transaction(async (tx) => {
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
      await deps.scheduleExpiry?.(id, ringSeconds + 1);
      return withIce(toCall(row, user.id), user);
    },

    /**
     * POST /meetings/v1/accept (spec §7: meetingId, deviceId): the called side answers. NOT_FOUND
     * unless my account is a side; CALL_NOT_RINGING when I am the caller or it no longer rings
     * (answered elsewhere, ended, missed). Publishes call.accepted with the answering tab.
     */
    async accept(user: CurrentUser, input: AcceptCallInput): Promise<CallWithIce> {
      await service.expireDue();
      const row = await db.transaction(async (tx) => {
        const r = await mine(user, input.meetingId, tx, true);
        if (r.callee_id !== user.id) throw new AppError('CALL_NOT_RINGING');
        const by = user.actorId ?? user.id;
        const answer = { answeredBy: by, answeredDeviceId: input.deviceId };
        await transitionCall(tx, r, 'answer', by, { deviceId: input.deviceId }, answer, 'CALL_NOT_RINGING').catch((e: unknown) => {
          throw lostTransition(e) ? new AppError('CALL_NOT_RINGING') : e;
        });
        return (await repo.callById(tx, r.id))!;
      });
      return withIce(toCall(row, user.id), user);
    },

    /**
     * DELETE /meetings/v1/leave?meetingId (spec §7): leave the call. While it rings the caller
     * cancels it (missed: the callee is notified) and the callee declines it; while active either
     * side ends it (hangup). Leaving an ended call answers it as it is (a retry, the other side
     * was first). Publishes call.missed or call.ended.
     */
    async leave(user: CurrentUser, meetingId: string): Promise<Call> {
      const row = await db.transaction(async (tx) => {
        const r = await mine(user, meetingId, tx, true);
        const byCaller = r.caller_id === user.id;
        const actorId = user.actorId ?? user.id;
        if (r.status === 'ringing' && byCaller) {
          await miss(tx, r, new Date(r.created_at).getTime() + ringSeconds * 1000 <= Date.now() ? 'timeout' : 'cancelled', actorId);
        } else if (r.status === 'ringing' || r.status === 'active') {
          const by = callEventData(r).by;
          const endedBy = byCaller ? by : by === 'shipper' ? 'carrier' : 'shipper';
          // a transition that lost (the other side was first) answers the call as it is
          await transitionCall(tx, r, r.status === 'ringing' ? 'decline' : 'hangup', actorId, { endedBy }).catch((e: unknown) => {
            if (!lostTransition(e)) throw e;
          });
        }
        return (await repo.callById(tx, r.id))!;
      });
      return toCall(row, user.id);
    },

    /** GET /meetings/v1/meeting/:meetingId: a call I am a side of (NOT_FOUND otherwise). */
    async get(user: CurrentUser, meetingId: string): Promise<Call> {
      return toCall(await mine(user, meetingId), user.id);
    },

    /** GET /meetings/v1/current: my account's ringing or active call, with ICE servers (a reloaded tab finds it). */
    async current(user: CurrentUser): Promise<CurrentCall> {
      await service.expireDue();
      const r = await repo.liveCallOf(db, user.id);
      return { call: r ? withIce(toCall(r, user.id), user) : null };
    },

    /**
     * POST /meetings/v1/signal: relay an SDP offer/answer or an ICE candidate to the other party's
     * profile topic (kind `call-signal`), never stored. NOT_FOUND unless I am a side;
     * CALL_NOT_ACTIVE once the call is over. The caller's signals go to the user who answered (the
     * callee account while it rings), the callee's to the user who called.
     */
    async signal(user: CurrentUser, input: CallSignalInput): Promise<{ relayed: boolean }> {
      const r = await mine(user, input.meetingId);
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
    },

    /**
     * Ringing calls past their ring time become missed (reason timeout; call.missed → the
     * callee's "missed call" notification). Run by the `calls.expire` job after each call's ring
     * time and every minute as a safety net, and before a call is made or answered. `now` for tests.
     */
    async expireDue(now = new Date()): Promise<number> {
      const before = new Date(now.getTime() - ringSeconds * 1000);
      let n = 0;
      for (;;) {
        const done = await db.transaction(async (tx) => {
          const ids = await repo.ringingBefore(tx, before, 50);
          let k = 0;
          for (const id of ids) if (await miss(tx, (await repo.callById(tx, id))!, 'timeout', null)) k++;
          return { found: ids.length, k };
        });
        n += done.k;
        if (done.found < 50) return n;
      }
    },
  };
  return service;
}
export type CallsService = ReturnType<typeof createCallsService>;
