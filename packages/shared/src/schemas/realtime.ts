import { z } from 'zod';
import { DOMAIN_EVENTS, type DomainEventType } from '../events.ts';
import { CALL_EVENTS, CALL_TYPES } from './calls.ts';

/**
 * The real-time channel (issue 21; spec §3 `mqttTopic`, §4 server-pushed updates): MQTT 3.1.1/5
 * over WebSocket at `/mqtt` on the product's own port. A client signs in with its access token
 * as the password, subscribes to its profile's `mqttTopic` (`masar/u/<userId>`) and hears one
 * message per domain event it is a party of (docs/realtime.md).
 *
 * Messages are hints, never data: the database stays the source of truth. A client re-reads
 * what a message names from the API, and after every reconnect re-reads what it shows (it may
 * have missed messages while away).
 */
export const REALTIME_PATH = '/mqtt';
/** Keepalive of the spec (§ real-time: keepalive 30 s, QoS 0). */
export const REALTIME_KEEPALIVE_SECONDS = 30;

/** The profile topic of a user (spec §3 `mqttTopic`). */
export const userTopic = (userId: string) => `masar/u/${userId}`;
/**
 * The client id a connection must take: `u:<userId>:<random>` — so nobody can take over another
 * user's connection by reusing its id (an MQTT broker drops the older of two equal ids).
 */
export const realtimeClientIdPrefix = (userId: string) => `u:${userId}:`;

const eventTypes = Object.keys(DOMAIN_EVENTS) as [DomainEventType, ...DomainEventType[]];

/**
 * One message on a user's topic: a domain event the user is a party of. `aggregateType` and
 * `aggregateId` name what changed (a load, an account); `loadId` when it concerns a load. JSON.
 */
export const realtimeMessageSchema = z.object({
  v: z.literal(1),
  kind: z.literal('event'),
  id: z.string(),
  type: z.enum(eventTypes),
  aggregateType: z.string(),
  aggregateId: z.string(),
  loadId: z.string().nullable(),
  /** ISO time the event was published. */
  at: z.string(),
});
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;

/**
 * A call's state change on a party's profile topic (issue 21 "Calls"; spec §4), sent by the
 * realtime outbox handler beside the event hint: `event` is the spec's name (meetingCreated,
 * joinRequestAccept, meetingEndedByHost, meetingEndedDueToNoUserPublishing, memberLeave).
 * Like a hint it names no one: the callee reads the caller's company from GET /meetings/v1/meeting/:id.
 * `deviceId` on joinRequestAccept is the tab that answered (the callee's other tabs stop ringing).
 */
export const callMessageSchema = z.object({
  v: z.literal(1),
  kind: z.literal('call'),
  event: z.enum(CALL_EVENTS),
  meetingId: z.string(),
  conversationId: z.string(),
  loadId: z.string(),
  type: z.enum(CALL_TYPES),
  /** The caller's account. */
  callerId: z.string(),
  deviceId: z.string().nullable(),
  at: z.string(),
});
export type CallMessage = z.infer<typeof callMessageSchema>;

/**
 * A WebRTC signalling message relayed by POST /meetings/v1/signal to the other party's profile
 * topic (issue 21): the SDP offer or answer, or an ICE candidate, JSON-encoded by the browser.
 * Never stored; `from` is the sending account, set by the server.
 */
export const callSignalMessageSchema = z.object({
  v: z.literal(1),
  kind: z.literal('call-signal'),
  meetingId: z.string(),
  from: z.string(),
  signal: z.enum(['offer', 'answer', 'candidate']),
  payload: z.string(),
  at: z.string(),
});
export type CallSignalMessage = z.infer<typeof callSignalMessageSchema>;

/** Anything the server publishes on a profile topic. */
export type ProfileTopicMessage = RealtimeMessage | CallMessage | CallSignalMessage;

/*
 * Typing in a chat conversation (issue 21 "topic ACL", chat "typing"; docs/realtime.md,
 * docs/chat.md). The only topic a client may publish on. The two parties of a conversation (a
 * team member acts for its owner) follow it and signal on it; the broker checks every signal
 * (party, blocks, the other side's chat setting, the member's role), drops anything but
 * `{ "typing": true | false }`, and passes on a message it builds itself, stamped with the
 * author's side and account from the authenticated connection. QoS 0, never retained or stored.
 */

/** A conversation id as the API spells it (lower-case UUID): one spelling, one topic. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The typing topic of a conversation: `masar/c/<conversationId>/typing`. */
export const conversationTypingTopic = (conversationId: string) => `masar/c/${conversationId}/typing`;

/** The conversation id of a typing topic, or null when `topic` is not one (no wildcards). */
export function typingTopicConversation(topic: string): string | null {
  const m = /^masar\/c\/([^/]+)\/typing$/.exec(topic);
  return m && UUID.test(m[1]) ? m[1] : null;
}

/** Largest typing signal a client may publish, in bytes (`{"typing":false}` is 16). */
export const TYPING_SIGNAL_MAX_BYTES = 256;

/**
 * What a client publishes on a typing topic: `{ "typing": true }` while typing, `{ "typing": false }`
 * when it stops (sent, left the field). Other keys are ignored — the broker never passes a
 * client's bytes on, so a client cannot claim to be someone else.
 */
export const typingSignalSchema = z.object({ typing: z.boolean() });
export type TypingSignal = z.infer<typeof typingSignalSchema>;

/** What the parties hear on a typing topic: built by the broker, the author stamped from the connection. */
export const typingMessageSchema = z.object({
  v: z.literal(1),
  kind: z.literal('typing'),
  conversationId: z.string(),
  /** The side that is typing, and its account (a team member types for its owner). */
  side: z.enum(['shipper', 'carrier']),
  userId: z.string(),
  typing: z.boolean(),
  /** ISO time the broker passed it on. */
  at: z.string(),
});
export type TypingMessage = z.infer<typeof typingMessageSchema>;

/*
 * Presence in a chat conversation (issue 21 "only the server publishes, except typing and
 * presence"; docs/realtime.md "Presence", docs/chat.md). The two parties (a team member for its
 * owner) follow `masar/c/<conversationId>/presence`, not while a block stands; nobody publishes
 * on it but the broker, which produces presence from the connections it holds: on a follow it
 * answers with the other side's state, then tells when that side comes online (its first
 * connection, any of its users) or goes offline (its last one; with the stored last-seen time).
 */

/** The presence topic of a conversation: `masar/c/<conversationId>/presence`. */
export const presenceTopic = (conversationId: string) => `masar/c/${conversationId}/presence`;

/** The conversation id of a presence topic, or null when `topic` is not one (no wildcards). */
export function presenceTopicConversation(topic: string): string | null {
  const m = /^masar\/c\/([^/]+)\/presence$/.exec(topic);
  return m && UUID.test(m[1]) ? m[1] : null;
}

/** What a party hears on a presence topic: the other side's state, built by the broker. */
export const presenceMessageSchema = z.object({
  v: z.literal(1),
  kind: z.literal('presence'),
  conversationId: z.string(),
  /** The side it is about (the other side of the follower), and its account. */
  side: z.enum(['shipper', 'carrier']),
  userId: z.string(),
  /** Any of the account's users (owner or team member) has a live connection. */
  online: z.boolean(),
  /** ISO time it was last seen connected (going offline, or at most a minute before); null: never seen. */
  lastSeenAt: z.string().nullable(),
  /** ISO time the broker sent it. */
  at: z.string(),
});
export type PresenceMessage = z.infer<typeof presenceMessageSchema>;
