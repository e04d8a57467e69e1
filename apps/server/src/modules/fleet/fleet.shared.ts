import type { z } from 'zod';
import {
  ACCOUNT_TYPE,
  formatPlate,
  plateFromStored,
  storedPlateLetters,
  initialWaslStatus,
  plateLatin,
  type Driver,
  type driverInput,
  type driverUpdate,
  type Trailer,
  type trailerInput,
  type trailerUpdate,
  type Vehicle,
  type vehicleInput,
  type WaslResultView,
  type vehicleUpdate,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { AppError, dbErrorCode } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { FleetFiles } from './deps.ts';
import * as repo from './fleet.repository.ts';
import { publish } from '../events/events.service.ts';
import { WaslUnavailableError, type WaslResult } from '../../gateways/wasl/wasl.ts';

/** What the fleet's use cases share: input types, row builders, API views, ownership and reference checks, WASL plumbing. */

export type VehicleIn = z.output<typeof vehicleInput>;
export type VehicleUpd = z.output<typeof vehicleUpdate>;
export type TrailerIn = z.output<typeof trailerInput>;
export type TrailerUpd = z.output<typeof trailerUpdate>;
export type DriverIn = z.output<typeof driverInput>;
export type DriverUpd = z.output<typeof driverUpdate>;
/** The state a vehicle, trailer or driver is set to (delete is soft). */
export type FleetState = repo.State;

const iso = (d: Date) => d.toISOString();

// ---------- unique violations ----------
/** Map a unique-index violation to its domain error. */
function uniqueError(e: unknown): AppError | null {
  if (dbErrorCode(e) !== '23505') return null;
  const msg = String((e as { cause?: { message?: string }; message?: string }).cause?.message ?? (e as { message?: string }).message ?? '');
  const c = (e as { cause?: { constraint?: string } }).cause?.constraint ?? '';
  const has = (n: string) => c === n || msg.includes(n);
  if (has('vehicles_plate_unique')) return new AppError('DUPLICATE_PLATE');
  if (has('vehicles_driver_unique')) return new AppError('DRIVER_ALREADY_ASSIGNED');
  if (has('vehicles_trailer_unique')) return new AppError('TRAILER_ALREADY_LINKED');
  if (has('trailers_owner_number')) return new AppError('DUPLICATE_TRAILER_NUMBER');
  if (has('drivers_moi_unique')) return new AppError('MOI_EXISTS');
  if (has('drivers_owner_id_number')) return new AppError('DRIVER_EXISTS');
  return null;
}
/** Run `fn`; a unique-index violation it throws becomes its domain error (a race the pre-checks lost). */
export async function mapUnique<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw uniqueError(e) ?? e;
  }
}

// ---------- new rows ----------
/** A new vehicle row from a validated input (no DB checks). */
export function vehicleRow(ownerId: string, b: VehicleIn): repo.NewVehicle {
  return {
    id: newId(),
    ownerId,
    vehicleType: b.vehicleType,
    year: b.year,
    make: b.make,
    model: b.model,
    colour: b.colour,
    plateType: b.plateType,
    plateDigits: b.plate.digits,
    plateLetters: storedPlateLetters(b.plate),
    registrationNumber: b.registrationNumber ?? null,
    sequenceNumber: b.sequenceNumber,
    imei: b.imei ?? null,
    weightKg: b.weightKg,
    waslStatus: initialWaslStatus(b.weightKg),
    source: b.source,
    vendorId: b.source === 'vendor' ? (b.vendorId ?? null) : null,
    driverId: b.driverId ?? null,
    trailerId: b.trailerId ?? null,
    insuranceFileIds: b.insuranceFileIds,
    imageFileIds: b.imageFileIds,
  };
}
/** A new trailer row from a validated input (no DB checks). */
export function trailerRow(ownerId: string, b: TrailerIn): repo.NewTrailer {
  return { id: newId(), ownerId, ...b };
}
/** A new driver row from a validated input (no DB checks). */
export function driverRow(ownerId: string, b: DriverIn): repo.NewDriver {
  return {
    id: newId(),
    ownerId,
    salutation: b.salutation,
    firstName: b.firstName,
    lastName: b.lastName,
    nationality: b.nationality,
    dateOfBirth: b.dateOfBirth,
    photoFileId: b.photoFileId ?? null,
    phone: b.phone,
    managerName: b.managerName ?? null,
    managerPhone: b.managerPhone ?? null,
    licenceNumber: b.licenceNumber,
    driverIdNumber: b.driverIdNumber,
    iqamaIssueCount: b.iqamaIssueCount ?? null,
    companyCr: b.companyCr ?? null,
    moiNumber: b.moiNumber ?? null,
    iqamaFileIds: b.iqamaFileIds,
    licenceFileIds: b.licenceFileIds,
  };
}

// ---------- views (row → API) ----------
/** The files of `ids` that `refs` knows, in order (a file gone since is left out). */
const filesOf = <F>(refs: Map<string, F>, ids: string[]) => ids.map((id) => refs.get(id)).filter((x): x is F => Boolean(x));

export async function vehicleViews(files: FleetFiles, tx: DbOrTx, rows: repo.VehicleView[]): Promise<Vehicle[]> {
  const refs = await files.fileRefs(
    tx,
    rows.flatMap((r) => [...r.insuranceFileIds, ...r.imageFileIds]),
  );
  return rows.map((r) => {
    const plate = plateFromStored(r.plateDigits, r.plateLetters);
    return {
      id: r.id,
      vehicleType: r.vehicleType,
      year: r.year,
      make: r.make,
      model: r.model,
      colour: r.colour,
      plateType: r.plateType,
      plate,
      plateText: formatPlate(plate),
      plateLatin: [plate.left, plate.middle, plate.right].map(plateLatin).join(''),
      registrationNumber: r.registrationNumber,
      sequenceNumber: r.sequenceNumber,
      imei: r.imei,
      weightKg: r.weightKg,
      waslStatus: r.waslStatus,
      waslReasons: r.waslReasons,
      state: r.state,
      availability: r.availability,
      source: r.source,
      vendorId: r.vendorId,
      driverId: r.driverId,
      driverName: r.driverFirstName ? `${r.driverFirstName} ${r.driverLastName ?? ''}`.trim() : null,
      trailerId: r.trailerId,
      trailerNumber: r.trailerNumber,
      insuranceFiles: filesOf(refs, r.insuranceFileIds),
      imageFiles: filesOf(refs, r.imageFileIds),
      createdAt: iso(r.createdAt),
      updatedAt: iso(r.updatedAt),
    };
  });
}
export async function trailerViews(tx: DbOrTx, rows: repo.TrailerRow[]): Promise<Trailer[]> {
  const links = await repo.vehiclesOfTrailers(
    tx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    trailerType: r.trailerType,
    trailerNumber: r.trailerNumber,
    lengthCm: r.lengthCm,
    breadthCm: r.breadthCm,
    capacityKg: r.capacityKg,
    supportedVehicleTypes: r.supportedVehicleTypes,
    state: r.state,
    vehicleId: links.get(r.id) ?? null,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  }));
}
export async function driverViews(files: FleetFiles, tx: DbOrTx, ownerId: string, rows: repo.DriverRow[]): Promise<Driver[]> {
  const ids = rows.map((r) => r.id);
  const [links, trusted, refs] = await Promise.all([
    repo.vehiclesOfDrivers(tx, ids),
    repo.trustedSet(tx, ownerId, ids),
    files.fileRefs(
      tx,
      rows.flatMap((r) => [...r.iqamaFileIds, ...r.licenceFileIds, ...(r.photoFileId ? [r.photoFileId] : [])]),
    ),
  ]);
  return rows.map((r) => ({
    id: r.id,
    salutation: r.salutation,
    firstName: r.firstName,
    lastName: r.lastName,
    nationality: r.nationality,
    dateOfBirth: r.dateOfBirth,
    phone: r.phone,
    managerName: r.managerName,
    managerPhone: r.managerPhone,
    licenceNumber: r.licenceNumber,
    driverIdNumber: r.driverIdNumber,
    iqamaIssueCount: r.iqamaIssueCount,
    companyCr: r.companyCr,
    moiNumber: r.moiNumber,
    photo: (r.photoFileId && refs.get(r.photoFileId)) || null,
    iqamaFiles: filesOf(refs, r.iqamaFileIds),
    licenceFiles: filesOf(refs, r.licenceFileIds),
    state: r.state,
    waslStatus: r.waslStatus,
    waslReasons: r.waslReasons,
    vehicleId: links.get(r.id) ?? null,
    trusted: trusted.has(r.id),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  }));
}

// ---------- ownership and reference checks ----------
/** The row, or NOT_FOUND: another owner's row (or a deleted one) answers 404, never 403. */
function found<T>(row: T | undefined): T {
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}
/** The caller's live vehicle `id` (NOT_FOUND otherwise); `forUpdate` locks its row. */
export async function mustVehicle(tx: DbOrTx, user: CurrentUser, id: string, forUpdate = false) {
  return found(await repo.getVehicle(tx, user.id, id, forUpdate));
}
/** The caller's live driver `id` (NOT_FOUND otherwise). */
export async function mustDriver(tx: DbOrTx, user: CurrentUser, id: string) {
  return found(await repo.getDriver(tx, user.id, id));
}
/** The caller's live trailer `id` (NOT_FOUND otherwise). */
export async function mustTrailer(tx: DbOrTx, user: CurrentUser, id: string) {
  return found(await repo.getTrailer(tx, user.id, id));
}

const PARTS = {
  driver: { get: repo.getDriver, vehicleOf: repo.vehicleOfDriver, path: 'driverId', taken: 'DRIVER_ALREADY_ASSIGNED' },
  trailer: { get: repo.getTrailer, vehicleOf: repo.vehicleOfTrailer, path: 'trailerId', taken: 'TRAILER_ALREADY_LINKED' },
} as const;
/**
 * Driver or trailer `id` of the caller, not suspended and free (not on another live vehicle than
 * `vehicleId`). Errors: NOT_FOUND (with the field's path) when not theirs, FLEET_ITEM_SUSPENDED,
 * DRIVER_ALREADY_ASSIGNED / TRAILER_ALREADY_LINKED.
 */
export async function checkFree(tx: DbOrTx, user: CurrentUser, kind: keyof typeof PARTS, id: string, vehicleId?: string) {
  const part = PARTS[kind];
  const row = await part.get(tx, user.id, id);
  if (!row) throw new AppError('NOT_FOUND', { errors: [{ path: part.path, message: 'NOT_FOUND' }] });
  if (row.state === 'suspended') throw new AppError('FLEET_ITEM_SUSPENDED');
  const on = await part.vehicleOf(tx, id);
  if (on && on !== vehicleId) throw new AppError(part.taken);
}
/**
 * What a vehicle input refers to: a known equipment type, a vendor of the caller (vendor
 * source; never for a shipper: WRONG_ROLE), a free driver and trailer of the caller, files of
 * the caller. `vehicleId`: the vehicle being edited (its own driver and trailer count as free).
 */
export async function checkVehicleRefs(files: FleetFiles, tx: DbOrTx, user: CurrentUser, b: Partial<VehicleIn>, vehicleId?: string) {
  if (b.vehicleType !== undefined && !(await repo.equipmentExists(tx, b.vehicleType))) throw new AppError('INVALID_EQUIPMENT');
  if (b.source === 'vendor' && user.accountType === ACCOUNT_TYPE.shipper) throw new AppError('WRONG_ROLE');
  if (b.source === 'vendor' && b.vendorId && !(await repo.vendorOwned(tx, user.id, b.vendorId))) throw new AppError('INVALID_VENDOR');
  if (b.driverId) await checkFree(tx, user, 'driver', b.driverId, vehicleId);
  if (b.trailerId) await checkFree(tx, user, 'trailer', b.trailerId, vehicleId);
  await files.ownedFiles(tx, user.id, [...(b.insuranceFileIds ?? []), ...(b.imageFileIds ?? [])]);
}

// ---------- state changes ----------
/** What setting state `S` answers: null for a delete, the item `T` otherwise. */
export type StateAnswer<S extends FleetState, T> = S extends 'deleted' ? null : T;
/**
 * Set an item's state in one transaction (`change` checks and writes); a deleted item answers
 * null, any other state the item as `view` reads it after the commit.
 */
export async function changeState<S extends FleetState, T>(
  db: Db,
  to: S,
  change: (tx: DbOrTx) => Promise<void>,
  view: () => Promise<T>,
): Promise<StateAnswer<S, T>> {
  await db.transaction(change);
  return (to === 'deleted' ? null : await view()) as StateAnswer<S, T>;
}

// ---------- WASL ----------
/** Ask WASL; its outage is WASL_UNAVAILABLE and the status stays as it was. */
export async function askWasl(call: () => Promise<WaslResult>): Promise<WaslResult> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof WaslUnavailableError) throw new AppError('WASL_UNAVAILABLE');
    throw e;
  }
}
/** vehicle.wasl_changed / driver.wasl_changed, in the transaction of the update, when the status changed. */
async function waslChanged(tx: DbOrTx, user: CurrentUser, kind: 'vehicle' | 'driver', id: string, from: string, to: string): Promise<void> {
  if (from === to) return;
  await publish(tx, {
    type: kind === 'vehicle' ? 'vehicle.wasl_changed' : 'driver.wasl_changed',
    aggregateType: 'account',
    aggregateId: user.id,
    actorId: user.actorId ?? user.id,
    data: { accountId: user.id, [kind === 'vehicle' ? 'vehicleId' : 'driverId']: id, status: { from, to } },
  });
}
/**
 * Store the WASL status of vehicle or driver `id` (was `from`), checked at `at`, and publish its
 * change in the same transaction. Answers what POST /vehicles|drivers/:id/wasl returns.
 */
export async function storeWasl(
  db: Db,
  user: CurrentUser,
  kind: 'vehicle' | 'driver',
  id: string,
  from: string,
  answer: { status: WaslResultView['waslStatus']; reasons: string[] },
  at: Date,
): Promise<WaslResultView> {
  const patch = { waslStatus: answer.status, waslReasons: answer.reasons, waslCheckedAt: at };
  await db.transaction(async (tx) => {
    await (kind === 'vehicle' ? repo.updateVehicle(tx, id, patch) : repo.updateDriver(tx, id, patch));
    await waslChanged(tx, user, kind, id, from, answer.status);
  });
  return { waslStatus: answer.status, reasons: answer.reasons, checkedAt: at.toISOString() };
}
