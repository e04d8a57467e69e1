import { z } from 'zod';

/**
 * One-to-one audio and video calls about a load (issue 21 "Calls"; spec §3 call state, §4 call
 * events, §7 POST /meetings/v1/meeting, POST /meetings/v1/accept, DELETE /meetings/v1/leave).
 *
 * A call belongs to a chat conversation (a load × its owner × one carrier side) and is between the
 * two accounts of it (a team member acts for its owner). Media flows peer to peer over WebRTC; the
 * server keeps the call's state, relays the SDP offer/answer and ICE candidates to the other party's
 * profile topic, and hands out ICE servers (STUN, and TURN with short-lived credentials). Neither
 * side ever sees the other's phone number: the answers name the company only.
 */

/** The spec's call types (§3 `type`). */
export const CALL_TYPES = ['AudioCall', 'VideoCall'] as const;
export type CallType = (typeof CALL_TYPES)[number];
/** A call's status: ringing until answered (at most CALL_RING_SECONDS), then active, then one of the ends. */
export const CALL_STATUSES = ['ringing', 'active', 'ended', 'missed', 'declined'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
/**
 * Why a call ended: `cancelled` (the caller hung up before an answer: missed), `timeout` (nobody
 * answered within the ring time: missed), `declined` (the callee refused), `hangup` (either side
 * ended an active call).
 */
export const CALL_END_REASONS = ['cancelled', 'timeout', 'declined', 'hangup'] as const;
export type CallEndReason = (typeof CALL_END_REASONS)[number];

/** How long an unanswered call rings before it is missed, in seconds (issue 21). */
export const CALL_RING_SECONDS = 45;
/** The largest SDP or ICE payload a client may relay, in characters (an SDP offer is a few KB). */
export const CALL_SIGNAL_MAX = 16_000;

/** POST /meetings/v1/meeting: ring the other side of a conversation. */
export const createCallInput = z.object({
  conversationId: z.uuid(),
  type: z.enum(CALL_TYPES),
  /** The caller's tab (optional): the other tabs of the same user know the call is not theirs. */
  deviceId: z.string().min(1).max(100).optional(),
});
export type CreateCallInput = z.infer<typeof createCallInput>;

/** POST /meetings/v1/accept (spec §7: meetingId, deviceId). */
export const acceptCallInput = z.object({ meetingId: z.uuid(), deviceId: z.string().min(1).max(100) });
export type AcceptCallInput = z.infer<typeof acceptCallInput>;

/** DELETE /meetings/v1/leave?meetingId (spec §7); GET /meetings/v1/meeting/:meetingId. */
export const meetingIdQuery = z.object({ meetingId: z.uuid() });

/** POST /meetings/v1/signal: relay one WebRTC signalling message to the other party. */
export const callSignalInput = z.object({
  meetingId: z.uuid(),
  kind: z.enum(['offer', 'answer', 'candidate']),
  /** The SDP (offer, answer) or the ICE candidate, as the browser gives it, JSON-encoded. */
  payload: z.string().min(1).max(CALL_SIGNAL_MAX),
});
export type CallSignalInput = z.infer<typeof callSignalInput>;

/**
 * One ICE server for RTCPeerConnection (the browser's RTCIceServer shape). TURN servers carry a
 * username `<expiryUnix>:<userId>` and a credential base64(HMAC-SHA1(secret, username)) valid
 * until the expiry (coturn `use-auth-secret`).
 */
export const iceServerSchema = z.object({
  urls: z.array(z.string()),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;

/** A call as either party sees it. No phone number: the other side is its company name. */
export const callSchema = z.object({
  meetingId: z.uuid(),
  conversationId: z.uuid(),
  loadId: z.uuid(),
  /** The load's human reference. */
  referenceId: z.string(),
  type: z.enum(CALL_TYPES),
  status: z.enum(CALL_STATUSES),
  /** Spec §3 receiverDetails.isReceiver: my account is the one being called. */
  isReceiver: z.boolean(),
  /** The other side: its account and company name (spec §3 receiverDetails.callerName for the callee). */
  counterpart: z.object({ userId: z.uuid(), companyName: z.string() }),
  /** The caller's tab (when given) and the tab that answered. */
  callerDeviceId: z.string().nullable(),
  answeredDeviceId: z.string().nullable(),
  createdAt: z.string(),
  /** When it was answered (spec §3 startedAt). */
  answeredAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  endReason: z.enum(CALL_END_REASONS).nullable(),
  /** When an unanswered call stops ringing (ISO). */
  ringsUntil: z.string(),
});
export type Call = z.infer<typeof callSchema>;

/** A call with the ICE servers to connect it (create and accept answers). */
export const callWithIceSchema = callSchema.extend({ iceServers: z.array(iceServerSchema) });
export type CallWithIce = z.infer<typeof callWithIceSchema>;

/** GET /meetings/v1/current: my ringing or active call, if any. */
export const currentCallSchema = z.object({ call: callWithIceSchema.nullable() });
export type CurrentCall = z.infer<typeof currentCallSchema>;

/** The spec §4 call events, as the client hears them (docs/calls.md). */
export const CALL_EVENTS = ['meetingCreated', 'joinRequestAccept', 'meetingEndedByHost', 'meetingEndedDueToNoUserPublishing', 'memberLeave'] as const;
export type CallEvent = (typeof CALL_EVENTS)[number];

/**
 * The spec event a call state change maps to: created → meetingCreated; accepted →
 * joinRequestAccept; ended by the caller (cancel or hang-up) → meetingEndedByHost; ended by the
 * callee (decline or hang-up) → memberLeave; nobody answered in time → meetingEndedDueToNoUserPublishing.
 */
export function callEventOf(change: 'created' | 'accepted' | 'ended', reason: CallEndReason | null, byCaller: boolean): CallEvent {
  if (change === 'created') return 'meetingCreated';
  if (change === 'accepted') return 'joinRequestAccept';
  if (reason === 'timeout') return 'meetingEndedDueToNoUserPublishing';
  return byCaller ? 'meetingEndedByHost' : 'memberLeave';
}
