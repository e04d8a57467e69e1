import type { CallType } from '@masar/shared';
import type { CallRow } from './calls.repository.ts';

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
