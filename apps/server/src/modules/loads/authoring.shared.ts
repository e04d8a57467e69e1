import { z } from 'zod';
import { ratePerKmSar, STOP_TYPE, type BookNowFor, type CargoLineInput, type createLoadBody, type StopInput } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { actingUser } from '../auth/auth.types.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import * as authoring from './authoring.repository.ts';
import * as repo from './loads.repository.ts';
import { transition } from './lifecycle.ts';
import type { AuthoringDeps } from './ports.ts';

/*
 * What the authoring use cases (use-cases/*.ts: create, edit, duplicate, audience, dates) share:
 * the owner's load, resolving stops and cargo against the reference data, the denormalised
 * columns, the terms and Book Now columns, the vendor audience and booking an own-vehicle load.
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Stops and cargo as given by a client (cityId, date…), resolved against the reference data. */
export interface Derived {
  stops: authoring.NewStop[];
  cargo: authoring.NewCargo[];
  distanceKm: number;
  totalWeightKg: number;
  pickup: authoring.NewStop;
  drop: authoring.NewStop;
}

/** The shipment-term columns of a create or edit body (only the fields given). */
type TermsBody = Partial<
  Pick<
    z.output<typeof createLoadBody>,
    | 'pickupLatest'
    | 'pickupHours'
    | 'dropHours'
    | 'paymentMethod'
    | 'paidBy'
    | 'paymentTermsDays'
    | 'detentionFreeHours'
    | 'detentionRateSar'
    | 'detentionCapSar'
    | 'deliveryType'
    | 'deliveryTo'
    | 'tradable'
    | 'paymentProtection'
  >
>;
export function termColumns(b: TermsBody): Partial<authoring.NewLoad> {
  const out: Partial<authoring.NewLoad> = {};
  if (b.pickupLatest !== undefined) out.pickupLatestAt = new Date(b.pickupLatest);
  if (b.pickupHours !== undefined) Object.assign(out, { pickupHoursFrom: b.pickupHours.from, pickupHoursTo: b.pickupHours.to });
  if (b.dropHours !== undefined) Object.assign(out, { dropHoursFrom: b.dropHours.from, dropHoursTo: b.dropHours.to });
  if (b.paymentMethod !== undefined) out.paymentMethod = b.paymentMethod;
  if (b.paidBy !== undefined) out.paidBy = b.paidBy;
  if (b.paymentTermsDays !== undefined) out.paymentTermsDays = b.paymentTermsDays;
  if (b.detentionFreeHours !== undefined) out.detentionFreeHours = b.detentionFreeHours;
  if (b.detentionRateSar !== undefined) out.detentionRate = b.detentionRateSar;
  if (b.detentionCapSar !== undefined) out.detentionCap = b.detentionCapSar;
  if (b.deliveryType !== undefined) out.deliveryType = b.deliveryType;
  if (b.deliveryTo !== undefined) out.deliveryTo = b.deliveryTo;
  if (b.tradable !== undefined) out.tradable = b.tradable;
  if (b.paymentProtection !== undefined) out.paymentProtection = b.paymentProtection;
  return out;
}

/**
 * The Book Now columns of a create or edit body (issue 19). Create: off unless asked, any
 * verified carrier by default. Edit: `bookNow: false` clears both; `bookNowFor` alone changes
 * who may only on a Book Now load. An own-vehicle shipment is never Book Now (it is booked).
 */
export function bookNowColumns(
  b: { bookNow?: boolean; bookNowFor?: BookNowFor },
  current: { bookNow: boolean; bookNowFor: BookNowFor | null } | null,
): Partial<authoring.NewLoad> {
  const on = b.bookNow ?? current?.bookNow ?? false;
  if (!on) return current?.bookNow || !current ? { bookNow: false, bookNowFor: null } : {};
  return { bookNow: true, bookNowFor: b.bookNowFor ?? current?.bookNowFor ?? 'verified' };
}

/** The load of `id` owned by `user`, locked for the rest of the transaction (NOT_FOUND otherwise). */
export async function ownLoad(tx: DbOrTx, user: CurrentUser, id: string): Promise<repo.LoadState> {
  const s = await repo.loadState(tx, id, 'update');
  if (!s || s.deleted || s.shipper_id !== user.id) throw new AppError('NOT_FOUND');
  return s;
}

export async function checkEquipment(tx: DbOrTx, code: string) {
  if (!(await authoring.equipmentExists(tx, code))) throw new AppError('INVALID_EQUIPMENT');
}

/** The cargo rows of a body's cargo lines, or of a load's stored ones (copied with new ids). */
function cargoRowsOf(cargo: CargoLineInput[] | authoring.NewCargo[]): authoring.NewCargo[] {
  return cargo.map((c, i) =>
    'idx' in c
      ? { ...c, id: newId(), idx: i }
      : {
          id: newId(),
          idx: i,
          goodsType: c.goodsType,
          lengthCm: c.lengthCm,
          widthCm: c.widthCm,
          heightCm: c.heightCm,
          quantity: c.quantity,
          weightPerItemKg: c.weightPerItemKg,
          stackable: c.stackable ?? false,
          adr: c.adr ?? false,
          conditions: c.conditions ?? null,
        },
  );
}

/** Resolve cities and goods types; compute distance (routing gateway), weight, first pickup and last drop. */
export async function derive(
  { routing }: Pick<AuthoringDeps, 'routing'>,
  tx: DbOrTx,
  stops: StopInput[],
  cargo: CargoLineInput[] | authoring.NewCargo[],
): Promise<Derived> {
  const cities = await authoring.findCities(
    tx,
    stops.map((s) => s.cityId),
  );
  const bad = stops.findIndex((s) => !cities.has(s.cityId));
  if (bad >= 0) throw new AppError('INVALID_CITY', { errors: [{ path: `stops.${bad}.cityId`, message: 'INVALID_CITY' }] });
  // a district must be one of its stop's city (reference ids are 11 digits: bigint)
  const districtIds = stops.flatMap((s) => (s.districtId == null ? [] : [s.districtId]));
  if (districtIds.length) {
    const cityOf = await authoring.districtCities(tx, districtIds);
    const wrong = stops.findIndex((s) => s.districtId != null && cityOf.get(s.districtId) !== s.cityId);
    if (wrong >= 0) throw new AppError('INVALID_DISTRICT', { errors: [{ path: `stops.${wrong}.districtId`, message: 'INVALID_DISTRICT' }] });
  }
  const stopRows: authoring.NewStop[] = stops.map((s, i) => {
    const c = cities.get(s.cityId)!;
    return {
      id: newId(),
      idx: i,
      stopType: s.stopType,
      cityId: s.cityId,
      districtId: s.districtId ?? null,
      address: s.address ?? null,
      addressDetails: s.addressDetails ?? null,
      lat: c.lat,
      lng: c.lng,
      date: new Date(s.date),
    };
  });
  const cargoRows = cargoRowsOf(cargo);
  const unknown = await authoring.unknownGoodsTypes(
    tx,
    cargoRows.map((c) => c.goodsType),
  );
  if (unknown.length) {
    const i = cargoRows.findIndex((c) => unknown.includes(c.goodsType));
    throw new AppError('INVALID_GOODS_TYPE', { errors: [{ path: `cargo.${i}.goodsType`, message: 'INVALID_GOODS_TYPE' }] });
  }
  const distanceKm = await routing.distanceKm(stopRows.map((s) => ({ lat: s.lat, lng: s.lng })));
  const totalWeightKg = round2(cargoRows.reduce((sum, c) => sum + c.quantity * c.weightPerItemKg, 0));
  const pickup = stopRows.find((s) => s.stopType === STOP_TYPE.pickup)!;
  const drop = [...stopRows].reverse().find((s) => s.stopType === STOP_TYPE.drop)!;
  return { stops: stopRows, cargo: cargoRows, distanceKm, totalWeightKg, pickup, drop };
}

/** The columns loadColumns always sets (create inserts them all). */
export type DerivedColumns = Required<
  Pick<
    authoring.NewLoad,
    | 'price'
    | 'distanceKm'
    | 'ratePerKm'
    | 'totalWeightKg'
    | 'pickupCityId'
    | 'pickupLat'
    | 'pickupLng'
    | 'pickupAt'
    | 'dropCityId'
    | 'dropLat'
    | 'dropLng'
    | 'dropAt'
  >
>;

/** Denormalised columns of a load from its stops, distance and price. */
export function loadColumns({ config }: Pick<AuthoringDeps, 'config'>, d: Derived, price: string): Partial<authoring.NewLoad> {
  return {
    price,
    distanceKm: d.distanceKm,
    // a load inside one city (distance < 1 km) is priced per its first km
    ratePerKm: ratePerKmSar(price, Math.max(d.distanceKm, 1)),
    totalWeightKg: d.totalWeightKg,
    pickupCityId: d.pickup.cityId,
    pickupLat: d.pickup.lat,
    pickupLng: d.pickup.lng,
    pickupAt: d.pickup.date,
    dropCityId: d.drop.cityId,
    dropLat: d.drop.lat,
    dropLng: d.drop.lng,
    dropAt: d.drop.date,
    expiresAt: new Date(d.pickup.date.getTime() + config.LOAD_EXPIRY_HOURS_AFTER_PICKUP * HOUR_MS),
  };
}

/**
 * The accounts of the chosen vendors (shipment type 2): each must be one of my vendors
 * (NOT_FOUND otherwise) with a registered carrier or broker account (VENDOR_NOT_LINKED).
 */
export async function vendorAudience(
  { vendors }: Pick<AuthoringDeps, 'vendors'>,
  tx: DbOrTx,
  user: CurrentUser,
  vendorIds: string[],
): Promise<{ vendorId: string; userId: string }[]> {
  const found = new Map((await vendors.accounts(tx, user.id, vendorIds)).map((r) => [r.vendorId, r.userId]));
  return vendorIds.map((vendorId, i) => {
    if (!found.has(vendorId)) throw new AppError('NOT_FOUND', { errors: [{ path: `vendorIds.${i}`, message: 'NOT_FOUND' }] });
    const userId = found.get(vendorId);
    if (!userId) throw new AppError('VENDOR_NOT_LINKED', { errors: [{ path: `vendorIds.${i}`, message: 'VENDOR_NOT_LINKED' }] });
    return { vendorId, userId };
  });
}

/** An own-vehicle shipment is booked at once (lifecycle 'book': unassigned, carrier = owner). */
export async function bookOwnVehicle(tx: DbOrTx, user: CurrentUser, id: string, price: string, data: Record<string, unknown>) {
  await transition(tx, id, 'book', actingUser(user), { ownVehicle: true, ...data }, { carrierId: user.id, bookedPrice: price, bookedAt: new Date() });
}

/** The pickup window's end may not be before the first pickup nor after the last drop. */
export function checkWindow(latest: Date | null | undefined, d: Derived) {
  if (!latest) return;
  if (latest < d.pickup.date) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'pickupLatest', message: 'v.pickupWindow' }] });
  if (latest > d.drop.date) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'pickupLatest', message: 'v.pickupWindowDrop' }] });
}
