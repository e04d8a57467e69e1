/**
 * The call state machine (issue 21 "Calls"; issue 51: every status by a transition table). Every
 * allowed status change of a call is listed once here; the server applies it in ONE place:
 * apps/server/src/modules/calls/lifecycle.ts `transitionCall()` checks this table, writes with a
 * conditional update (`… where id = $id and status = $from`) and publishes the action's event in
 * the same transaction. A new call is inserted `ringing` (POST /meetings/v1/meeting).
 *
 * Call statuses: `ringing` (the callee's side rings, at most CALL_RING_SECONDS), `active`
 * (answered; media flows), `ended` (hung up while active), `missed` (the caller hung up while it
 * rang, or nobody answered in time), `declined` (the callee refused it while it rang).
 */
import type { CallStatus } from '../schemas/calls.ts';
import type { Transition } from './lifecycle.ts';

/** What a side or the ring-time job does to a call. */
export const CALL_ACTIONS = ['answer', 'decline', 'cancel', 'timeout', 'hangup'] as const;
export type CallAction = (typeof CALL_ACTIONS)[number];

/** The allowed call transitions, the only place they are listed. A pair not in this table is refused (INVALID_TRANSITION unless the caller names its code). */
export const CALL_TRANSITIONS: readonly Transition<CallStatus, CallAction>[] = [
  { action: 'answer', from: ['ringing'], to: 'active', by: 'the called side (POST /meetings/v1/accept)' },
  { action: 'decline', from: ['ringing'], to: 'declined', by: 'the called side leaving while it rings' },
  { action: 'cancel', from: ['ringing'], to: 'missed', by: 'the caller leaving while it rings' },
  { action: 'timeout', from: ['ringing'], to: 'missed', by: 'the calls.expire job after the ring time (or the caller leaving after it)' },
  { action: 'hangup', from: ['active'], to: 'ended', by: 'either side leaving an active call' },
];

/** The domain event each call action publishes (events.ts; aggregate: the conversation). */
export const CALL_ACTION_EVENT = {
  answer: 'call.accepted',
  decline: 'call.ended',
  cancel: 'call.missed',
  timeout: 'call.missed',
  hangup: 'call.ended',
} as const satisfies Record<CallAction, string>;

/** The `end_reason` a call's row and its event carry after each ending action (answering ends nothing). */
export const CALL_END_REASON = {
  decline: 'declined',
  cancel: 'cancelled',
  timeout: 'timeout',
  hangup: 'hangup',
} as const satisfies Record<Exclude<CallAction, 'answer'>, string>;

/** The status `action` leads a call to from `from`, or null when CALL_TRANSITIONS does not allow it. */
export function callTransition(from: CallStatus, action: CallAction): CallStatus | null {
  return CALL_TRANSITIONS.find((x) => x.action === action && x.from.includes(from))?.to ?? null;
}
