import { z } from 'zod';
import { DOMAIN_EVENT_TYPES } from '../events.ts';
import { LIMITS, LOAD_STATUSES, LOAD_TYPES, MY_LOADS_TABS, RADIUS_OPTIONS_KM, STOP_TYPE } from '../constants.ts';
import { cappedListOf, COUNT_CAP, isoDateTime, paginationQuery, refId } from './common.ts';
import { INT4_MAX } from '../input.ts';
import { moneySar, moneySarOut } from '../money.ts';

/**
 * A stop of a load (spec §3 "Stop point"): stopType 1 pickup, 2 drop; cityId from /cities;
 * date: ISO date-time of the pickup/drop (earliest); address: free text (street, district).
 */
export const stopInput = z.object({
  stopType: z.union([z.literal(STOP_TYPE.pickup), z.literal(STOP_TYPE.drop)]),
  cityId: z.number({ error: 'v.cityInvalid' }).int('v.cityInvalid').positive('v.cityInvalid').max(INT4_MAX, 'v.cityInvalid'),
  districtId: z.number().int().positive().max(INT4_MAX, 'v.numberRange').optional(),
  date: isoDateTime,
  address: z.string().trim().max(200, 'v.addressMax').optional(),
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

const stopKey = (s: StopInput) => `${s.cityId}|${(s.address ?? '').trim().toLowerCase()}|${s.districtId ?? ''}`;

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
};

/** POST /loads body (spec §2 post shipment form, §5 shipment rules). */
export const createLoadBody = z.object(loadFields).superRefine((b, ctx) => checkStops(b.stops, ctx));
export type CreateLoadBody = z.input<typeof createLoadBody>;

/**
 * PATCH /loads/:id — any subset of the create fields; `stops` and `cargo` replace the whole
 * list. Changing origin, destination or equipment deletes the load's offers (spec §4).
 */
export const updateLoadBody = z
  .object(loadFields)
  .omit({ post: true })
  .partial()
  .superRefine((b, ctx) => {
    if (b.stops) checkStops(b.stops, ctx);
  });
export type UpdateLoadBody = z.input<typeof updateLoadBody>;

/** POST /loads/:id/repost — optionally with new stop dates (same count/order as the load's stops). */
export const repostLoadBody = z.object({ stopDates: z.array(isoDateTime).optional() }).default({});

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
  carrierId: z.uuid().nullable(),
  bookedPriceSar: moneySarOut.nullable(),
  offersCount: z.number().int(),
  /** Distance from the searched pickup city to the load's first pickup, km (search only). */
  deadheadKm: z.number().optional(),
  /** True when the caller owns (posted) the load. */
  isMine: z.boolean().optional(),
});
export type Load = z.infer<typeof loadSchema>;

const radius = z.coerce.number().refine((v) => (RADIUS_OPTIONS_KM as readonly number[]).includes(v), 'v.radiusOption');

/** GET /loads — the load board search (spec §2 load search, §9 radius options). */
export const searchLoadsQuery = paginationQuery
  .extend({
    pickupCityId: refId().optional(),
    radius: radius.optional(),
    dropCityId: refId().optional(),
    dropRadius: radius.optional(),
    equipmentType: z.string().max(60).optional(),
    loadType: z.enum(LOAD_TYPES).optional(),
    pickupFrom: isoDateTime.optional(),
    pickupTo: isoDateTime.optional(),
    sort: z.enum(['newest', 'pickup', 'price', 'ratePerKm', 'deadhead']).default('newest'),
  })
  .refine((q) => !q.pickupFrom || !q.pickupTo || Date.parse(q.pickupFrom) <= Date.parse(q.pickupTo), { message: 'v.dateRange', path: ['pickupTo'] });
export type SearchLoadsQuery = z.infer<typeof searchLoadsQuery>;
/** GET /loads → `{ items, total, totalCapped }`: the total is exact up to COUNT_CAP (1,000), then capped. */
export const loadListResponse = cappedListOf(loadSchema);

const tabCounts = <T extends z.ZodType>(v: T) => z.object({ posted: v, unposted: v, offers: v, active: v, finished: v });
/**
 * GET /my-loads?tab= → `{ items, total, totalCapped, counts, countsCapped }`: the page of one
 * tab; `counts` holds every tab's count, each exact up to COUNT_CAP (1,000) — when
 * `countsCapped[tab]` is true that tab has more ("1,000+"). `total`/`totalCapped` are the
 * selected tab's.
 */
export const myLoadsQuery = paginationQuery.extend({ tab: z.enum(MY_LOADS_TABS).default('posted') });
export const myLoadsResponse = cappedListOf(loadSchema).extend({
  counts: tabCounts(z.number().int().min(0).max(COUNT_CAP)),
  countsCapped: tabCounts(z.boolean()),
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
