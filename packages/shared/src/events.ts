import { z } from 'zod';
import { LOAD_STATUSES } from './constants.ts';
import { TRIP_STEPS } from './schemas/trips.ts';

/**
 * Domain events (DESIGN §3 "Events through an outbox"; issue 18 "One typed event contract").
 * A service publishes one inside the transaction that made the change; a job delivers it at
 * least once to idempotent handlers (audit timeline, webhooks, side effects such as the team
 * invitation SMS).
 *
 * `DOMAIN_EVENTS` is the contract: one zod payload schema per event type. `publish`
 * refuses a payload that does not parse; the timeline, the webhook bodies, the OpenAPI
 * `webhooks` section and docs/events.md (`npm run docs:events`) are derived from it. Payloads
 * may carry more fields than a schema names (receivers ignore unknown fields); the named ones
 * are always there with their type.
 */

const uuid = z.uuid();
/** A decimal amount of Saudi riyals as a string (e.g. "1250.00"). */
const sar = z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal string');
const isoTime = z.string().describe('ISO 8601 date-time');

/** A status change `{from, to}` (load or offer statuses). */
export const statusChangeSchema = z.object({ from: z.string(), to: z.string() });

/**
 * The parties every shipment event names (computed centrally by publish from the load row, so
 * a call site cannot forget them): the shipper; the carrier once booked (for offer events, the
 * bidding carrier); `brokerId` when a party of the shipment is a broker account (the carrier,
 * else the shipper); `vendorId` when the carrier was chosen as one of the shipper's vendors.
 */
const shipmentBase = {
  loadId: uuid,
  /** The load's human reference, e.g. "SHP-24-000123". */
  referenceId: z.string(),
  shipperId: uuid,
  carrierId: uuid.optional(),
  brokerId: uuid.optional(),
  vendorId: uuid.optional(),
  /** Absent on events that are not a status change (edits, trip steps, payment received, …). */
  status: statusChangeSchema.optional(),
};
/**
 * `status: {from, to}` is REQUIRED on the events only a lifecycle transition publishes
 * (apps/server loads/lifecycle.ts transition(), offers/lifecycle.ts transitionOffer(); the
 * actions of LOAD_ACTION_EVENT / OFFER_ACTION_EVENT). `load.bayan_created` is also published
 * without a status change (a Bayan retry while the shipment is already assigned), so it stays
 * optional there.
 */
const moved = { status: statusChangeSchema };
const shipmentObject = z.looseObject(shipmentBase);
// extend (not a spread) so a shape's field replaces the base's in the type too (e.g. `status` made required)
const shipment = <S extends z.ZodRawShape>(shape: S) => shipmentObject.extend(shape);
/** A shipment event after booking: the carrier is always named. */
const booked = <S extends z.ZodRawShape>(shape: S) => shipment({ carrierId: uuid, ...shape });
const offer = <S extends z.ZodRawShape>(shape: S) => shipment({ offerId: uuid, carrierId: uuid, ...shape });
const loadStatus = z.enum(LOAD_STATUSES);
/** Payment protection events (issue 50): the escrow, its status change, the held total (price + VAT). */
const escrowEvent = <S extends z.ZodRawShape>(shape: S) => booked({ escrowId: uuid, escrowStatus: statusChangeSchema, totalSar: sar, ...shape });

/** Events about an account (billing, verification, fleet, team): `accountId` is the owner. */
const account = <S extends z.ZodRawShape>(shape: S) => z.looseObject({ accountId: uuid, ...shape });
const subscription = <S extends z.ZodRawShape>(shape: S) =>
  account({ subscriptionId: uuid, planId: z.string(), periodEnd: isoTime.nullable().optional(), ...shape });
/** Truck post events (issue 19): the owner's account, the truck and its reference. */
const truck = <S extends z.ZodRawShape>(shape: S) => account({ truckId: uuid, referenceId: z.string(), ...shape });
/** Tender events (issue 19): about the tendered load (per-load order; its timeline), naming the tender. */
const tender = <S extends z.ZodRawShape>(shape: S) => shipment({ tenderId: uuid, ...shape });
/** Tender events about one invited carrier (`carrierId`: the invitee). */
const tenderInvite = <S extends z.ZodRawShape>(shape: S) => shipment({ tenderId: uuid, inviteId: uuid, carrierId: uuid, ...shape });
const teamMember = <S extends z.ZodRawShape>(shape: S) => account({ memberId: uuid, role: z.string(), ...shape });

/**
 * Call events (issue 21 "Calls"): the call (`callId`, the spec's meetingId), its conversation and
 * load, the two sides' accounts, the type, and `by` — the caller's side (so the other side is
 * the callee, who is notified of a missed call).
 */
const callEvent = <S extends z.ZodRawShape>(shape: S) =>
  z.looseObject({
    callId: uuid,
    conversationId: uuid,
    loadId: uuid,
    referenceId: z.string(),
    shipperId: uuid,
    carrierId: uuid,
    callType: z.enum(['AudioCall', 'VideoCall']),
    by: z.enum(['shipper', 'carrier']),
    ...shape,
  });

interface EventSpec {
  /**
   * What aggregate the event's `aggregateId` names. `contact`: a contact-form message — an
   * internal event with no account party, so it goes to no webhook (not in WEBHOOK_EVENT_TYPES).
   * `conversation`: a chat conversation about a load (issue 21); private to its two sides, so
   * not offered to webhooks either, and not on the load's timeline.
   */
  aggregate: 'load' | 'account' | 'contact' | 'conversation';
  /** When it is published (docs/events.md). */
  when: string;
  /** Who it is about (docs/events.md, and `recipientsOf` on the server). */
  parties: string;
  schema: z.ZodObject;
}

const SHIPMENT_PARTIES = 'shipper, carrier (when booked), broker/vendor where they apply; team members of either side';
const OFFER_PARTIES = 'shipper and the bidding carrier; team members of either side';
const TENDER_PARTIES = 'the tendering shipper or broker; team members';
const TENDER_INVITE_PARTIES = 'the tendering shipper or broker and the invited carrier; team members of either side';
const ACCOUNT_PARTIES = 'the account (owner); its team admins';

/** Every domain event: its aggregate, when it happens, its parties and its payload schema. */
export const DOMAIN_EVENTS = {
  'offer.created': { aggregate: 'load', when: 'A carrier or broker bids on a posted load.', parties: OFFER_PARTIES, schema: offer({ priceSar: sar }) },
  'offer.countered': {
    aggregate: 'load',
    when: 'Either side counters an offer with a new price.',
    parties: OFFER_PARTIES,
    schema: offer({ ...moved, by: z.enum(['shipper', 'carrier']), priceSar: sar }),
  },
  'offer.accepted': {
    aggregate: 'load',
    when: 'The side that did not name the last price accepts it (the load is booked in the same transaction).',
    parties: OFFER_PARTIES,
    schema: offer({ ...moved, by: z.enum(['shipper', 'carrier']), priceSar: sar }),
  },
  'offer.rejected': {
    aggregate: 'load',
    when: 'Either side rejects an offer.',
    parties: OFFER_PARTIES,
    schema: offer({ ...moved, by: z.enum(['shipper', 'carrier']) }),
  },
  'offer.withdrawn': { aggregate: 'load', when: 'The carrier withdraws its pending offer.', parties: OFFER_PARTIES, schema: offer({ ...moved }) },
  'offer.closed': {
    aggregate: 'load',
    when: 'A pending offer is closed without an answer: another offer won, the load was cancelled or unposted, narrowed to vendors, or a party blocked the other.',
    parties: OFFER_PARTIES,
    schema: offer({ ...moved, reason: z.string().optional() }),
  },
  'offer.cancelled': {
    aggregate: 'load',
    when: 'The accepted offer of a booked load is cancelled with the load.',
    parties: OFFER_PARTIES,
    schema: offer({ ...moved }),
  },
  'load.posted': {
    aggregate: 'load',
    when: 'A load is posted to the board (new, or reposted).',
    parties: SHIPMENT_PARTIES,
    schema: shipment({ ...moved, priceSar: sar.optional(), shipmentType: z.number().int().optional(), repost: z.boolean().optional() }),
  },
  'load.unposted': { aggregate: 'load', when: 'The shipper takes a posted load off the board.', parties: SHIPMENT_PARTIES, schema: shipment({ ...moved }) },
  'load.edited': {
    aggregate: 'load',
    when: "The shipper edits a load's terms or audience.",
    parties: SHIPMENT_PARTIES,
    schema: shipment({
      fields: z.array(z.string()).optional(),
      offersReset: z.boolean().optional(),
      /** An audience change (POST /loads/:id/audience): the shipment type before and after (SHIPMENT_TYPE), and the chosen vendors. */
      audience: z.object({ from: z.number().int(), to: z.number().int() }).optional(),
      vendorIds: z.array(uuid).optional(),
    }),
  },
  'load.dates_extended': {
    aggregate: 'load',
    when: "The shipper moves a load's pickup or delivery date later.",
    parties: SHIPMENT_PARTIES,
    schema: shipment({ pickup: statusChangeSchema.optional(), delivery: statusChangeSchema.optional() }),
  },
  'load.booked': {
    aggregate: 'load',
    when: 'An offer is accepted (or an own-vehicle shipment is created): the load is booked to a carrier.',
    parties: SHIPMENT_PARTIES,
    schema: booked({ ...moved, offerId: uuid.optional(), bookedPriceSar: sar.optional(), ownVehicle: z.boolean().optional() }),
  },
  'load.assigned': {
    aggregate: 'load',
    when: 'The carrier assigns a vehicle, driver and trailer.',
    parties: SHIPMENT_PARTIES,
    schema: booked({ ...moved, vehicleId: uuid, driverId: uuid, trailerId: uuid.nullable().optional(), plate: z.string().optional() }),
  },
  'load.unassigned': {
    aggregate: 'load',
    when: 'The carrier takes the vehicle and driver off the shipment.',
    parties: SHIPMENT_PARTIES,
    schema: booked({ ...moved, vehicleId: uuid.nullable().optional(), driverId: uuid.nullable().optional() }),
  },
  'load.bayan_requested': {
    aggregate: 'load',
    when: 'The Bayan waybill could not be filed at once; the shipment waits for it.',
    parties: SHIPMENT_PARTIES,
    schema: booked({ ...moved, reason: z.string().optional() }),
  },
  'load.bayan_created': {
    aggregate: 'load',
    when: 'Bayan filed the trip and its waybill.',
    parties: SHIPMENT_PARTIES,
    schema: booked({ tripId: z.string(), waybillNumber: z.string().nullable() }),
  },
  'load.bayan_failed': {
    aggregate: 'load',
    when: 'Bayan refused the trip (the carrier must correct and retry).',
    parties: SHIPMENT_PARTIES,
    schema: booked({ errors: z.unknown().optional() }),
  },
  'load.bayan_closed': {
    aggregate: 'load',
    when: 'The Bayan waybill is closed on delivery: the shipment is completed.',
    parties: SHIPMENT_PARTIES,
    schema: booked({ ...moved, tripId: z.string().nullable(), waybillNumber: z.string().nullable() }),
  },
  'load.delivery_override': {
    aggregate: 'load',
    when: "The shipper closes the Bayan (completes the shipment) without the driver's proof of delivery, giving a reason (shown on the timeline).",
    parties: SHIPMENT_PARTIES,
    schema: booked({ reason: z.string(), action: z.enum(['bayan_closed']) }),
  },
  'load.bayan_cancelled': {
    aggregate: 'load',
    when: 'The Bayan waybill is cancelled: the shipment is cancelled.',
    parties: SHIPMENT_PARTIES,
    schema: booked({ ...moved, tripId: z.string().nullable(), waybillNumber: z.string().nullable(), reason: z.string() }),
  },
  'load.completed': {
    aggregate: 'load',
    when: 'A shipment is completed, by any path (issue 48): without Bayan after the proof of drop, or when its Bayan is closed (then right after load.bayan_closed, with `via: "bayan_closed"`).',
    parties: SHIPMENT_PARTIES,
    schema: booked({
      ...moved,
      vehicleId: uuid.nullable().optional(),
      /** The action that completed it when it is not `complete` itself: `bayan_closed` (load.bayan_closed came first, in the same transaction). */
      via: z.enum(['bayan_closed']).optional(),
    }),
  },
  'load.cancelled': {
    aggregate: 'load',
    when: 'The shipper cancels a load (before or after booking).',
    parties: SHIPMENT_PARTIES,
    schema: shipment({ ...moved, previousStatus: loadStatus.optional() }),
  },
  'load.reposted': {
    aggregate: 'load',
    when: 'The carrier that won this load posts the same lane with overlapping pickup dates as a new load (a double-brokering red flag; the new load is marked for the operator).',
    parties: SHIPMENT_PARTIES,
    schema: booked({ repostLoadId: uuid, repostReferenceId: z.string() }),
  },
  'load.expired': { aggregate: 'load', when: 'A posted load passes its expiry without a booking.', parties: SHIPMENT_PARTIES, schema: shipment({ ...moved }) },
  'load.payment_received': {
    aggregate: 'load',
    when: 'The carrier records that the shipper paid.',
    parties: SHIPMENT_PARTIES,
    schema: booked({ at: isoTime, daysToPay: z.number().nullable() }),
  },
  'payment.funded': {
    aggregate: 'load',
    when: "A protected load's agreed price + VAT is funded from the shipper's wallet into escrow (issue 50).",
    parties: SHIPMENT_PARTIES,
    schema: escrowEvent({}),
  },
  'payment.released': {
    aggregate: 'load',
    when: 'The dispute window after completion ended without a dispute: the escrow is paid to the carrier.',
    parties: SHIPMENT_PARTIES,
    schema: escrowEvent({ carrierSar: sar }),
  },
  'payment.disputed': {
    aggregate: 'load',
    when: 'The shipper or the carrier opens a dispute before the release: the escrow is held for the operator.',
    parties: SHIPMENT_PARTIES,
    schema: escrowEvent({ by: z.enum(['shipper', 'carrier']), reason: z.string() }),
  },
  'payment.settled': {
    aggregate: 'load',
    when: 'The operator settles a disputed escrow (full, partial, refund), or a cancelled load refunds it.',
    parties: SHIPMENT_PARTIES,
    schema: escrowEvent({ settlement: z.enum(['full', 'partial', 'refund']), carrierSar: sar, refundSar: sar, reason: z.string() }),
  },
  'load.detention_decided': {
    aggregate: 'load',
    when: "The shipper accepts (a ledger journal: the carrier's payable) or disputes a stop's detention computed from the trip's step times (issue 50).",
    parties: SHIPMENT_PARTIES,
    schema: booked({
      stop: z.enum(['pickup', 'drop']),
      decision: z.enum(['accepted', 'disputed']),
      amountSar: sar,
      billableMinutes: z.number().int(),
      reason: z.string().nullable(),
    }),
  },
  'trip.step': {
    aggregate: 'load',
    when: 'The driver records a trip step (started … completed; the proof steps by a proof upload).',
    parties: SHIPMENT_PARTIES,
    schema: booked({
      step: z.enum(TRIP_STEPS),
      driverId: uuid,
      at: isoTime,
      /** The device's time of the tap (issue 49); `at` is when the server received it. */
      recordedAt: isoTime.nullable().optional(),
      lat: z.number().nullable().optional(),
      lng: z.number().nullable().optional(),
      proofId: uuid.optional(),
      distanceKm: z.number().nullable().optional(),
      flagged: z.boolean().optional(),
    }),
  },
  'trip.proof_flagged': {
    aggregate: 'load',
    when: 'A proof of pickup or drop was taken farther from the stop than allowed.',
    parties: SHIPMENT_PARTIES,
    schema: booked({ proofId: uuid, stop: z.string(), distanceKm: z.number().nullable(), limitKm: z.number() }),
  },

  'subscription.started': { aggregate: 'account', when: 'A plan (or trial) starts.', parties: ACCOUNT_PARTIES, schema: subscription({}) },
  'subscription.renewed': {
    aggregate: 'account',
    when: 'A renewing plan was charged for its next period.',
    parties: ACCOUNT_PARTIES,
    schema: subscription({}),
  },
  'subscription.past_due': {
    aggregate: 'account',
    when: 'A renewal charge failed; it is retried.',
    parties: ACCOUNT_PARTIES,
    schema: subscription({ attempts: z.number().int().optional() }),
  },
  'subscription.cancelled': {
    aggregate: 'account',
    when: 'The owner cancels renewal (the plan runs to its period end).',
    parties: ACCOUNT_PARTIES,
    schema: subscription({}),
  },
  'subscription.expired': {
    aggregate: 'account',
    when: 'A plan ended with its period (trial, cancelled, or unpaid).',
    parties: ACCOUNT_PARTIES,
    schema: subscription({}),
  },
  'payment.succeeded': {
    aggregate: 'account',
    when: 'A card payment was captured.',
    parties: ACCOUNT_PARTIES,
    schema: account({ paymentId: uuid, amountSar: sar, purpose: z.string().optional() }),
  },
  'payment.failed': {
    aggregate: 'account',
    when: 'A card payment failed.',
    parties: ACCOUNT_PARTIES,
    schema: account({ paymentId: uuid, amountSar: sar, reason: z.string().nullable().optional() }),
  },
  'invoice.issued': {
    aggregate: 'account',
    when: 'A tax invoice was issued for a payment.',
    parties: ACCOUNT_PARTIES,
    schema: account({ invoiceId: uuid, number: z.string(), totalSar: sar }),
  },
  'account.documents_submitted': { aggregate: 'account', when: 'The owner submits the verification documents.', parties: ACCOUNT_PARTIES, schema: account({}) },
  'account.approved': {
    aggregate: 'account',
    when: 'An operator approves the account.',
    parties: ACCOUNT_PARTIES,
    schema: account({ status: statusChangeSchema }),
  },
  'account.rejected': {
    aggregate: 'account',
    when: "An operator rejects the account's documents.",
    parties: ACCOUNT_PARTIES,
    schema: account({ reason: z.string().nullable(), status: statusChangeSchema }),
  },
  'account.suspended': {
    aggregate: 'account',
    when: 'An operator suspends the account.',
    parties: ACCOUNT_PARTIES,
    schema: account({ reason: z.string().nullable().optional(), status: statusChangeSchema }),
  },
  'account.payout_account_set': {
    aggregate: 'account',
    when: 'A carrier or broker sets its payout IBAN (issue 50); only its last four characters and bank code are in the event.',
    parties: ACCOUNT_PARTIES,
    schema: account({ ibanLast4: z.string(), bankCode: z.string() }),
  },
  'account.deleted': { aggregate: 'account', when: 'The account is deleted.', parties: ACCOUNT_PARTIES, schema: account({}) },
  'vehicle.wasl_changed': {
    aggregate: 'account',
    when: "A vehicle's WASL registration status changed.",
    parties: ACCOUNT_PARTIES,
    schema: account({ vehicleId: uuid, status: statusChangeSchema }),
  },
  'driver.wasl_changed': {
    aggregate: 'account',
    when: "A driver's WASL registration status changed.",
    parties: ACCOUNT_PARTIES,
    schema: account({ driverId: uuid, status: statusChangeSchema }),
  },
  'team.member_invited': {
    aggregate: 'account',
    when: 'The owner or an admin invites a team member by phone (the invitation SMS is sent by a handler of this event).',
    parties: ACCOUNT_PARTIES,
    schema: teamMember({ name: z.string(), invitedBy: uuid, lang: z.enum(['en', 'ar']).optional() }),
  },
  'team.member_joined': {
    aggregate: 'account',
    when: 'An invited member accepts and joins the team.',
    parties: ACCOUNT_PARTIES,
    schema: teamMember({ memberUserId: uuid }),
  },
  'team.member_removed': { aggregate: 'account', when: 'A team member is removed.', parties: ACCOUNT_PARTIES, schema: teamMember({ removedBy: uuid }) },
  'truck.created': {
    aggregate: 'account',
    when: 'A truck post is saved unposted (new, or a duplicate).',
    parties: ACCOUNT_PARTIES,
    schema: truck({ duplicateOf: uuid.optional() }),
  },
  'truck.posted': {
    aggregate: 'account',
    when: 'A truck is posted to the truck board (new, or reposted).',
    parties: ACCOUNT_PARTIES,
    schema: truck({ ...moved, repost: z.boolean().optional() }),
  },
  'truck.unposted': { aggregate: 'account', when: 'The owner takes a truck off the board.', parties: ACCOUNT_PARTIES, schema: truck({ ...moved }) },
  'truck.expired': {
    aggregate: 'account',
    when: "A posted truck's availability window ended (the expiry job).",
    parties: ACCOUNT_PARTIES,
    schema: truck({ ...moved }),
  },
  'truck.deleted': { aggregate: 'account', when: 'The owner deletes a truck post.', parties: ACCOUNT_PARTIES, schema: truck({ ...moved }) },
  'truck.edited': {
    aggregate: 'account',
    when: 'The owner edits a truck post.',
    parties: ACCOUNT_PARTIES,
    schema: truck({ fields: z.array(z.string()) }),
  },
  'tender.created': {
    aggregate: 'load',
    when: 'A shipper or broker tenders one of its loads to chosen carriers (issue 19 "Tendering").',
    parties: TENDER_PARTIES,
    schema: tender({ mode: z.enum(['broadcast', 'waterfall']), deadline: isoTime, invitedIds: z.array(uuid), targetRateSar: sar.optional() }),
  },
  'tender.invited': {
    aggregate: 'load',
    when: 'A carrier is invited to answer a tender: all at once (broadcast), or the next in line when the previous turn ended (waterfall).',
    parties: TENDER_INVITE_PARTIES,
    schema: tenderInvite({ ...moved, position: z.number().int(), windowEndsAt: isoTime.optional() }),
  },
  'tender.answered': {
    aggregate: 'load',
    when: 'An invited carrier accepts (at the target rate or the load price), counters or declines.',
    parties: TENDER_INVITE_PARTIES,
    schema: tenderInvite({ ...moved, answer: z.enum(['accept', 'counter', 'decline']), amountSar: sar.optional() }),
  },
  'tender.invite_expired': {
    aggregate: 'load',
    when: "A waterfall carrier's turn ended unanswered (the tender job); the next one is invited.",
    parties: TENDER_INVITE_PARTIES,
    schema: tenderInvite({ ...moved }),
  },
  'tender.invite_awarded': {
    aggregate: 'load',
    when: "The owner awarded this carrier's answer (with tender.awarded and load.booked, same transaction).",
    parties: TENDER_INVITE_PARTIES,
    schema: tenderInvite({ ...moved, amountSar: sar }),
  },
  'tender.invite_closed': {
    aggregate: 'load',
    when: 'Bidding closed for an invited carrier (spec §4): the tender was awarded to another carrier, its deadline passed or the owner cancelled it.',
    parties: TENDER_INVITE_PARTIES,
    schema: tenderInvite({ ...moved, reason: z.enum(['awarded', 'deadline', 'cancelled', 'load_unavailable']) }),
  },
  'tender.awarded': {
    aggregate: 'load',
    when: 'The owner awards an accepted or countered answer: the load is booked through the loads lifecycle (offer.accepted, load.booked) at that amount.',
    parties: TENDER_INVITE_PARTIES,
    schema: tender({ ...moved, inviteId: uuid, carrierId: uuid, amountSar: sar, offerId: uuid }),
  },
  'tender.closed': {
    aggregate: 'load',
    when: 'An open tender passed its deadline without an award (the tender job), or its load was booked or cancelled otherwise; `postedToBoard` when the load went to the board.',
    parties: TENDER_PARTIES,
    schema: tender({ ...moved, reason: z.enum(['deadline', 'load_unavailable']), postedToBoard: z.boolean().optional() }),
  },
  'tender.cancelled': {
    aggregate: 'load',
    when: 'The owner cancels an open tender.',
    parties: TENDER_PARTIES,
    schema: tender({ ...moved }),
  },
  'rate.alert_triggered': {
    aggregate: 'account',
    when: "An account's rate-change alert crossed its threshold: the lane's average SAR per trip of the last complete Riyadh day against the day before (the hourly rate-alerts job; once per alert and window). The alert e-mail is sent by a handler of this event.",
    parties: ACCOUNT_PARTIES,
    schema: account({
      alertId: uuid,
      firingId: uuid,
      /** The 24-hour window compared: the Riyadh day (YYYY-MM-DD) whose average is `currentAvgSar`. */
      windowKey: z.string(),
      lane: z.object({ originCityId: z.number().int(), destinationCityId: z.number().int(), equipment: z.string(), kind: z.enum(['spot', 'contract']) }),
      previousAvgSar: sar,
      currentAvgSar: sar,
      /** (current − previous) / previous × 100, two decimals, signed. */
      changePct: z.string(),
    }),
  },
  'chat.message_sent': {
    aggregate: 'conversation',
    when: 'A side of a conversation about a load sends a message (stored in the same transaction). The body is not in the payload: clients read it from the API; an attachment is described (name, type, size), never linked.',
    parties: 'the other side of the conversation (shipper or broker, carrier) and the sender; team members of either side',
    schema: z.looseObject({
      conversationId: uuid,
      messageId: uuid,
      seq: z.number().int(),
      loadId: uuid,
      /** The load's human reference, e.g. "SHP-24-000123". */
      referenceId: z.string(),
      shipperId: uuid,
      carrierId: uuid,
      /** The side that sent it (the other side is notified). */
      by: z.enum(['shipper', 'carrier']),
      /**
       * The message's attachment (issue 21): its file name, sniffed type and size in bytes; null
       * without one. Never the bytes or a link: clients read the message from the API.
       */
      attachment: z.object({ name: z.string().nullable(), mime: z.string(), size: z.number().int() }).nullable().optional(),
    }),
  },
  'chat.read': {
    aggregate: 'conversation',
    when: 'A side of a conversation read up to a message (its read position moved): the read receipt.',
    parties: 'both sides of the conversation; team members of either side',
    schema: z.looseObject({
      conversationId: uuid,
      /** The side's read position after (a message seq). */
      seq: z.number().int(),
      loadId: uuid,
      referenceId: z.string(),
      shipperId: uuid,
      carrierId: uuid,
      /** The side that read. */
      by: z.enum(['shipper', 'carrier']),
    }),
  },
  'call.created': {
    aggregate: 'conversation',
    when: 'A side of a conversation about a load calls the other (audio or video; issue 21 "Calls"). The call rings at most 45 s.',
    parties: 'both sides of the conversation; team members of either side (the callee side rings)',
    schema: callEvent({}),
  },
  'call.accepted': {
    aggregate: 'conversation',
    when: 'The called side answers a ringing call (it becomes active; `deviceId` is the tab that answered).',
    parties: 'both sides of the conversation; team members of either side',
    schema: callEvent({ deviceId: z.string() }),
  },
  'call.ended': {
    aggregate: 'conversation',
    when: 'A call ends: declined by the callee, or hung up by either side while active. `endedBy` is the side that ended it.',
    parties: 'both sides of the conversation; team members of either side',
    schema: callEvent({ reason: z.enum(['declined', 'hangup']), endedBy: z.enum(['shipper', 'carrier']) }),
  },
  'call.missed': {
    aggregate: 'conversation',
    when: 'A call was not answered: the caller hung up while it rang (`cancelled`), or nobody answered within 45 s (`timeout`). The callee side gets a "missed call" notification.',
    parties: 'both sides of the conversation; team members of either side',
    schema: callEvent({ reason: z.enum(['cancelled', 'timeout']) }),
  },
  'contact.message_received': {
    aggregate: 'contact',
    when: 'A visitor sends the contact form (the e-mail to the support mailbox and the acknowledgement are sent by a handler of this event). Internal: not offered to webhooks.',
    parties: 'none (no account; the support mailbox and the sender by e-mail)',
    schema: z.looseObject({ contactMessageId: uuid, reference: z.string() }),
  },
} as const satisfies Record<string, EventSpec>;

export type DomainEventType = keyof typeof DOMAIN_EVENTS;
export const DOMAIN_EVENT_TYPES = Object.keys(DOMAIN_EVENTS) as [DomainEventType, ...DomainEventType[]];
/** The payload of each event type. */
export type DomainEventData<T extends DomainEventType = DomainEventType> = z.output<(typeof DOMAIN_EVENTS)[T]['schema']>;

/**
 * The event types whose payload always has `status: {from, to}`: the load and offer events only
 * a lifecycle transition publishes, the operator's account status changes (account.approved /
 * rejected / suspended) and the WASL status changes. `loads.event()` (a load event
 * that is not a status change) refuses them at compile time.
 */
export type StatusChangeEventType = {
  [T in DomainEventType]: DomainEventData<T> extends { status: { from: string; to: string } } ? T : never;
}[DomainEventType];

/**
 * A type guard for event handlers (issue 18): is `e` (an outbox event, a webhook body — any
 * `{type, data}`) one of `types`? If so `e.data` is that type's payload (`DomainEventData`),
 * which publish validated, so a handler reads its fields without casts:
 * `if (!isEvent(e, 'team.member_invited')) return; e.data.memberId // string`.
 */
export function isEvent<E extends { type: string; data: unknown }, T extends DomainEventType>(
  e: E,
  ...types: [T, ...T[]]
): e is E & { [K in T]: { type: K; data: DomainEventData<K> } }[T] {
  return (types as readonly string[]).includes(e.type);
}

/** The event types a webhook endpoint may subscribe to: those with account parties (not `contact`, not a private `conversation`). */
export type WebhookEventType = {
  [T in DomainEventType]: (typeof DOMAIN_EVENTS)[T]['aggregate'] extends 'contact' | 'conversation' ? never : T;
}[DomainEventType];
const internalAggregate = (t: DomainEventType) => DOMAIN_EVENTS[t].aggregate === 'contact' || DOMAIN_EVENTS[t].aggregate === 'conversation';
export const WEBHOOK_EVENT_TYPES = DOMAIN_EVENT_TYPES.filter((t) => !internalAggregate(t)) as [WebhookEventType, ...WebhookEventType[]];
export const isWebhookEvent = (t: DomainEventType): t is WebhookEventType => !internalAggregate(t);

/** The event types whose aggregate is a load (per-load order; the timeline). */
export type ShipmentEventType = { [T in DomainEventType]: (typeof DOMAIN_EVENTS)[T]['aggregate'] extends 'load' ? T : never }[DomainEventType];
export const SHIPMENT_EVENT_TYPES = DOMAIN_EVENT_TYPES.filter((t) => DOMAIN_EVENTS[t].aggregate === 'load');
export const isShipmentEvent = (t: DomainEventType) => DOMAIN_EVENTS[t].aggregate === 'load';

/** The discriminated union of every event's `{type, data}` (what publish validates). */
export const domainEventSchema = z.discriminatedUnion(
  'type',
  DOMAIN_EVENT_TYPES.map((t) => z.object({ type: z.literal(t), data: DOMAIN_EVENTS[t].schema })) as unknown as [
    z.ZodObject<{ type: z.ZodLiteral<DomainEventType>; data: z.ZodObject }>,
    ...z.ZodObject<{ type: z.ZodLiteral<DomainEventType>; data: z.ZodObject }>[],
  ],
);

/**
 * Events typed at compile time (issue 51; DESIGN §7, as immich's `emit<T>`): the payload a
 * publisher writes is derived from the same zod schemas publish parses with, so a wrong payload
 * is a type error at the call site and the run-time parse is the second line of defence.
 *
 * What a publisher must write is the schema's INPUT (`z.input`) with its known fields only (the
 * index signature of `z.looseObject` is dropped: receivers tolerate unknown fields, publishers
 * may not invent them), minus what publish fills in itself (events.service withParties):
 * - for an event whose aggregate is a load, the parties read from the load row: `loadId`,
 *   `referenceId`, `shipperId`, `brokerId`, `vendorId`; `carrierId` too, except on the offer and
 *   tender events, whose carrier is the bidder or invitee the caller names (the load is not
 *   booked to it); and the row's `vehicleId`, `driverId`, `trailerId` for `load.assigned`;
 * - for every event, `status: {from, to}` when the caller gives the older `from`/`to` strings.
 * Those fields stay allowed (a caller's value wins, or is overwritten by the row's), only optional.
 */
type EventSpecs = typeof DOMAIN_EVENTS;
/** The aggregate each event type's `aggregateId` names. */
export type DomainEventAggregate<T extends DomainEventType = DomainEventType> = EventSpecs[T]['aggregate'];

/** The known fields of an object type: drops the `[k: string]: unknown` of a loose zod object. */
type KnownFields<T> = { [P in keyof T as string extends P ? never : number extends P ? never : P]: T[P] };
/** T with the keys P (where T has them) made optional. */
type OptionalKeys<T, P extends PropertyKey> = Omit<T, P> & Partial<Pick<T, Extract<keyof T, P>>>;
/** Offer and tender events name their own carrier (the bidder, the invitee): publish does not take it from the load. */
type OwnCarrierEventType = Extract<DomainEventType, `offer.${string}` | `tender.${string}`>;
/** The fields publish reads from the load row for a load event of type T (withParties). */
type LoadPartyField<T extends DomainEventType> =
  | 'loadId'
  | 'referenceId'
  | 'shipperId'
  | 'brokerId'
  | 'vendorId'
  | (T extends OwnCarrierEventType ? never : 'carrierId')
  | (T extends 'load.assigned' ? 'vehicleId' | 'driverId' | 'trailerId' : never);
/** The schema's input of T (known fields), its load parties optional (distributes over a union T). */
type PayloadBase<T extends DomainEventType> = T extends DomainEventType
  ? EventSpecs[T]['aggregate'] extends 'load'
    ? OptionalKeys<KnownFields<z.input<EventSpecs[T]['schema']>>, LoadPartyField<T>>
    : KnownFields<z.input<EventSpecs[T]['schema']>>
  : never;

type AllKeys<U> = U extends unknown ? keyof U : never;
type RequiredKeys<U> = { [P in keyof U]-?: object extends Pick<U, P> ? never : P }[keyof U];
type NotRequiredIn<U, K extends PropertyKey> = U extends unknown ? Exclude<K, RequiredKeys<U>> : never;
type FieldType<U, P extends PropertyKey> = U extends unknown ? (P extends keyof U ? U[P] : never) : never;
/**
 * One object type for a union of payloads: a field is required when every member requires it,
 * optional when some member has it, absent when none has; its type is the union of the members'.
 * The identity for a single payload. A call whose `type` is a union (a lifecycle's action →
 * event table) cannot be correlated with its data by the compiler, so it is checked against
 * this: what all its possible events require, and the types of the fields they name.
 */
type Merged<U, K extends PropertyKey = AllKeys<U>, R extends PropertyKey = Exclude<K, NotRequiredIn<U, K>>> = {
  [P in R]: FieldType<U, P>;
} & { [P in Exclude<K, R>]?: FieldType<U, P> };

type StatusChange = z.input<typeof statusChangeSchema>;
/** A required `status` may instead be given as the older `from`/`to` strings (publish derives it); `from`/`to` are allowed with any status. */
type WithStatusInput<D> = 'status' extends keyof D
  ? object extends Pick<D, 'status' & keyof D>
    ? D & { from?: string; to?: string }
    : Omit<D, 'status'> & ({ status: StatusChange; from?: string; to?: string } | { status?: StatusChange; from: string; to: string })
  : D;
type Flat<T> = { [P in keyof T]: T[P] } & {};

/**
 * The payload a publisher writes for event type T (see above): `EventMap[T]`. For a union T, the
 * fields all of its events require and the known fields of any, with their types.
 */
export type DomainEventInputData<T extends DomainEventType = DomainEventType> = Flat<WithStatusInput<Flat<Merged<PayloadBase<T>>>>>;
/** The publisher's payload of every event type (derived from DOMAIN_EVENTS; DESIGN §7 "EventMap"). */
export type EventMap = { [T in DomainEventType]: DomainEventInputData<T> };

/**
 * An event of type T as a service publishes it (`publish<T>(tx, event)`). `aggregateId` is the
 * load the event is about (offers included) so per-load order can be kept, the account (owner)
 * for account events, the conversation for chat and call events, or the contact message for
 * `contact.message_received`; `aggregateType` must be the one DOMAIN_EVENTS names for T (publish
 * adds a load's parties only to a load aggregate); `actorId` the user who caused it (null for
 * jobs); `data` its payload (ids, status, prices as decimal strings — never secrets), checked
 * against `DomainEventInputData<T>` (`EventMap[T]` for one type; for a union, see Merged).
 */
export interface EventInput<T extends DomainEventType = DomainEventType> {
  type: T;
  aggregateType: DomainEventAggregate<T>;
  aggregateId: string;
  actorId: string | null;
  data: DomainEventInputData<T>;
}

/**
 * Any event as a service publishes it: the union of `EventInput<T>` over the event types,
 * discriminated by `type`, so `{ type: 'offer.accepted', aggregateType, aggregateId, actorId, data }`
 * is checked against that event's payload.
 */
export type DomainEventInput = { [T in DomainEventType]: EventInput<T> }[DomainEventType];

/** One entry of a load's timeline (GET /loads/:id/timeline). */
export interface LoadTimelineEntry {
  eventId: string;
  type: DomainEventType;
  actorId: string | null;
  actorCompany: string | null;
  data: Record<string, unknown>;
  at: string;
}
