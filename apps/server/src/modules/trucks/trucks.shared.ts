import type { z } from 'zod';
import {
  COUNT_CAP,
  formatPlate,
  INOUT_DEFAULT_DAYS,
  INOUT_RATIO_HOURS,
  type InOutDirection,
  type InOutQuery,
  plateFromStored,
  PROFILE_STATUS,
  TRUCK_WINDOW_MAX_DAYS,
  type createTruckBody,
  type Truck,
  type updateTruckBody,
} from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { publish } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import type { PageCacheStats } from '../../lib/page-cache.ts';
import * as repo from './trucks.repository.ts';
import type { TrucksDeps } from './deps.ts';

/* What several truck use cases share: the row → API mapping, reading trucks back, the owner's lock, the checks of a post. */

export const DAY_MS = 86_400_000;
/** Matching radius when neither the request nor the truck names one, km. */
export const DEFAULT_MATCH_RADIUS_KM = 200;

export type CreateBody = z.output<typeof createTruckBody>;
export type UpdateBody = z.output<typeof updateTruckBody>;

/** What the truck board's cache did in this process since start (PageCacheStats; bench/trucks.bench.ts reads it). */
export const truckCacheStats: PageCacheStats = { hits: 0, misses: 0, joined: 0, bypass: 0 };

/** The log's window: `from` (default now) to `to` (default from + INOUT_DEFAULT_DAYS days); the schema checked its length. */
export function inOutWindow(q: Pick<InOutQuery, 'from' | 'to'>): { from: Date; to: Date } {
  const from = q.from ? new Date(q.from) : new Date();
  return { from, to: q.to ? new Date(q.to) : new Date(from.getTime() + INOUT_DEFAULT_DAYS * DAY_MS) };
}

/** Counts of COUNT_CAP + 1 rows at most → `{ total, capped }` ("1,000+"). */
export const cappedCounts = (c: Record<InOutDirection, number>) => ({
  in: { total: Math.min(c.in, COUNT_CAP), capped: c.in > COUNT_CAP },
  out: { total: Math.min(c.out, COUNT_CAP), capped: c.out > COUNT_CAP },
});

const km1 = (m: number | null | undefined) => Math.round(Number(m ?? 0) / 100) / 10;

/** A truck row as the API shows it to `viewerId`. */
export function toTruck(r: repo.TruckRow, viewerId: string | null, deadheadKm?: number): Truck {
  const iso = (s: string) => new Date(s).toISOString();
  return {
    id: r.id,
    referenceId: r.reference_id,
    status: r.status === 'posted' && Date.parse(r.available_to) <= Date.now() ? 'expired' : r.status,
    loadType: r.load_type,
    equipmentType: r.equipment_type,
    availableFrom: iso(r.available_from),
    availableTo: iso(r.available_to),
    origin: { id: Number(r.origin_city_id), nameEn: r.origin_en, nameAr: r.origin_ar, lat: Number(r.origin_lat), lng: Number(r.origin_lng) },
    originRadiusKm: r.origin_radius_km,
    anywhere: r.anywhere,
    destinationCities: r.dest_cities ?? [],
    destinationRegions: r.dest_regions ?? [],
    minRateSar: Number(r.min_rate).toFixed(2),
    rateBasis: r.rate_basis,
    capacityKg: Number(r.capacity_kg),
    pallets: r.pallets,
    spaceCm: r.space_cm,
    comments: r.comments,
    vehicle: r.vehicle_id
      ? {
          id: r.vehicle_id,
          plate: formatPlate(plateFromStored(r.plate_digits ?? '', r.plate_letters ?? '')),
          vehicleType: r.vehicle_type ?? '',
          waslStatus: r.wasl_status ?? 'not_submitted',
          trailer: r.trailer_id ? { id: r.trailer_id, trailerNumber: r.trailer_number ?? '', trailerType: r.trailer_type ?? '' } : null,
        }
      : null,
    ownerId: r.owner_id,
    company: r.company,
    verified: Number(r.owner_status) === PROFILE_STATUS.approved,
    postedAt: r.posted_at ? iso(r.posted_at) : null,
    createdAt: iso(r.created_at),
    isMine: viewerId === r.owner_id,
    ...(deadheadKm !== undefined ? { deadheadKm } : {}),
  };
}

/** The trucks of `ids` in that order; with `withRecord` each carries its owner's record (search results, details). */
export async function hydrated(
  deps: Pick<TrucksDeps, 'records'>,
  via: DbOrTx,
  ids: { id: string; dist_m?: number | null }[],
  viewerId: string | null,
  withRecord = false,
): Promise<Truck[]> {
  const rows = await repo.hydrate(
    via,
    ids.map((i) => i.id),
  );
  const records =
    withRecord && deps.records
      ? await deps.records.carriers(
          via,
          [...rows.values()].map((r) => r.owner_id),
        )
      : null;
  return ids.flatMap((i) => {
    const r = rows.get(i.id);
    if (!r) return [];
    const t = toTruck(r, viewerId, i.dist_m == null ? undefined : km1(i.dist_m));
    const record = records?.get(r.owner_id);
    return [record ? { ...t, record } : t];
  });
}

/** The truck of `id` owned by `user` (NOT_FOUND otherwise), locked. */
export async function ownTruck(tx: DbOrTx, user: CurrentUser, id: string): Promise<repo.TruckState> {
  const s = await repo.truckState(tx, id, true);
  if (!s || s.status === 'deleted' || s.owner_id !== user.id) throw new AppError('NOT_FOUND');
  return s;
}

/** Check the references of a create or edit: cities, regions, equipment, my vehicle and trailer. */
export async function checkRefs(tx: DbOrTx, user: CurrentUser, b: Partial<CreateBody>) {
  const cityIds = [...(b.originCityId != null ? [b.originCityId] : []), ...(b.destinationCityIds ?? [])];
  const cities = await repo.existingCities(tx, cityIds);
  const badCity = cityIds.find((c) => !cities.has(c));
  if (badCity !== undefined) {
    const path = badCity === b.originCityId ? 'originCityId' : `destinationCityIds.${b.destinationCityIds!.indexOf(badCity)}`;
    throw new AppError('INVALID_CITY', { errors: [{ path, message: 'INVALID_CITY' }] });
  }
  if (b.destinationRegionIds?.length) {
    const regions = await repo.existingRegions(tx, b.destinationRegionIds);
    const bad = b.destinationRegionIds.findIndex((r) => !regions.has(r));
    if (bad >= 0) throw new AppError('INVALID_REGION', { errors: [{ path: `destinationRegionIds.${bad}`, message: 'INVALID_REGION' }] });
  }
  if (b.equipmentType !== undefined && !(await repo.equipmentExists(tx, b.equipmentType))) throw new AppError('INVALID_EQUIPMENT');
  if (b.vehicleId && !(await repo.ownVehicle(tx, user.id, b.vehicleId)))
    throw new AppError('TRUCK_VEHICLE_INVALID', { errors: [{ path: 'vehicleId', message: 'TRUCK_VEHICLE_INVALID' }] });
  if (b.trailerId && !(await repo.ownTrailer(tx, user.id, b.trailerId)))
    throw new AppError('TRUCK_VEHICLE_INVALID', { errors: [{ path: 'trailerId', message: 'TRUCK_VEHICLE_INVALID' }] });
}

/** The window of a post: `to` defaults to a day after `from`; at most TRUCK_WINDOW_MAX_DAYS long, ending in the future. */
export function windowOf(fromIso: string | Date, toIso: string | Date | undefined): { availableFrom: Date; availableTo: Date } {
  const availableFrom = new Date(fromIso);
  const availableTo = toIso ? new Date(toIso) : new Date(availableFrom.getTime() + DAY_MS);
  const bad = (message: string) => new AppError('VALIDATION_FAILED', { errors: [{ path: 'availableTo', message }] });
  if (availableTo < availableFrom) throw bad('v.dateRange');
  if (availableTo.getTime() - availableFrom.getTime() > TRUCK_WINDOW_MAX_DAYS * DAY_MS) throw bad('v.truckWindow');
  if (availableTo.getTime() <= Date.now()) throw bad('v.truckWindowPast');
  return { availableFrom, availableTo };
}

/** truck.created for a truck saved unposted (create) or copied (duplicate, with `duplicateOf`). */
export async function publishCreated(tx: DbOrTx, user: CurrentUser, id: string, duplicateOf?: string) {
  const s = (await repo.truckState(tx, id))!;
  await publish(tx, {
    type: 'truck.created',
    aggregateType: 'account',
    aggregateId: user.id,
    actorId: user.actorId ?? user.id,
    data: { accountId: user.id, truckId: id, referenceId: s.reference_id, ...(duplicateOf ? { duplicateOf } : {}) },
  });
}

/**
 * The area's load-to-truck ratio: loads and trucks posted in the circle in the last
 * INOUT_RATIO_HOURS hours, kept INOUT_FIGURES_TTL_MS per area unless `fresh`.
 */
export function areaRatio(deps: Pick<TrucksDeps, 'areaFigures' | 'loads' | 'readDb'>, cityId: number, radius: number | undefined, fresh: boolean) {
  return deps.areaFigures(
    `ratio:${cityId}:${radius ?? 0}`,
    async () => {
      const since = new Date(Date.now() - INOUT_RATIO_HOURS * 3_600_000);
      const [loads, trucks] = await Promise.all([
        deps.loads.loadsPostedInArea(cityId, radius, since),
        repo.trucksPostedInArea(deps.readDb, cityId, radius, since),
      ]);
      return { loads, trucks, ratio: trucks ? Math.round((loads / trucks) * 100) / 100 : null, hours: INOUT_RATIO_HOURS };
    },
    fresh,
  );
}
