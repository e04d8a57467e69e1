import { z } from 'zod';
import { DOMAIN_EVENTS, type DomainEventType } from '../events.ts';

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
