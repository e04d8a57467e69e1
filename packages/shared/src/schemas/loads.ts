import { z } from 'zod';
import { DOMAIN_EVENT_TYPES } from '../events.ts';
import {
  BOOK_NOW_FOR,
  DELIVERY_TYPES,
  DETENTION_FREE_HOURS_MAX,
  LIMITS,
  LOAD_STATUSES,
  LOAD_TYPES,
  MY_LOADS_TABS,
  PAID_BY,
  PAYMENT_METHODS,
  PAYMENT_TERMS_DAYS_MAX,
  RADIUS_OPTIONS_KM,
  SEARCH_PICKUP_RADIUS_KM,
  SHIPMENT_TYPE,
  SHIPMENT_VENDORS_MAX,
  STOP_TYPE,
} from '../constants.ts';
import { LOAD_OPTIONS } from '../rules/lifecycle.ts';
import { cappedListOf, COUNT_CAP, isoDateTime, paginationQuery, refId } from './common.ts';
import { INT4_MAX } from '../input.ts';
import { moneySar, moneySarOut } from '../money-schemas.ts';

/** Spec §5 "address completeness", stricter variant: not empty and not a zero-like placeholder. */
const ZERO_LIKE = new Set(['0', '00', '0.0', '0.', '.']);
const addressText = (max: number) =>
  z
    .string({ error: 'v.addressRequired' })
    .trim()
    .min(1, 'v.addressRequired')
    .max(max, 'v.addressFieldMax')
    .refine((v) => !ZERO_LIKE.has(v), 'v.addressRequired');
const digits = (n: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(new RegExp(`^\\d{${n}}$`), message)
    .refine((v) => !/^0+$/.test(v), message);

/**
 * The structured address of a stop (spec §3 "Address", form variant; the Saudi national
 * address): building number (4 digits), street, district name, region, zip code (5 digits),
 * optional additional number (4 digits) and unit, and the sender's (pickup) or receiver's (drop)
 * business name. The city is the stop's cityId. Required fields must be non-empty and not a
 * zero-like placeholder ('0', '00', '0.0', '0.', '.'; spec §5).
 */
export const stopAddressInput = z.object({
  buildingNumber: digits(4, 'v.buildingNumber'),
  streetName: addressText(100),
  district: addressText(100),
  region: addressText(60),
  zipCode: digits(5, 'v.zipCode'),
  additionalNumber: digits(4, 'v.additionalNumber').optional(),
  unitNumber: z.string().trim().max(10, 'v.addressFieldMax').optional(),
  businessName: z.string().trim().max(100, 'v.addressFieldMax').optional(),
});
export type StopAddressInput = z.infer<typeof stopAddressInput>;

/**
 * A stop of a load (spec §3 "Stop point"): stopType 1 pickup, 2 drop; cityId from /cities;
 * districtId from /districts (lat/lng come from the city); date: ISO date-time of the
 * pickup/drop (earliest); address: free text; addressDetails: the structured address.
 */
export const stopInput = z.object({
  stopType: z.union([z.literal(STOP_TYPE.pickup), z.literal(STOP_TYPE.drop)]),
  cityId: z.number({ error: 'v.cityInvalid' }).int('v.cityInvalid').positive('v.cityInvalid').max(INT4_MAX, 'v.cityInvalid'),
  /** District id from /districts (11 digits: beyond int4); it must be one of the stop's city. */
  districtId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER, 'v.numberRange').optional(),
  date: isoDateTime,
  address: z.string().trim().max(200, 'v.addressMax').optional(),
  addressDetails: stopAddressInput.optional(),
});
export type StopInput = z.infer<typeof stopInput>;

const positive = (max?: number) => {
  const s = z.number({ error: 'v.cargoPositive' }).positive('v.cargoPositive');
  return max ? s.max(max, 'v.cargoPositive') : s;
};

/**
 * A cargo line (spec §3): goods type code (/goodTypes), dimensions in cm, quantity (pieces),
 * weight per item in kg (> 0, at most 10 digits), stackable and ADR (dangerous goods) flags.
 */
export const cargoLineInput = z.object({
  goodsType: z.string({ error: 'v.goodsTypeRequired' }).min(1, 'v.goodsTypeRequired').max(60),
  lengthCm: positive(100_000),
  widthCm: positive(100_000),
  heightCm: positive(100_000),
  quantity: z.number({ error: 'v.cargoPositive' }).int('v.quantityInteger').positive('v.cargoPositive').max(1_000_000, 'v.cargoPositive'),
  weightPerItemKg: z.number({ error: 'v.cargoPositive' }).positive('v.cargoPositive').max(LIMITS.weightPerItemMax, 'v.weightDigits'),
  stackable: z.boolean().default(false),
  adr: z.boolean().default(false),
  conditions: z.string().trim().max(140).optional(),
});
export type CargoLineInput = z.infer<typeof cargoLineInput>;

/** A price in SAR as a decimal string (see money.ts: exact to the halala, never a float). */
export const priceSchema = moneySar;

const stopKey = (s: StopInput) =>
  `${s.cityId}|${(s.address ?? '').trim().toLowerCase()}|${s.districtId ?? ''}|${s.addressDetails ? `${s.addressDetails.buildingNumber}|${s.addressDetails.streetName.toLowerCase()}` : ''}`;

/**
 * Stop-list rules of spec §5: at least 1 pickup and 1 drop, first stop a pickup, last stop a
 * drop ("last destination required"), pickup and drop addresses differ, an address is not
 * chosen twice, stops in time order, no time before now + 1 h.
 * `now` is injectable for tests.
 */
export function checkStops(stops: StopInput[], ctx: z.RefinementCtx, now = Date.now()) {
  const pickups = stops.filter((s) => s.stopType === STOP_TYPE.pickup);
  const drops = stops.filter((s) => s.stopType === STOP_TYPE.drop);
  if (pickups.length === 0) ctx.addIssue({ code: 'custom', message: 'v.stopsPickupRequired', path: ['stops'] });
  if (drops.length === 0) ctx.addIssue({ code: 'custom', message: 'v.stopsDropRequired', path: ['stops'] });
  if (stops.length > 0 && stops[0].stopType !== STOP_TYPE.pickup)
    ctx.addIssue({ code: 'custom', message: 'v.stopsFirstPickup', path: ['stops', 0, 'stopType'] });
  if (stops.length > 0 && stops[stops.length - 1].stopType !== STOP_TYPE.drop)
    ctx.addIssue({ code: 'custom', message: 'v.stopsLastDrop', path: ['stops', stops.length - 1, 'stopType'] });
  const pickupKeys = new Set(pickups.map(stopKey));
  const seen = new Set<string>();
  stops.forEach((s, i) => {
    const k = stopKey(s);
    if (s.stopType === STOP_TYPE.drop && pickupKeys.has(k)) ctx.addIssue({ code: 'custom', message: 'v.stopsPickupDropSame', path: ['stops', i, 'cityId'] });
    else if (seen.has(k)) ctx.addIssue({ code: 'custom', message: 'v.stopsDuplicateAddress', path: ['stops', i, 'cityId'] });
    seen.add(k);
    const t = Date.parse(s.date);
    if (Number.isFinite(t) && t < now + LIMITS.timeBufferMs) ctx.addIssue({ code: 'custom', message: 'v.timeInPast', path: ['stops', i, 'date'] });
    if (i > 0) {
      const prev = Date.parse(stops[i - 1].date);
      if (Number.isFinite(prev) && Number.isFinite(t) && t < prev) ctx.addIssue({ code: 'custom', message: 'v.stopsOrder', path: ['stops', i, 'date'] });
    }
  });
}

/** "HH:MM", 24 h. */
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'v.hoursInvalid');
/** Opening hours at the pickups or drops, from–to the same day ("08:00"–"17:00"). */
export const hoursInput = z.object({ from: hhmm, to: hhmm }).refine((h) => h.from < h.to, { message: 'v.hoursOrder', path: ['to'] });

/** The terms of a shipment (spec §2 post form "payment info", §3 shipment). All optional. */
const termFields = {
  /** End of the pickup window (the first pickup's date is its start), ISO date-time. */
  pickupLatest: isoDateTime.optional(),
  pickupHours: hoursInput.optional(),
  dropHours: hoursInput.optional(),
  paymentMethod: z.enum(PAYMENT_METHODS, { error: 'v.paymentMethod' }).optional(),
  paidBy: z.enum(PAID_BY, { error: 'v.paidBy' }).optional(),
  /** Days after delivery, 0…180. */
  paymentTermsDays: z
    .number({ error: 'v.paymentTermsDays' })
    .int('v.paymentTermsDays')
    .min(0, 'v.paymentTermsDays')
    .max(PAYMENT_TERMS_DAYS_MAX, 'v.paymentTermsDays')
    .optional(),
  /** Free waiting hours at a stop before detention is charged, 0…72. */
  detentionFreeHours: z
    .number({ error: 'v.detentionHours' })
    .int('v.detentionHours')
    .min(0, 'v.detentionHours')
    .max(DETENTION_FREE_HOURS_MAX, 'v.detentionHours')
    .optional(),
  /** Detention charge per hour after the free hours, SAR decimal string. */
  detentionRateSar: moneySar.optional(),
  /** Most detention charged per stop, SAR (issue 50: billed from the trip's step times). */
  detentionCapSar: moneySar.optional(),
  deliveryType: z.enum(DELIVERY_TYPES, { error: 'v.deliveryType' }).optional(),
  /** Who or where the shipment is delivered to (consignee or site), free text. */
  deliveryTo: z.string().trim().max(100, 'v.deliveryToMax').optional(),
  /** The goods may be traded (sold on) while in transit (Bayan waybill "tradable"). */
  tradable: z.boolean().optional(),
  /**
   * Payment protection (issue 50): at booking the agreed price + VAT is funded from the shipper's
   * wallet into escrow and released to the carrier after the dispute window that follows delivery.
   */
  paymentProtection: z.boolean().optional(),
  /**
   * Book Now at the posted price (issue 19): a verified carrier with a plan books it in one step
   * (POST /bookNow), no negotiation. Absent on create: false.
   */
  bookNow: z.boolean().optional(),
  /** Who may Book Now: any verified carrier (default) or only my verified vendors' accounts. */
  bookNowFor: z.enum(BOOK_NOW_FOR, { error: 'v.bookNowFor' }).optional(),
};

/**
 * Where the shipment goes (spec §3 carrier source): 1 the marketplace (the public board), 2 only
 * the chosen vendors (`vendorIds`, my vendors linked to registered accounts), 3 my own vehicle
 * (booked at once: status unassigned, carrier = me).
 */
const audienceFields = {
  shipmentType: z
    .union([z.literal(SHIPMENT_TYPE.marketplace), z.literal(SHIPMENT_TYPE.vendor), z.literal(SHIPMENT_TYPE.ownVehicle)])
    .default(SHIPMENT_TYPE.marketplace),
  vendorIds: z.array(z.uuid('v.vendorsRequired')).max(SHIPMENT_VENDORS_MAX, 'v.vendorsMax').optional(),
};

interface TermsLike {
  stops?: StopInput[];
  pickupLatest?: string;
  shipmentType?: number;
  vendorIds?: string[];
}

/** Pickup window (latest ≥ earliest = first pickup date, and not after the last drop); vendors for type 2. */
function checkTerms(b: TermsLike, ctx: z.RefinementCtx) {
  if (b.pickupLatest && b.stops?.length) {
    const first = b.stops.find((s) => s.stopType === STOP_TYPE.pickup);
    const lastDrop = [...b.stops].reverse().find((s) => s.stopType === STOP_TYPE.drop);
    const latest = Date.parse(b.pickupLatest);
    if (first && latest < Date.parse(first.date)) ctx.addIssue({ code: 'custom', message: 'v.pickupWindow', path: ['pickupLatest'] });
    else if (lastDrop && latest > Date.parse(lastDrop.date)) ctx.addIssue({ code: 'custom', message: 'v.pickupWindowDrop', path: ['pickupLatest'] });
  }
  if (b.shipmentType === SHIPMENT_TYPE.vendor && !(b.vendorIds && b.vendorIds.length > 0))
    ctx.addIssue({ code: 'custom', message: 'v.vendorsRequired', path: ['vendorIds'] });
  if (b.vendorIds && new Set(b.vendorIds).size !== b.vendorIds.length) ctx.addIssue({ code: 'custom', message: 'v.vendorsDuplicate', path: ['vendorIds'] });
}

const loadFields = {
  loadType: z.enum(LOAD_TYPES),
  equipmentType: z.string({ error: 'v.equipmentRequired' }).min(1, 'v.equipmentRequired').max(60),
  stops: z.array(stopInput).min(2, 'v.stopsDropRequired').max(LIMITS.stopsMax, 'v.stopsMax'),
  cargo: z.array(cargoLineInput).min(1, 'v.cargoRequired').max(LIMITS.cargoLinesMax, 'v.cargoMax'),
  /** Offered price for the whole load, SAR (VAT exclusive), decimal string e.g. "1500.00". */
  priceSar: priceSchema,
  comments: z.string().trim().max(LIMITS.commentsMax, 'v.commentsMax').optional(),
  /** Post to the board now (true, default) or keep unposted (draft). */
  post: z.boolean().default(true),
  ...termFields,
  ...audienceFields,
};

/**
 * POST /loads body (spec §2 post shipment form, §5 shipment rules). An own-vehicle shipment
 * (type 3) needs pickup and delivery dates: every stop carries its date, so this holds by the
 * stop rules; it is created booked (unassigned) whatever `post` says.
 */
export const createLoadBody = z.object(loadFields).superRefine((b, ctx) => {
  checkStops(b.stops, ctx);
  checkTerms(b, ctx);
});
export type CreateLoadBody = z.input<typeof createLoadBody>;

/**
 * PATCH /loads/:id — any subset of the create fields; `stops` and `cargo` replace the whole
 * list. Changing origin, destination or equipment deletes the load's offers (spec §4).
 */
export const updateLoadBody = z
  .object(loadFields)
  .omit({ post: true, shipmentType: true, vendorIds: true })
  .partial()
  .superRefine((b, ctx) => {
    if (b.stops) checkStops(b.stops, ctx);
    checkTerms(b, ctx);
  });
export type UpdateLoadBody = z.input<typeof updateLoadBody>;

/** POST /loads/:id/repost — optionally with new stop dates (same count/order as the load's stops). */
export const repostLoadBody = z.object({ stopDates: z.array(isoDateTime).optional() }).default({});

/**
 * POST /loads/:id/audience — change where a posted or unposted shipment goes: the marketplace
 * (1) or chosen vendors (2). Own vehicle (3) books it at once (unposted loads only).
 */
export const changeAudienceBody = z.object(audienceFields).superRefine((b, ctx) => checkTerms(b, ctx));
export type ChangeAudienceBody = z.input<typeof changeAudienceBody>;

/**
 * POST /loads/:id/extend-dates — move the first pickup date and/or the last delivery date
 * later (spec §2 "extend pickup or delivery date"). Each may move by at most
 * EXTEND_DATES_MAX_DAYS (30) days beyond its current date and never earlier; stops stay in order
 * (the server checks against the load's other stops).
 */
export const extendDatesBody = z
  .object({ pickupDate: isoDateTime.optional(), deliveryDate: isoDateTime.optional() })
  .refine((b) => b.pickupDate !== undefined || b.deliveryDate !== undefined, { message: 'v.extendNothing', path: ['pickupDate'] })
  .refine((b) => !b.pickupDate || !b.deliveryDate || Date.parse(b.pickupDate) <= Date.parse(b.deliveryDate), {
    message: 'v.stopsOrder',
    path: ['deliveryDate'],
  });
export type ExtendDatesBody = z.input<typeof extendDatesBody>;

export const stopSchema = z.object({
  id: z.uuid(),
  index: z.number().int(),
  stopType: z.number().int(),
  cityId: z.number().int(),
  cityNameEn: z.string(),
  cityNameAr: z.string(),
  districtId: z.number().nullable(),
  lat: z.number(),
  lng: z.number(),
  date: z.string(),
  address: z.string().nullable(),
  addressDetails: stopAddressInput.nullable(),
});
export const cargoLineSchema = z.object({
  id: z.uuid(),
  goodsType: z.string(),
  lengthCm: z.number(),
  widthCm: z.number(),
  heightCm: z.number(),
  quantity: z.number().int(),
  weightPerItemKg: z.number(),
  stackable: z.boolean(),
  adr: z.boolean(),
  conditions: z.string().nullable(),
});

/** A load as the API returns it. Money SAR as decimal strings, distance km, weight kg. */
export const loadSchema = z.object({
  id: z.uuid(),
  referenceId: z.string(),
  status: z.enum(LOAD_STATUSES),
  loadType: z.enum(LOAD_TYPES),
  equipmentType: z.string(),
  priceSar: moneySarOut,
  currency: z.string(),
  distanceKm: z.number(),
  ratePerKmSar: moneySarOut,
  totalWeightKg: z.number(),
  comments: z.string().nullable(),
  stops: z.array(stopSchema),
  cargo: z.array(cargoLineSchema),
  pickupAt: z.string(),
  dropAt: z.string(),
  postedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  shipperId: z.uuid(),
  shipperCompany: z.string(),
  /** The shipper's account is approved (verified documents; PROFILE_STATUS.approved): the board's verification badge (issue 23). */
  shipperVerified: z.boolean(),
  /**
   * The shipper's measured days-to-pay: mean days from delivery to payment received over its
   * newest 50 paid shipments (DAYS_TO_PAY_WINDOW), one decimal; null before its first. What the
   * shipper does, beside `paymentTermsDays`, what it states (issue 23 results table).
   */
  shipperDaysToPay: z.number().nullable(),
  carrierId: z.uuid().nullable(),
  bookedPriceSar: moneySarOut.nullable(),
  /** When the driver completed the job (proof of drop; issue 22: closing its Bayan needs it, or the shipper's override). */
  deliveredAt: z.string().nullable(),
  offersCount: z.number().int(),
  /** Distance from the searched pickup city to the load's first pickup, km (search only). */
  deadheadKm: z.number().optional(),
  /** True when the caller owns (posted) the load. */
  isMine: z.boolean().optional(),
  /** End of the pickup window (start: pickupAt), ISO; null when not set. */
  pickupLatest: z.string().nullable(),
  pickupHours: z.object({ from: z.string(), to: z.string() }).nullable(),
  dropHours: z.object({ from: z.string(), to: z.string() }).nullable(),
  paymentMethod: z.enum(PAYMENT_METHODS).nullable(),
  paidBy: z.enum(PAID_BY).nullable(),
  paymentTermsDays: z.number().int().nullable(),
  detentionFreeHours: z.number().int().nullable(),
  detentionRateSar: moneySarOut.nullable(),
  detentionCapSar: moneySarOut.nullable(),
  deliveryType: z.enum(DELIVERY_TYPES).nullable(),
  deliveryTo: z.string().nullable(),
  tradable: z.boolean(),
  /** Payment protection (issue 50): the board's "Protected" badge; GET /loads/:id/escrow has the escrow. */
  paymentProtection: z.boolean(),
  /** Book Now at the posted price (issue 19); `bookNowFor` who may (null when not Book Now). */
  bookNow: z.boolean(),
  bookNowFor: z.enum(BOOK_NOW_FOR).nullable(),
  /**
   * Owner only (false for others): the carrier that won this load posted the same lane with
   * overlapping pickup dates as a new load (re-post detection, issue 19; event load.reposted).
   */
  repostFlagged: z.boolean(),
  /** 1 marketplace, 2 chosen vendors, 3 own vehicle. */
  shipmentType: z.number().int(),
  /** The chosen vendors of a vendor shipment (owner only; [] otherwise). */
  vendorIds: z.array(z.uuid()),
  /** The viewer bookmarked it (false for guests and on board pages). */
  bookmarked: z.boolean(),
  /** More Options for the viewer (lifecycle.ts loadOptionsFor), in menu order. */
  options: z.array(z.enum(LOAD_OPTIONS)),
});
export type Load = z.infer<typeof loadSchema>;

const radius = z.coerce.number().refine((v) => (RADIUS_OPTIONS_KM as readonly number[]).includes(v), 'v.radiusOption');
/** The pickup radius also takes the spec's pickup search radii (150 km; SEARCH_PICKUP_RADIUS_KM). */
const pickupRadius = z.coerce.number().refine((v) => (SEARCH_PICKUP_RADIUS_KM as readonly number[]).includes(v), 'v.radiusOption');

/**
 * The deepest offset a list of loads takes (issue 10): a page at `skip` reads skip + limit index
 * entries, so deeper pages go by the keyset cursor (`cursor` = the previous page's `nextCursor`:
 * after that page's last sort key and id), which reads only the page whatever its depth.
 */
export const SKIP_MAX = 1000;
/**
 * Paging of the board and my loads: `limit` (1…100), `skip` ≤ SKIP_MAX (deeper: 400
 * `v.skipUseCursor`), or `cursor` (opaque, ≤ 300 chars; when given, `skip` is ignored).
 */
const loadsPaging = paginationQuery.extend({
  skip: z.coerce.number().int().min(0).max(SKIP_MAX, 'v.skipUseCursor').default(0),
  cursor: z.string().min(1).max(300).optional(),
});
/** A capped list of loads with the keyset cursor of the next page (null: this was the last page). */
const loadsPage = cappedListOf(loadSchema).extend({ nextCursor: z.string().nullable() });

/** GET /loads — the load board search (spec §2 load search, §9 radius options). */
export const searchLoadsQuery = loadsPaging
  .extend({
    pickupCityId: refId().optional(),
    radius: pickupRadius.optional(),
    dropCityId: refId().optional(),
    dropRadius: radius.optional(),
    equipmentType: z.string().max(60).optional(),
    loadType: z.enum(LOAD_TYPES).optional(),
    pickupFrom: isoDateTime.optional(),
    pickupTo: isoDateTime.optional(),
    /** Only Book Now loads ("true"). */
    bookNow: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
    sort: z.enum(['newest', 'pickup', 'price', 'ratePerKm', 'deadhead']).default('newest'),
    /**
     * "true": the page carries `total` / `totalCapped` (the capped count, computed with the page:
     * up to 1,001 rows read on a miss). Absent: no count; GET /loads/count serves it on its own
     * (issue 45; docs/load-board.md "Counts off the miss path").
     */
    count: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
  })
  .refine((q) => !q.pickupFrom || !q.pickupTo || Date.parse(q.pickupFrom) <= Date.parse(q.pickupTo), { message: 'v.dateRange', path: ['pickupTo'] });
export type SearchLoadsQuery = z.infer<typeof searchLoadsQuery>;
/**
 * GET /loads → `{ items, nextCursor }` and, with `count=true`, `total` and `totalCapped` (exact
 * up to COUNT_CAP, 1,000, then capped); `nextCursor` continues after this page (null when it is
 * the last).
 */
export const loadListResponse = loadsPage.extend({
  total: z.number().int().min(0).max(COUNT_CAP).optional(),
  totalCapped: z.boolean().optional(),
});
/**
 * GET /loads/count → the board's count for GET /loads' filters (paging and sort ignored):
 * `total` exact up to COUNT_CAP (1,000); `totalCapped` true when there are more ("1,000+").
 * Issue 45: its own request, fetched after the page's rows, so a miss never waits for it.
 */
export const boardCountResponse = z.object({ total: z.number().int().min(0).max(COUNT_CAP), totalCapped: z.boolean() });
export type BoardCount = z.infer<typeof boardCountResponse>;

const tabCounts = <T extends z.ZodType>(v: T) => z.object(Object.fromEntries(MY_LOADS_TABS.map((t) => [t, v])) as Record<(typeof MY_LOADS_TABS)[number], T>);
/**
 * GET /my-loads?tab= → `{ items, total, totalCapped, counts, countsCapped }`: the page of one
 * tab; `counts` holds every tab's count, each exact up to COUNT_CAP (1,000) — when
 * `countsCapped[tab]` is true that tab has more ("1,000+"). `total`/`totalCapped` are the
 * selected tab's.
 */
export const myLoadsQuery = loadsPaging.extend({ tab: z.enum(MY_LOADS_TABS).default('posted') });
/**
 * Where the negotiation on one load of the Offers tab stands for me (issue 23). `side`: I bid on
 * it (`carrier`: `priceSar` is my offer's current price, one open offer per carrier) or I posted
 * it (`shipper`: `pending` open offers, `priceSar` the lowest of them). `yourTurn`: how many of
 * them wait for my answer (the other party named the last price). SAR decimal strings.
 */
export const myOfferStateSchema = z.object({
  side: z.enum(['carrier', 'shipper']),
  pending: z.number().int().min(1),
  yourTurn: z.number().int().min(0),
  priceSar: moneySarOut,
  lastOfferBy: z.enum(['carrier', 'shipper']),
});
export type MyOfferState = z.infer<typeof myOfferStateSchema>;
export const myLoadsResponse = loadsPage.extend({
  counts: tabCounts(z.number().int().min(0).max(COUNT_CAP)),
  countsCapped: tabCounts(z.boolean()),
  /** Offers tab only: load id → where its open offers stand for me (empty on other tabs). */
  offerStates: z.record(z.string(), myOfferStateSchema),
});

/** GET /loads/:id/timeline — the load's audit timeline (events, oldest first; issue 6). */
export const loadTimelineEntrySchema = z.object({
  eventId: z.uuid(),
  type: z.enum(DOMAIN_EVENT_TYPES),
  /** Who did it; null for the system (e.g. the expiry job). */
  actorId: z.uuid().nullable(),
  actorCompany: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export const loadTimelineResponse = z.object({ items: z.array(loadTimelineEntrySchema) });
