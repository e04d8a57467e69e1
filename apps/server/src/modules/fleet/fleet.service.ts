import type { z } from 'zod';
import {
  ACCOUNT_TYPE,
  formatPlate,
  plateFromStored,
  storedPlateLetters,
  initialWaslStatus,
  plateLatin,
  toHijriDate,
  type Language,
  type WaslResultView,
  type Driver,
  type driverInput,
  type driverUpdate,
  type FleetItem,
  type Trailer,
  type trailerInput,
  type trailerUpdate,
  type Vehicle,
  type vehicleInput,
  type vehicleUpdate,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { AppError, dbErrorCode } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { fileRefs, ownedFiles } from '../files/files.service.ts';
import * as repo from './fleet.repository.ts';
import { publish } from '../events/events.service.ts';
import type { SignedLinks } from '../../lib/signed-links.ts';
import type { SmsGateway } from '../../gateways/sms/sms.ts';
import { WaslUnavailableError, type WaslGateway, type WaslResult } from '../../gateways/wasl/wasl.ts';
import { elmPlate } from '../../gateways/bayan/bayan.ts';

/**
 * WHO MAY DO WHAT IN FLEET MANAGEMENT (the spec is silent, §6 "not shown"; issue 3):
 * - Carriers (2) and brokers (3) own full fleets: vehicles (own or vendor-sourced), trailers,
 *   drivers, trusted drivers, driver job links.
 * - Shippers (1) may keep their own vehicles, trailers and drivers for "own vehicle" shipments
 *   (spec §3 carrier source 3); they cannot register vendor-sourced vehicles (WRONG_ROLE): a
 *   shipper hands work to a vendor as a vendor shipment, not as a vehicle of its fleet.
 * - Everyone works on their own rows only: every row has owner_id and another owner's row
 *   answers 404 (NOT_FOUND), never 403, so ids do not leak existence.
 * - Fleet writes do not need an approved account or a plan: onboarding drivers and vehicles
 *   is part of getting approved; posting and bidding keep those checks.
 * - Trusted drivers: any fleet owner may mark drivers of their OWN fleet as trusted (shown
 *   first when a driver is picked for an own-vehicle shipment). Vendors are not platform users
 *   with drivers, so there is nobody else's driver to trust.
 * Documented in docs/fleet.md too.
 */
export const FLEET_ROLES = [ACCOUNT_TYPE.shipper, ACCOUNT_TYPE.carrier, ACCOUNT_TYPE.broker];

type VehicleIn = z.output<typeof vehicleInput>;
type VehicleUpd = z.output<typeof vehicleUpdate>;
type TrailerIn = z.output<typeof trailerInput>;
type TrailerUpd = z.output<typeof trailerUpdate>;
type DriverIn = z.output<typeof driverInput>;
type DriverUpd = z.output<typeof driverUpdate>;

const iso = (d: Date) => d.toISOString();

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
async function mapUnique<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw uniqueError(e) ?? e;
  }
}

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

/**
 * The fleet's side of assignment (issue 7; spec §2 /delivery-tracking/assign-driver): the
 * assignment module calls these inside its own transaction (one owner per table).
 */
export const fleetAssignment = {
  /**
   * Lock vehicle `vehicleId` of `ownerId` and check it can take a job: active, free, with an
   * active driver and a linked active trailer (VEHICLE_NOT_AVAILABLE otherwise; NOT_FOUND when not
   * the owner's). Marks it busy. Returns what the shipment records and Bayan needs.
   */
  async take(tx: DbOrTx, ownerId: string, vehicleId: string) {
    const v = await repo.getVehicle(tx, ownerId, vehicleId, true);
    if (!v) throw new AppError('NOT_FOUND');
    if (v.state !== 'active' || v.availability !== 'free' || !v.driverId || !v.trailerId) throw new AppError('VEHICLE_NOT_AVAILABLE');
    const [[d], [t]] = await Promise.all([repo.getDriversByIds(tx, [v.driverId]), repo.getTrailersByIds(tx, [v.trailerId])]);
    if (!d || d.state !== 'active' || !t || t.state !== 'active') throw new AppError('VEHICLE_NOT_AVAILABLE');
    await repo.updateVehicle(tx, v.id, { availability: 'busy' });
    return { vehicle: v, driver: d, trailer: t };
  },
  /** The vehicle is off its job (unassigned, shipment completed or cancelled): free again. */
  async release(tx: DbOrTx, vehicleId: string) {
    await repo.updateVehicle(tx, vehicleId, { availability: 'free' });
  },
  /** Vehicle, driver and trailer rows by id (any owner), for showing an assignment. */
  async describe(db: DbOrTx, ids: { vehicleId: string | null; driverId: string | null; trailerId: string | null }) {
    const [[v], [d], [t]] = await Promise.all([
      ids.vehicleId ? repo.getVehiclesByIds(db, [ids.vehicleId]) : [],
      ids.driverId ? repo.getDriversByIds(db, [ids.driverId]) : [],
      ids.trailerId ? repo.getTrailersByIds(db, [ids.trailerId]) : [],
    ]);
    return { vehicle: v ?? null, driver: d ?? null, trailer: t ?? null };
  },
};

/** How long a driver's job link opens (days). */
/**
 * The WASL share of the fleets of `ownerIds` (the fact-based record, modules/records): by owner,
 * vehicles not deleted and how many are WASL verified. Owners without vehicles are absent.
 */
export async function fleetWaslCounts(db: DbOrTx, ownerIds: string[]): Promise<Map<string, { vehicles: number; verified: number }>> {
  const rows = await repo.waslCountsOf(db, ownerIds);
  return new Map(rows.map((r) => [r.owner_id, { vehicles: r.vehicles, verified: r.verified }]));
}

export const DRIVER_LINK_DAYS = 7;

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

/** The SMS that carries a driver's job link (issue 23: "Share driver link" also sends by SMS), in the sender's language. */
export function driverLinkSmsText(link: string, lang: Language): string {
  return lang === 'ar' ? `رابط رحلاتك على مسار (صالح ${DRIVER_LINK_DAYS} أيام): ${link}` : `Your Masar trip link (valid ${DRIVER_LINK_DAYS} days): ${link}`;
}

export function createFleetService(deps: {
  db: Db;
  links: SignedLinks;
  wasl: WaslGateway;
  sms?: SmsGateway;
  publicUrl?: string;
  log?: { error(o: unknown, m: string): void };
}) {
  const { db } = deps;

  /** Ask WASL; its outage is WASL_UNAVAILABLE and the status stays as it was. */
  async function askWasl(call: () => Promise<WaslResult>): Promise<WaslResult> {
    try {
      return await call();
    } catch (e) {
      if (e instanceof WaslUnavailableError) throw new AppError('WASL_UNAVAILABLE');
      throw e;
    }
  }

  // ---------- views ----------
  async function vehicleViews(tx: DbOrTx, rows: repo.VehicleView[]): Promise<Vehicle[]> {
    const refs = await fileRefs(
      tx,
      rows.flatMap((r) => [...r.insuranceFileIds, ...r.imageFileIds]),
    );
    const pick = (ids: string[]) => ids.map((id) => refs.get(id)).filter((x): x is NonNullable<typeof x> => Boolean(x));
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
        insuranceFiles: pick(r.insuranceFileIds),
        imageFiles: pick(r.imageFileIds),
        createdAt: iso(r.createdAt),
        updatedAt: iso(r.updatedAt),
      };
    });
  }
  async function trailerViews(tx: DbOrTx, rows: repo.TrailerRow[]): Promise<Trailer[]> {
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
  async function driverViews(tx: DbOrTx, ownerId: string, rows: repo.DriverRow[]): Promise<Driver[]> {
    const ids = rows.map((r) => r.id);
    const [links, trusted, refs] = await Promise.all([
      repo.vehiclesOfDrivers(tx, ids),
      repo.trustedSet(tx, ownerId, ids),
      fileRefs(
        tx,
        rows.flatMap((r) => [...r.iqamaFileIds, ...r.licenceFileIds, ...(r.photoFileId ? [r.photoFileId] : [])]),
      ),
    ]);
    const pick = (ids: string[]) => ids.map((id) => refs.get(id)).filter((x): x is NonNullable<typeof x> => Boolean(x));
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
      iqamaFiles: pick(r.iqamaFileIds),
      licenceFiles: pick(r.licenceFileIds),
      state: r.state,
      waslStatus: r.waslStatus,
      waslReasons: r.waslReasons,
      vehicleId: links.get(r.id) ?? null,
      trusted: trusted.has(r.id),
      createdAt: iso(r.createdAt),
      updatedAt: iso(r.updatedAt),
    }));
  }

  // ---------- shared checks ----------
  async function mustVehicle(tx: DbOrTx, user: CurrentUser, id: string, forUpdate = false) {
    const v = await repo.getVehicle(tx, user.id, id, forUpdate);
    if (!v) throw new AppError('NOT_FOUND');
    return v;
  }
  async function mustDriver(tx: DbOrTx, user: CurrentUser, id: string) {
    const d = await repo.getDriver(tx, user.id, id);
    if (!d) throw new AppError('NOT_FOUND');
    return d;
  }
  async function mustTrailer(tx: DbOrTx, user: CurrentUser, id: string) {
    const t = await repo.getTrailer(tx, user.id, id);
    if (!t) throw new AppError('NOT_FOUND');
    return t;
  }
  /** Driver of the caller, free (not on another live vehicle). 404 when not theirs. */
  async function checkDriverFree(tx: DbOrTx, user: CurrentUser, driverId: string, vehicleId?: string) {
    const d = await repo.getDriver(tx, user.id, driverId);
    if (!d) throw new AppError('NOT_FOUND', { errors: [{ path: 'driverId', message: 'NOT_FOUND' }] });
    if (d.state === 'suspended') throw new AppError('FLEET_ITEM_SUSPENDED');
    const on = await repo.vehicleOfDriver(tx, driverId);
    if (on && on !== vehicleId) throw new AppError('DRIVER_ALREADY_ASSIGNED');
  }
  async function checkTrailerFree(tx: DbOrTx, user: CurrentUser, trailerId: string, vehicleId?: string) {
    const t = await repo.getTrailer(tx, user.id, trailerId);
    if (!t) throw new AppError('NOT_FOUND', { errors: [{ path: 'trailerId', message: 'NOT_FOUND' }] });
    if (t.state === 'suspended') throw new AppError('FLEET_ITEM_SUSPENDED');
    const on = await repo.vehicleOfTrailer(tx, trailerId);
    if (on && on !== vehicleId) throw new AppError('TRAILER_ALREADY_LINKED');
  }
  async function checkVehicleRefs(tx: DbOrTx, user: CurrentUser, b: Partial<VehicleIn>, vehicleId?: string) {
    if (b.vehicleType !== undefined && !(await repo.equipmentExists(tx, b.vehicleType))) throw new AppError('INVALID_EQUIPMENT');
    if (b.source === 'vendor' && user.accountType === ACCOUNT_TYPE.shipper) throw new AppError('WRONG_ROLE');
    if (b.source === 'vendor' && b.vendorId && !(await repo.vendorOwned(tx, user.id, b.vendorId))) throw new AppError('INVALID_VENDOR');
    if (b.driverId) await checkDriverFree(tx, user, b.driverId, vehicleId);
    if (b.trailerId) await checkTrailerFree(tx, user, b.trailerId, vehicleId);
    await ownedFiles(tx, user.id, [...(b.insuranceFileIds ?? []), ...(b.imageFileIds ?? [])]);
  }

  async function setState<T>(
    kind: 'vehicle' | 'trailer' | 'driver',
    user: CurrentUser,
    id: string,
    to: 'active' | 'suspended' | 'deleted',
    view: () => Promise<T>,
  ): Promise<T | null> {
    await db.transaction(async (tx) => {
      if (kind === 'vehicle') {
        const v = await mustVehicle(tx, user, id, true);
        if (to !== 'active' && v.availability === 'busy') throw new AppError('VEHICLE_BUSY');
        await repo.updateVehicle(tx, id, to === 'deleted' ? { state: to, driverId: null, trailerId: null } : { state: to });
      } else if (kind === 'trailer') {
        await mustTrailer(tx, user, id);
        if (to === 'deleted') await repo.detachFromVehicles(tx, { trailerId: id });
        await repo.updateTrailer(tx, id, { state: to });
      } else {
        await mustDriver(tx, user, id);
        if (to === 'deleted') {
          await repo.detachFromVehicles(tx, { driverId: id });
          await repo.removeTrusted(tx, user.id, id);
        }
        await repo.updateDriver(tx, id, { state: to });
        // the driver's job links and trip tokens die with the suspension, also after a reactivation
        if (to !== 'active') await repo.bumpLinkGeneration(tx, id);
      }
    });
    return to === 'deleted' ? null : view();
  }

  const svc = {
    // ---------- vehicles ----------
    async getVehicle(user: CurrentUser, id: string): Promise<Vehicle> {
      return (await vehicleViews(db, [await mustVehicle(db, user, id)]))[0];
    },
    async listVehicles(user: CurrentUser, q: repo.VehicleFilter & { limit: number; skip: number }) {
      const { items, total } = await repo.listVehicles(db, user.id, q, q.limit, q.skip);
      return { items: await vehicleViews(db, items), total };
    },
    async createVehicle(user: CurrentUser, b: VehicleIn): Promise<Vehicle> {
      // the id is returned by the transaction: a crash-recovered retry replays it (Idempotency-Key journal)
      const row = vehicleRow(user.id, b);
      const id = await mapUnique(() =>
        db.transaction(async (tx) => {
          await checkVehicleRefs(tx, user, b);
          if (await repo.plateTaken(tx, row.plateDigits, row.plateLetters)) throw new AppError('DUPLICATE_PLATE');
          await repo.insertVehicles(tx, [row]);
          return row.id;
        }),
      );
      return svc.getVehicle(user, id);
    },
    async updateVehicle(user: CurrentUser, id: string, b: VehicleUpd): Promise<Vehicle> {
      await mapUnique(() =>
        db.transaction(async (tx) => {
          const v = await mustVehicle(tx, user, id, true);
          const source = b.source ?? v.source;
          const vendorId = b.vendorId ?? (b.source === 'own' ? undefined : (v.vendorId ?? undefined));
          if (source === 'vendor' && !vendorId) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'vendorId', message: 'v.vendorRequired' }] });
          await checkVehicleRefs(tx, user, { ...b, source, vendorId }, id);
          const patch: Partial<repo.NewVehicle> = {};
          for (const k of [
            'vehicleType',
            'year',
            'make',
            'model',
            'colour',
            'plateType',
            'registrationNumber',
            'sequenceNumber',
            'imei',
            'driverId',
            'trailerId',
            'insuranceFileIds',
            'imageFileIds',
          ] as const) {
            if (b[k] !== undefined) (patch as Record<string, unknown>)[k] = b[k];
          }
          patch.source = source;
          patch.vendorId = source === 'vendor' ? vendorId : null;
          if (b.plate) {
            patch.plateDigits = b.plate.digits;
            patch.plateLetters = storedPlateLetters(b.plate);
            if (await repo.plateTaken(tx, patch.plateDigits, patch.plateLetters, id)) throw new AppError('DUPLICATE_PLATE');
          }
          if (b.weightKg !== undefined) {
            patch.weightKg = b.weightKg;
            // verified/not_verified came from WASL for the old weight; re-derive only the local states
            if (v.waslStatus === 'not_required' || v.waslStatus === 'not_submitted' || initialWaslStatus(b.weightKg) === 'not_required')
              patch.waslStatus = initialWaslStatus(b.weightKg);
          }
          await repo.updateVehicle(tx, id, patch);
        }),
      );
      return svc.getVehicle(user, id);
    },
    deleteVehicle: (user: CurrentUser, id: string) => setState('vehicle', user, id, 'deleted', async () => null),
    suspendVehicle: (user: CurrentUser, id: string) => setState('vehicle', user, id, 'suspended', () => svc.getVehicle(user, id)) as Promise<Vehicle>,
    activateVehicle: (user: CurrentUser, id: string) => setState('vehicle', user, id, 'active', () => svc.getVehicle(user, id)) as Promise<Vehicle>,
    async assignDriver(user: CurrentUser, id: string, driverId: string | null): Promise<Vehicle> {
      await mapUnique(() =>
        db.transaction(async (tx) => {
          await mustVehicle(tx, user, id, true);
          if (driverId) await checkDriverFree(tx, user, driverId, id);
          await repo.updateVehicle(tx, id, { driverId });
        }),
      );
      return svc.getVehicle(user, id);
    },
    async linkTrailer(user: CurrentUser, id: string, trailerId: string | null): Promise<Vehicle> {
      await mapUnique(() =>
        db.transaction(async (tx) => {
          await mustVehicle(tx, user, id, true);
          if (trailerId) await checkTrailerFree(tx, user, trailerId, id);
          await repo.updateVehicle(tx, id, { trailerId });
        }),
      );
      return svc.getVehicle(user, id);
    },
    /** Vehicles ready for a job: active, free, with an active driver and a linked active trailer (spec §5). */
    async forAssignment(user: CurrentUser) {
      const rows = await repo.vehiclesForAssignment(db, user.id);
      if (rows.length === 0) throw new AppError('NO_VEHICLES_FOR_ASSIGNMENT');
      const items = await vehicleViews(db, rows);
      return { items, total: items.length };
    },

    /**
     * POST /vehicles/:id/wasl — register the vehicle with WASL (plate, plate type, sequence
     * number, IMEI). Under 3.5 t WASL is not required: `not_required`, nothing is sent. WASL's
     * answer is stored: verified, or not_verified with its reasons. Errors: NOT_FOUND,
     * FLEET_ITEM_SUSPENDED, WASL_UNAVAILABLE.
     */
    async registerVehicleWasl(user: CurrentUser, id: string): Promise<WaslResultView> {
      const v = await mustVehicle(db, user, id);
      if (v.state !== 'active') throw new AppError('FLEET_ITEM_SUSPENDED');
      const now = new Date();
      if (initialWaslStatus(v.weightKg) === 'not_required') {
        await db.transaction(async (tx) => {
          await repo.updateVehicle(tx, id, { waslStatus: 'not_required', waslReasons: [], waslCheckedAt: now });
          await waslChanged(tx, user, 'vehicle', id, v.waslStatus, 'not_required');
        });
        return { waslStatus: 'not_required', reasons: [], checkedAt: now.toISOString() };
      }
      const r = await askWasl(() =>
        deps.wasl.registerVehicle({
          sequenceNumber: v.sequenceNumber,
          plateType: v.plateType,
          vehiclePlate: elmPlate(v.plateDigits, v.plateLetters),
          ...(v.imei ? { imeiNumber: v.imei } : {}),
        }),
      );
      await db.transaction(async (tx) => {
        await repo.updateVehicle(tx, id, { waslStatus: r.status, waslReasons: r.reasons, waslCheckedAt: now });
        await waslChanged(tx, user, 'vehicle', id, v.waslStatus, r.status);
      });
      return { waslStatus: r.status, reasons: r.reasons, checkedAt: now.toISOString() };
    },
    /**
     * POST /drivers/:id/wasl — register the driver with WASL (identity, date of birth in Hijri
     * (Umm al-Qura) and Gregorian, mobile). Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED, WASL_UNAVAILABLE.
     */
    async registerDriverWasl(user: CurrentUser, id: string): Promise<WaslResultView> {
      const d = await mustDriver(db, user, id);
      if (d.state !== 'active') throw new AppError('FLEET_ITEM_SUSPENDED');
      const now = new Date();
      const r = await askWasl(() =>
        deps.wasl.registerDriver({
          identityNumber: d.driverIdNumber,
          dateOfBirthGregorian: d.dateOfBirth,
          dateOfBirthHijri: toHijriDate(d.dateOfBirth) ?? '',
          mobileNumber: d.phone,
        }),
      );
      await db.transaction(async (tx) => {
        await repo.updateDriver(tx, id, { waslStatus: r.status, waslReasons: r.reasons, waslCheckedAt: now });
        await waslChanged(tx, user, 'driver', id, d.waslStatus, r.status);
      });
      return { waslStatus: r.status, reasons: r.reasons, checkedAt: now.toISOString() };
    },

    // ---------- trailers ----------
    async getTrailer(user: CurrentUser, id: string): Promise<Trailer> {
      return (await trailerViews(db, [await mustTrailer(db, user, id)]))[0];
    },
    async listTrailers(user: CurrentUser, q: { search?: string; state?: repo.State; limit: number; skip: number }) {
      const { items, total } = await repo.listTrailers(db, user.id, q, q.limit, q.skip);
      return { items: await trailerViews(db, items), total };
    },
    async createTrailer(user: CurrentUser, b: TrailerIn): Promise<Trailer> {
      // the id is returned by the transaction: a crash-recovered retry replays it (Idempotency-Key journal)
      const row = trailerRow(user.id, b);
      const id = await mapUnique(() =>
        db.transaction(async (tx) => {
          if (await repo.trailerNumberTaken(tx, user.id, row.trailerNumber)) throw new AppError('DUPLICATE_TRAILER_NUMBER');
          await repo.insertTrailers(tx, [row]);
          return row.id;
        }),
      );
      return svc.getTrailer(user, id);
    },
    async updateTrailer(user: CurrentUser, id: string, b: TrailerUpd): Promise<Trailer> {
      await mapUnique(() =>
        db.transaction(async (tx) => {
          await mustTrailer(tx, user, id);
          if (b.trailerNumber && (await repo.trailerNumberTaken(tx, user.id, b.trailerNumber, id))) throw new AppError('DUPLICATE_TRAILER_NUMBER');
          await repo.updateTrailer(tx, id, b);
        }),
      );
      return svc.getTrailer(user, id);
    },
    deleteTrailer: (user: CurrentUser, id: string) => setState('trailer', user, id, 'deleted', async () => null),
    suspendTrailer: (user: CurrentUser, id: string) => setState('trailer', user, id, 'suspended', () => svc.getTrailer(user, id)) as Promise<Trailer>,
    activateTrailer: (user: CurrentUser, id: string) => setState('trailer', user, id, 'active', () => svc.getTrailer(user, id)) as Promise<Trailer>,

    // ---------- drivers ----------
    async getDriver(user: CurrentUser, id: string): Promise<Driver> {
      return (await driverViews(db, user.id, [await mustDriver(db, user, id)]))[0];
    },
    async listDrivers(
      user: CurrentUser,
      q: { search?: string; state?: repo.State; limit: number; skip: number; trustedOnly?: boolean; wasl?: repo.DriverRow['waslStatus'] },
    ) {
      const { items, total } = await repo.listDrivers(db, user.id, q, q.limit, q.skip);
      return { items: await driverViews(db, user.id, items), total };
    },
    async createDriver(user: CurrentUser, b: DriverIn): Promise<Driver> {
      // the id is returned by the transaction: a crash-recovered retry replays it (Idempotency-Key journal)
      const row = driverRow(user.id, b);
      const id = await mapUnique(() =>
        db.transaction(async (tx) => {
          await ownedFiles(tx, user.id, [...b.iqamaFileIds, ...b.licenceFileIds, ...(b.photoFileId ? [b.photoFileId] : [])]);
          if (b.moiNumber && (await repo.moiTaken(tx, b.moiNumber))) throw new AppError('MOI_EXISTS');
          if (await repo.driverIdTaken(tx, user.id, b.driverIdNumber)) throw new AppError('DRIVER_EXISTS');
          await repo.insertDrivers(tx, [row]);
          return row.id;
        }),
      );
      return svc.getDriver(user, id);
    },
    async updateDriver(user: CurrentUser, id: string, b: DriverUpd): Promise<Driver> {
      await mapUnique(() =>
        db.transaction(async (tx) => {
          const d = await mustDriver(tx, user, id);
          const phone = b.phone ?? d.phone;
          const managerPhone = b.managerPhone ?? d.managerPhone;
          if (managerPhone && managerPhone === phone)
            throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'managerPhone', message: 'v.managerPhoneSame' }] });
          await ownedFiles(tx, user.id, [...(b.iqamaFileIds ?? []), ...(b.licenceFileIds ?? []), ...(b.photoFileId ? [b.photoFileId] : [])]);
          if (b.moiNumber && (await repo.moiTaken(tx, b.moiNumber, id))) throw new AppError('MOI_EXISTS');
          if (b.driverIdNumber && (await repo.driverIdTaken(tx, user.id, b.driverIdNumber, id))) throw new AppError('DRIVER_EXISTS');
          const patch: Partial<repo.NewDriver> = {};
          for (const [k, v] of Object.entries(b)) if (v !== undefined) (patch as Record<string, unknown>)[k] = v;
          await repo.updateDriver(tx, id, patch);
        }),
      );
      return svc.getDriver(user, id);
    },
    deleteDriver: (user: CurrentUser, id: string) => setState('driver', user, id, 'deleted', async () => null),
    suspendDriver: (user: CurrentUser, id: string) => setState('driver', user, id, 'suspended', () => svc.getDriver(user, id)) as Promise<Driver>,
    activateDriver: (user: CurrentUser, id: string) => setState('driver', user, id, 'active', () => svc.getDriver(user, id)) as Promise<Driver>,
    /**
     * A signed job link for the driver (spec §2 "share driver link"): a signed link
     * (lib/signed-links.ts) with purpose 'driver-job', subject the driver id and the owner as a
     * claim, valid 7 days; it carries the driver's link generation, so suspending the driver
     * kills it for good (a reactivated driver needs a new link). The trip flow that consumes it is a later issue; the web's /driver
     * page reads `token`.
     */
    async driverLink(user: CurrentUser, id: string) {
      const d = await mustDriver(db, user, id);
      if (d.state !== 'active') throw new AppError('FLEET_ITEM_SUSPENDED');
      const { token, expiresAt } = await deps.links.sign('driver-job', d.id, DRIVER_LINK_DAYS * 86_400, { owner: user.id, gen: String(d.linkGeneration) });
      return { url: `/driver?token=${token}`, token, expiresAt };
    },
    /**
     * Send a fresh job link to the driver's own phone by SMS (issue 23). The link is the one
     * `driverLink` signs; the SMS goes through the SMS gateway in `lang`. Returns the phone it went
     * to and the link's expiry. Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED, SMS_SEND_FAILED (502:
     * the gateway refused; nothing is stored, so the user simply tries again).
     */
    async sendDriverLinkSms(user: CurrentUser, id: string, lang: Language) {
      if (!deps.sms) throw new AppError('SMS_SEND_FAILED');
      const d = await mustDriver(db, user, id);
      const link = await svc.driverLink(user, id);
      try {
        await deps.sms.send(d.phone, driverLinkSmsText(`${deps.publicUrl ?? ''}${link.url}`, lang));
      } catch (err) {
        deps.log?.error({ err, driverId: id }, 'driver link SMS failed');
        throw new AppError('SMS_SEND_FAILED');
      }
      return { sentTo: d.phone, expiresAt: link.expiresAt };
    },

    // ---------- trusted drivers ----------
    async trust(user: CurrentUser, driverId: string): Promise<Driver> {
      await mustDriver(db, user, driverId);
      await repo.addTrusted(db, user.id, driverId);
      return svc.getDriver(user, driverId);
    },
    async untrust(user: CurrentUser, driverId: string) {
      await mustDriver(db, user, driverId);
      await repo.removeTrusted(db, user.id, driverId);
    },

    // ---------- fleet table ----------
    async fleet(user: CurrentUser, q: repo.FleetFilter & { limit: number; skip: number }) {
      const { ids, counts } = await repo.fleetPage(db, user.id, q, q.limit, q.skip);
      const of = (k: string) => ids.filter((i) => i.kind === k).map((i) => i.id);
      const [vs, ts, ds] = await Promise.all([
        repo.getVehiclesByIds(db, of('vehicle')).then((r) => vehicleViews(db, r)),
        repo.getTrailersByIds(db, of('trailer')).then((r) => trailerViews(db, r)),
        repo.getDriversByIds(db, of('driver')).then((r) => driverViews(db, user.id, r)),
      ]);
      const vm = new Map(vs.map((v) => [v.id, v]));
      const tm = new Map(ts.map((t) => [t.id, t]));
      const dm = new Map(ds.map((d) => [d.id, d]));
      const items: FleetItem[] = ids.map((i) => {
        if (i.kind === 'vehicle') {
          const v = vm.get(i.id)!;
          return { kind: 'vehicle', id: v.id, label: `${v.plateText} · ${v.make} ${v.model}`, state: v.state, createdAt: v.createdAt, vehicle: v };
        }
        if (i.kind === 'trailer') {
          const t = tm.get(i.id)!;
          return { kind: 'trailer', id: t.id, label: `${t.trailerNumber} · ${t.trailerType}`, state: t.state, createdAt: t.createdAt, trailer: t };
        }
        const d = dm.get(i.id)!;
        return { kind: 'driver', id: d.id, label: `${d.firstName} ${d.lastName}`, state: d.state, createdAt: d.createdAt, driver: d };
      });
      const total =
        q.tab === 1 ? counts.drivers : q.tab === 2 ? counts.trailers : q.tab === 3 ? counts.vehicles : counts.drivers + counts.trailers + counts.vehicles;
      return { items, total, counts: { all: counts.drivers + counts.trailers + counts.vehicles, ...counts } };
    },

    // ---------- bulk (CSV import) ----------
    /**
     * Insert already-validated rows in one transaction (all or nothing). Used by the CSV import
     * for a chunk of good rows; on a constraint error the caller falls back to one row at a
     * time, so a bad row never takes good ones with it.
     */
    /** Insert imported rows of one kind in one transaction (`outer`: as a savepoint of the caller's). */
    async bulkInsert(user: CurrentUser, kind: 'vehicles' | 'trailers' | 'drivers', rows: unknown[], outer?: DbOrTx) {
      await mapUnique(() =>
        (outer ?? db).transaction(async (tx) => {
          if (kind === 'vehicles') {
            const vs = rows as VehicleIn[];
            for (const code of new Set(vs.map((v) => v.vehicleType))) if (!(await repo.equipmentExists(tx, code))) throw new AppError('INVALID_EQUIPMENT');
            if (user.accountType === ACCOUNT_TYPE.shipper && vs.some((v) => v.source === 'vendor')) throw new AppError('WRONG_ROLE');
            await repo.insertVehicles(
              tx,
              vs.map((v) =>
                vehicleRow(user.id, {
                  ...v,
                  driverId: undefined,
                  trailerId: undefined,
                  insuranceFileIds: [],
                  imageFileIds: [],
                  vendorId: undefined,
                  source: 'own',
                }),
              ),
            );
          } else if (kind === 'trailers') {
            await repo.insertTrailers(
              tx,
              (rows as TrailerIn[]).map((t) => trailerRow(user.id, t)),
            );
          } else {
            await repo.insertDrivers(
              tx,
              (rows as DriverIn[]).map((d) => driverRow(user.id, { ...d, iqamaFileIds: [], licenceFileIds: [], photoFileId: undefined })),
            );
          }
        }),
      );
    },
  };
  return svc;
}
export type FleetService = ReturnType<typeof createFleetService>;
