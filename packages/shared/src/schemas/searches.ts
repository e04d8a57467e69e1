import { z } from 'zod';
import { SEARCH_PICKUP_RADIUS_KM } from '../constants.ts';
import { matchingLoadSchema } from './trucks.ts';

/**
 * Saved and recent searches (issue 19; spec §2 "saved and recent searches", §7 /recentLoads,
 * /recentLoadsState, /truckFilters, /recentTruckFilters; messages "duplicate search exists").
 * A search is a `kind` (the load board GET /loads, or the truck board GET /searchTrucks) and its
 * filters in query-string form, validated by that endpoint's own query schema.
 */
export const SEARCH_KINDS = ['loads', 'trucks'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
/** At most this many saved searches per user and kind (LIMIT_REACHED beyond). */
export const SAVED_SEARCHES_MAX = 50;
/** The recent searches kept per user and kind (older ones are dropped). */
export const RECENT_SEARCHES_MAX = 10;
/** Paging fields of the search queries: never part of a saved or recent search. */
export const SEARCH_PAGING_KEYS = ['limit', 'skip', 'cursor'] as const;

/** A search's filters as GET /loads or GET /searchTrucks takes them (query-string values; at most 20). */
export const searchFiltersSchema = z
  .record(z.string().min(1).max(40), z.union([z.string().max(300), z.number(), z.boolean()]))
  .refine((o) => Object.keys(o).length <= 20, { message: 'v.searchFilters' });
export type SearchFilters = z.infer<typeof searchFiltersSchema>;

const searchName = z.string().trim().min(1, 'v.searchName').max(80, 'v.searchName');
export const searchKindQuery = z.object({ kind: z.enum(SEARCH_KINDS) });

/** POST /savedSearches — save a search under a name (Idempotency-Key). */
export const createSavedSearchBody = z.object({ kind: z.enum(SEARCH_KINDS), name: searchName, filters: searchFiltersSchema });
export type CreateSavedSearchBody = z.infer<typeof createSavedSearchBody>;
/** PATCH /savedSearches/:id — rename. */
export const renameSavedSearchBody = z.object({ name: searchName });
/** POST /recentSearches — record a search the user ran (Idempotency-Key). */
export const recordRecentSearchBody = z.object({ kind: z.enum(SEARCH_KINDS), filters: searchFiltersSchema });

/** A saved search: `filters` normalised (validated, paging and defaults' noise removed, dates in UTC ISO). */
export const savedSearchSchema = z.object({
  id: z.uuid(),
  kind: z.enum(SEARCH_KINDS),
  name: z.string(),
  filters: searchFiltersSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;
/** A recent search (most recently run first). */
export const recentSearchSchema = z.object({ id: z.uuid(), kind: z.enum(SEARCH_KINDS), filters: searchFiltersSchema, usedAt: z.string() });
export type RecentSearch = z.infer<typeof recentSearchSchema>;
/** GET /savedSearches: every saved search of a kind (bounded by SAVED_SEARCHES_MAX), newest first. */
export const savedSearchList = z.object({ items: z.array(savedSearchSchema) });
/** GET /recentSearches: the last RECENT_SEARCHES_MAX searches of a kind, most recent first. */
export const recentSearchList = z.object({ items: z.array(recentSearchSchema) });

/**
 * GET /backHaulLoads?loadId=, GET /truck/:id/backhauls: the radius around the anchor city
 * (a spec radius option, default 200 km), an optional equipment filter, top-N (≤ 50).
 */
export const backhaulQuery = z.object({
  radius: z.coerce
    .number()
    .refine((v) => (SEARCH_PICKUP_RADIUS_KM as readonly number[]).includes(v), 'v.radiusOption')
    .optional(),
  equipmentType: z.string().max(60).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export const backhaulLoadsQuery = backhaulQuery.extend({ loadId: z.uuid() });
/**
 * Backhauls: `from` is where and when they start (the load's last drop city and delivery day,
 * or the truck's destination and last available day; `after` = that day's 00:00 in Riyadh, `until`
 * = 7 days later, exclusive);
 * items ranked by deadhead (km from that city to the pickup), then rate per km, highest first.
 */
export const backhaulsResponse = z.object({
  from: z.object({ cityId: z.number().int(), cityEn: z.string(), cityAr: z.string(), after: z.string(), until: z.string(), radiusKm: z.number() }),
  items: z.array(matchingLoadSchema),
});
export type BackhaulsResponse = z.infer<typeof backhaulsResponse>;
