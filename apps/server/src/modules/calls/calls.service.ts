import type { AcceptCallInput, CallSignalInput, CreateCallInput } from '@masar/shared';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { CallsDeps } from './deps.ts';
import { acceptCall } from './use-cases/accept-call.ts';
import { createCall } from './use-cases/create-call.ts';
import { expireDueCalls } from './use-cases/expire-due-calls.ts';
import { getCall } from './use-cases/get-call.ts';
import { getCurrentCall } from './use-cases/get-current-call.ts';
import { leaveCall } from './use-cases/leave-call.ts';
import { relayCallSignal } from './use-cases/relay-call-signal.ts';

export type { CallsChat, CallsDeps, CallsRealtime, CallsRelations } from './deps.ts';

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
 *
 * One use case per file in ./use-cases (errors and spec sources are documented there); what they
 * share in calls.shared.ts. This is the wiring the routes, the jobs and the container call.
 */
export function createCallsService(deps: CallsDeps) {
  return {
    create: (user: CurrentUser, input: CreateCallInput) => createCall(deps, user, input),
    accept: (user: CurrentUser, input: AcceptCallInput) => acceptCall(deps, user, input),
    leave: (user: CurrentUser, meetingId: string) => leaveCall(deps, user, meetingId),
    get: (user: CurrentUser, meetingId: string) => getCall(deps, user, meetingId),
    current: (user: CurrentUser) => getCurrentCall(deps, user),
    signal: (user: CurrentUser, input: CallSignalInput) => relayCallSignal(deps, user, input),
    expireDue: (now = new Date()) => expireDueCalls(deps, now),
  };
}
export type CallsService = ReturnType<typeof createCallsService>;
