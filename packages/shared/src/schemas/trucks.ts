import { z } from 'zod';
import { LIMITS, LOAD_TYPES, SEARCH_PICKUP_RADIUS_KM } from '../constants.ts';
import { INT4_MAX } from '../input.ts';
import { moneySar, moneySarOut } from '../money-schemas.ts';
import { isoDateTime, refId } from './common.ts';
import { accountRecordSchema } from './records.ts';

/**
 * Truck posts (issue 19; spec §2 post trucks / search trucks, §3 truck post, §4): a carrier or
 * broker offers capacity — where and when a truck is free, where it may go, at what minimum rate.
 *
 * Statuses: `posted` (on the truck board), `unposted` (saved, hidden from everyone but its owner;
 * spec §4 "an unposted truck is hidden from TMS users"), `expired` (its availability window ended
 * while posted: the expiry job), `deleted`. Every change goes through the server's truck
 * `transition()` (TRUCK_TRANSITIONS below) and publishes its event (TRUCK_ACTION_EVENT).
 */
export const TRUCK_STATUSES = ['posted', 'unposted', 'expired', 'deleted'] as const;
export type TruckStatus = (typeof TRUCK_STATUSES)[number];
export const TRUCK_ACTIONS = ['post', 'unpost', 'repost', 'expire', 'delete'] as const;
export type TruckAction = (typeof TRUCK_ACTIONS)[number];

/** from → action → to: every allowed truck status change, once. */
export const TRUCK_TRANSITIONS: Record<TruckStatus, Partial<Record<TruckAction, TruckStatus>>> = {
  unposted: { post: 'posted', repost: 'posted', delete: 'deleted' },
  posted: { unpost: 'unposted', expire: 'expired', delete: 'deleted' },
  expired: { repost: 'posted', delete: 'deleted' },
  deleted: {},
};
export const truckTransition = (from: TruckStatus, action: TruckAction): TruckStatus | null => TRUCK_TRANSITIONS[from]?.[action] ?? null;

/** The event each truck action publishes (packages/shared events.ts). */
export const TRUCK_ACTION_EVENT = {
  post: 'truck.posted',
  repost: 'truck.posted',
  unpost: 'truck.unposted',
  expire: 'truck.expired',
  delete: 'truck.deleted',
} as const satisfies Record<TruckAction, string>;

/** Minimum rate basis: SAR for the whole trip, or SAR per km. */
export const TRUCK_RATE_BASIS = ['trip', 'km'] as const;
/** How many destinations (cities and regions) one truck post may name. */
export const TRUCK_DESTINATIONS_MAX = 10;
/** The longest availability window of one post, days. */
export const TRUCK_WINDOW_MAX_DAYS = 30;
/** Truck search sorts: deadhead (nearest to my pickup first), date (earliest availability), rate (lowest minimum rate). */
export const TRUCK_SORTS = ['deadhead', 'date', 'rate'] as const;
/** My trucks tabs (GET /trucks?tab=). */
export const MY_TRUCKS_TABS = ['all', 'posted', 'unposted', 'expired'] as const;

const cityId = z.number({ error: 'v.cityInvalid' }).int('v.cityInvalid').positive('v.cityInvalid').max(INT4_MAX, 'v.cityInvalid');
const regionId = z.number({ error: 'v.regionInvalid' }).int('v.regionInvalid').positive('v.regionInvalid').max(INT4_MAX, 'v.regionInvalid');
const radiusKm = z
  .number()
  .refine((v) => (SEARCH_PICKUP_RADIUS_KM as readonly number[]).includes(v), 'v.radiusOption')
  .optional();

/**
 * Where the truck may go: `anywhere`, or one or more cities and/or regions (spec §3 truck post:
 * "destination city, region or anywhere; several allowed").
 */
const destinationFields = {
  anywhere: z.boolean().default(false),
  destinationCityIds: z.array(cityId).max(TRUCK_DESTINATIONS_MAX, 'v.truckDestinations').default([]),
  destinationRegionIds: z.array(regionId).max(TRUCK_DESTINATIONS_MAX, 'v.truckDestinations').default([]),
};

const truckFields = {
  loadType: z.enum(LOAD_TYPES),
  equipmentType: z.string({ error: 'v.equipmentRequired' }).min(1, 'v.equipmentRequired').max(60),
  /** Start of availability (a date or the start of a range), ISO date-time. */
  availableFrom: isoDateTime,
  /** End of availability; absent: the end of the start's day (+24 h). The post expires then. */
  availableTo: isoDateTime.optional(),
  originCityId: cityId,
  /** How far from its origin the truck will go to pick up, km (spec radius options). */
  originRadiusKm: radiusKm,
  ...destinationFields,
  /** Minimum rate, SAR (decimal string), per trip or per km. */
  minRateSar: moneySar,
  rateBasis: z.enum(TRUCK_RATE_BASIS).default('trip'),
  /** Available capacity, kg. */
  capacityKg: z
    .number({ error: 'v.truckCapacity' })
    .positive('v.truckCapacity')
    .max(LIMITS.vehicleMaxWeightTons * 1000, 'v.truckCapacity'),
  /** LTL: free pallet places and/or free deck length (cm). */
  pallets: z.number().int().min(1, 'v.numberRange').max(60, 'v.numberRange').optional(),
  spaceCm: z.number().int().min(1, 'v.numberRange').max(3000, 'v.numberRange').optional(),
  /** A vehicle (and trailer) of my fleet (optional). */
  vehicleId: z.uuid().optional(),
  trailerId: z.uuid().optional(),
  comments: z.string().trim().max(LIMITS.commentsMax, 'v.commentsMax').optional(),
};

interface TruckLike {
  availableFrom?: string;
  availableTo?: string;
  anywhere?: boolean;
  destinationCityIds?: number[];
  destinationRegionIds?: number[];
}
/** Window order and length, and at least one destination (or anywhere). */
function checkTruck(b: TruckLike, ctx: z.RefinementCtx, partial: boolean) {
  if (b.availableFrom && b.availableTo) {
    const from = Date.parse(b.availableFrom);
    const to = Date.parse(b.availableTo);
    if (to < from) ctx.addIssue({ code: 'custom', message: 'v.dateRange', path: ['availableTo'] });
    else if (to - from > TRUCK_WINDOW_MAX_DAYS * 86_400_000) ctx.addIssue({ code: 'custom', message: 'v.truckWindow', path: ['availableTo'] });
  }
  const end = b.availableTo ?? (b.availableFrom ? new Date(Date.parse(b.availableFrom) + 86_400_000).toISOString() : undefined);
  if (end && Date.parse(end) < Date.now()) ctx.addIssue({ code: 'custom', message: 'v.truckWindowPast', path: ['availableTo'] });
  const named = (b.destinationCityIds?.length ?? 0) + (b.destinationRegionIds?.length ?? 0);
  if (!partial && !b.anywhere && named === 0) ctx.addIssue({ code: 'custom', message: 'v.truckDestinations', path: ['destinationCityIds'] });
  if (named > TRUCK_DESTINATIONS_MAX) ctx.addIssue({ code: 'custom', message: 'v.truckDestinations', path: ['destinationCityIds'] });
}

/** POST /truck — post a truck (post=false: save it unposted). */
export const createTruckBody = z.object({ ...truckFields, post: z.boolean().default(true) }).superRefine((b, ctx) => checkTruck(b, ctx, false));
export type CreateTruckBody = z.input<typeof createTruckBody>;

/** PATCH /truck/:id — any subset; destinations replace the whole list when given. */
export const updateTruckBody = z
  .object({
    ...truckFields,
    // no defaults here: zod 4 applies a default inside .partial(), so an edit of the rate alone
    // would reset the rate basis to "trip" and the destinations to none (refused)
    anywhere: z.boolean(),
    destinationCityIds: z.array(cityId).max(TRUCK_DESTINATIONS_MAX, 'v.truckDestinations'),
    destinationRegionIds: z.array(regionId).max(TRUCK_DESTINATIONS_MAX, 'v.truckDestinations'),
    rateBasis: z.enum(TRUCK_RATE_BASIS),
  })
  .partial()
  .superRefine((b, ctx) => checkTruck(b, ctx, true));
export type UpdateTruckBody = z.input<typeof updateTruckBody>;

/** POST /truck/:id/repost — optionally a new availability window (needed when the old one ended). */
export const repostTruckBody = z
  .object({ availableFrom: isoDateTime.optional(), availableTo: isoDateTime.optional() })
  .superRefine((b, ctx) => checkTruck(b, ctx, true))
  .default({});

const named = z.object({ id: z.number().int(), nameEn: z.string(), nameAr: z.string() });

/** A truck post as the API returns it. */
export const truckSchema = z.object({
  id: z.uuid(),
  referenceId: z.string(),
  status: z.enum(TRUCK_STATUSES),
  loadType: z.enum(LOAD_TYPES),
  equipmentType: z.string(),
  availableFrom: z.string(),
  availableTo: z.string(),
  origin: named.extend({ lat: z.number(), lng: z.number() }),
  originRadiusKm: z.number().int().nullable(),
  anywhere: z.boolean(),
  destinationCities: z.array(named),
  destinationRegions: z.array(named),
  minRateSar: moneySarOut,
  rateBasis: z.enum(TRUCK_RATE_BASIS),
  capacityKg: z.number(),
  pallets: z.number().int().nullable(),
  spaceCm: z.number().int().nullable(),
  comments: z.string().nullable(),
  /** The vehicle of my fleet: plate, WASL status and its trailer (null when none was chosen). */
  vehicle: z
    .object({
      id: z.uuid(),
      plate: z.string(),
      vehicleType: z.string(),
      waslStatus: z.string(),
      trailer: z.object({ id: z.uuid(), trailerNumber: z.string(), trailerType: z.string() }).nullable(),
    })
    .nullable(),
  ownerId: z.uuid(),
  /** The carrier's (or broker's) company and whether its account is verified (approved). */
  company: z.string(),
  verified: z.boolean(),
  postedAt: z.string().nullable(),
  createdAt: z.string(),
  isMine: z.boolean(),
  /** Distance from the searched pickup city (or the load's pickup) to the truck's origin, km (search and matching only). */
  deadheadKm: z.number().optional(),
  /** The owner's fact-based record (issue 19; docs/account-record.md): on search results and truck details. */
  record: accountRecordSchema.optional(),
});
export type Truck = z.infer<typeof truckSchema>;

/** A page of trucks and the keyset cursor of the next one (null: last page). No total: the truck board is unbounded. */
export const truckPage = z.object({ items: z.array(truckSchema), nextCursor: z.string().nullable() });
export type TruckPage = z.infer<typeof truckPage>;

const pageFields = {
  limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(20),
  cursor: z.string().min(1).max(300).optional(),
};

/** GET /trucks — my truck posts (newest first), by tab. */
export const myTrucksQuery = z.object({ ...pageFields, tab: z.enum(MY_TRUCKS_TABS).default('all') });

/**
 * GET /searchTrucks (spec §2 search trucks): posted trucks whose origin is within `radius` km of
 * `originCityId` (without radius: that city); `destinationCityId`: trucks going there (its city
 * or its region named, or "anywhere"); equipment; `date`: available on that day; minimum capacity.
 */
export const searchTrucksQuery = z.object({
  ...pageFields,
  originCityId: refId().optional(),
  radius: z.coerce
    .number()
    .refine((v) => (SEARCH_PICKUP_RADIUS_KM as readonly number[]).includes(v), 'v.radiusOption')
    .optional(),
  destinationCityId: refId().optional(),
  equipmentType: z.string().max(60).optional(),
  loadType: z.enum(LOAD_TYPES).optional(),
  date: isoDateTime.optional(),
  minCapacityKg: z.coerce.number().positive().max(1_000_000).optional(),
  sort: z.enum(TRUCK_SORTS).default('deadhead'),
});
export type SearchTrucksQuery = z.infer<typeof searchTrucksQuery>;

/** GET /truckFilters — what the truck search offers. */
export const truckFiltersResponse = z.object({
  radiusOptionsKm: z.array(z.number()),
  sorts: z.array(z.enum(TRUCK_SORTS)),
  loadTypes: z.array(z.enum(LOAD_TYPES)),
  rateBasis: z.array(z.enum(TRUCK_RATE_BASIS)),
  destinationsMax: z.number().int(),
  windowMaxDays: z.number().int(),
});

/** GET /loads/:id/matching-trucks and /truck/:id/matching-loads: radius around the pickup (default: the truck's radius, else 200 km). */
export const matchingQuery = z.object({
  radius: z.coerce
    .number()
    .refine((v) => (SEARCH_PICKUP_RADIUS_KM as readonly number[]).includes(v), 'v.radiusOption')
    .optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

/** A load that matches a truck (compact: the lane, date, weight, price, rate per km, deadhead). */
export const matchingLoadSchema = z.object({
  id: z.uuid(),
  referenceId: z.string(),
  equipmentType: z.string(),
  loadType: z.enum(LOAD_TYPES),
  pickupCityId: z.number().int(),
  pickupCityEn: z.string(),
  pickupCityAr: z.string(),
  dropCityId: z.number().int(),
  dropCityEn: z.string(),
  dropCityAr: z.string(),
  pickupAt: z.string(),
  totalWeightKg: z.number(),
  priceSar: moneySarOut,
  ratePerKmSar: moneySarOut,
  distanceKm: z.number(),
  deadheadKm: z.number(),
  shipperCompany: z.string(),
});
export const matchingLoadsResponse = z.object({ items: z.array(matchingLoadSchema) });
export const matchingTrucksResponse = z.object({
  items: z.array(truckSchema.extend({ deadheadKm: z.number(), ratePerKmSar: moneySarOut.nullable() })),
});
export type MatchingLoadsResponseData = z.infer<typeof matchingLoadsResponse>;
