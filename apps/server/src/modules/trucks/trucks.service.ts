import { LRUCache } from 'lru-cache';
import { INOUT_FIGURES_TTL_MS, type BoardCount, type InOutQuery, type SearchTrucksQuery } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { ttlMemo } from '../../lib/memo.ts';
import { pageFlights } from '../../lib/page-cache.ts';
import type { TrucksDeps, TrucksServiceDeps } from './deps.ts';
import { truckCacheStats, type CreateBody, type UpdateBody } from './trucks.shared.ts';
import { getTruck } from './use-cases/get-truck.ts';
import { createTruck } from './use-cases/create-truck.ts';
import { updateTruck } from './use-cases/update-truck.ts';
import { unpostTruck } from './use-cases/unpost-truck.ts';
import { repostTruck, type RepostBody } from './use-cases/repost-truck.ts';
import { duplicateTruck } from './use-cases/duplicate-truck.ts';
import { removeTruck } from './use-cases/remove-truck.ts';
import { myTrucks } from './use-cases/my-trucks.ts';
import { searchTrucks } from './use-cases/search-trucks.ts';
import { searchTrucksJson } from './use-cases/search-trucks-json.ts';
import { countTrucks } from './use-cases/count-trucks.ts';
import { matchingTrucks } from './use-cases/matching-trucks.ts';
import { matchingLoads } from './use-cases/matching-loads.ts';
import { truckBackhauls } from './use-cases/truck-backhauls.ts';
import { truckInOut } from './use-cases/truck-in-out.ts';
import { loadInOut } from './use-cases/load-in-out.ts';
import { expireDueTrucks } from './use-cases/expire-due-trucks.ts';

export { toTruck, truckCacheStats } from './trucks.shared.ts';
export type { LoadsForTrucks, TruckOwnerRecords } from './ports.ts';
export type { TrucksServiceDeps } from './deps.ts';

/** Remembered truck board counts (GET /searchTrucks/count) at most, least recently used out first. */
export const TRUCK_COUNTS_MAX = 5_000;

/**
 * Truck posts (issue 19; spec §2 post trucks / search trucks, §3 truck post, §4): post (or save
 * unposted), edit, unpost, repost, duplicate, delete; my trucks; the truck board search; matching
 * with loads both ways; the expiry job. Every status change goes through lifecycle.ts transition().
 * One use case per file in use-cases/; this factory fills in the defaults, builds the state the
 * service keeps (the board's single flight, the in/out figures' memo) and wires them.
 */
export function createTrucksService(input: TrucksServiceDeps) {
  const cacheTtlMs = input.cacheTtlMs ?? 0;
  const deps: TrucksDeps = {
    ...input,
    readDb: input.readDb ?? input.db,
    cacheTtlMs,
    serve: input.cache && cacheTtlMs > 0 ? pageFlights(input.cache, truckCacheStats) : null,
    areaFigures: ttlMemo(20_000, INOUT_FIGURES_TTL_MS),
  };
  const counts = new LRUCache<string, { v: number; n: BoardCount }>({ max: TRUCK_COUNTS_MAX, ttl: Math.max(1, cacheTtlMs) });

  return {
    get: (id: string, viewerId: string | null, via: DbOrTx = deps.db, withRecord = false) => getTruck(deps, id, viewerId, via, withRecord),
    /** Truck details (GET /truck/:id): as `get`, with the owner's fact-based record. */
    details: (id: string, viewerId: string | null) => getTruck(deps, id, viewerId, deps.db, true),
    create: (user: CurrentUser, b: CreateBody) => createTruck(deps, user, b),
    update: (user: CurrentUser, id: string, b: UpdateBody) => updateTruck(deps, user, id, b),
    unpost: (user: CurrentUser, id: string) => unpostTruck(deps, user, id),
    repost: (user: CurrentUser, id: string, b: RepostBody | undefined) => repostTruck(deps, user, id, b),
    duplicate: (user: CurrentUser, id: string) => duplicateTruck(deps, user, id),
    remove: (user: CurrentUser, id: string) => removeTruck(deps, user, id),
    mine: (user: CurrentUser, tab: 'all' | 'posted' | 'unposted' | 'expired', limit: number, cursor?: string) => myTrucks(deps, user, tab, limit, cursor),
    /** The truck board (GET /searchTrucks), read on the replica when there is one. */
    search: (q: SearchTrucksQuery, viewerId: string | null) => searchTrucks(deps, q, viewerId),
    searchJson: (q: SearchTrucksQuery, viewerId: string | null) => searchTrucksJson(deps, q, viewerId),
    /** The truck board's capped count (GET /searchTrucks/count), remembered under the origins' version. */
    count: (q: SearchTrucksQuery) => countTrucks({ ...deps, counts }, q),
    matchingTrucks: (user: CurrentUser, loadId: string, radiusKm: number | undefined, limit: number) => matchingTrucks(deps, user, loadId, radiusKm, limit),
    matchingLoads: (user: CurrentUser, truckId: string, radiusKm: number | undefined, limit: number) => matchingLoads(deps, user, truckId, radiusKm, limit),
    backhauls: (user: CurrentUser, truckId: string, q: { radius?: number; equipmentType?: string; limit: number }) => truckBackhauls(deps, user, truckId, q),
    truckInOut: (q: InOutQuery, viewerId: string | null, fresh = false) => truckInOut(deps, q, viewerId, fresh),
    loadInOut: (q: InOutQuery, viewerId: string | null, fresh = false) => loadInOut(deps, q, viewerId, fresh),
    expireDue: (batch = 500) => expireDueTrucks(deps, batch),
  };
}

export type TrucksService = ReturnType<typeof createTrucksService>;
