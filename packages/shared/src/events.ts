/**
 * Domain events (DESIGN §3 "Events through an outbox"). A service publishes one inside the
 * transaction that made the change; a job delivers it at least once to idempotent handlers
 * (audit timeline now; notifications, MQTT, e-mail and webhooks later).
 */
export const DOMAIN_EVENT_TYPES = [
  'offer.created',
  'offer.countered',
  'offer.accepted',
  'offer.rejected',
  'offer.withdrawn',
  'load.posted',
  'load.unposted',
  'load.edited',
  'load.dates_extended',
  'load.booked',
  'load.assigned',
  'load.unassigned',
  'load.bayan_requested',
  'load.bayan_created',
  'load.bayan_failed',
  'load.bayan_closed',
  // issue 22: the shipper closed the Bayan (completed the shipment) without the driver's proof of
  // delivery; data { reason, action: 'bayan_closed' } — shown on the shipment timeline
  'load.delivery_override',
  'load.bayan_cancelled',
  'load.completed',
  'load.cancelled',
  'load.expired',
  'load.payment_received',
  'trip.step',
  'trip.proof_flagged',
] as const;
export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

/**
 * An event as a service publishes it. `aggregateId` is the load the event is about (offers
 * included), so per-load order can be kept; `actorId` the user who caused it (null for jobs);
 * `data` a small JSON object (ids, status, price as a decimal string — never secrets).
 */
export interface DomainEventInput {
  type: DomainEventType;
  aggregateType: 'load';
  aggregateId: string;
  actorId: string | null;
  data: Record<string, unknown>;
}

/** One entry of a load's timeline (GET /loads/:id/timeline). */
export interface LoadTimelineEntry {
  eventId: string;
  type: DomainEventType;
  actorId: string | null;
  actorCompany: string | null;
  data: Record<string, unknown>;
  at: string;
}
