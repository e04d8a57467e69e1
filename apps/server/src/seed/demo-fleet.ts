import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import {
  ACCOUNT_TYPE,
  driverInput,
  initialWaslStatus,
  PLATE_LETTER_VALUES,
  trailerInput,
  vehicleInput,
  vendorInput,
  type DriverInput,
  type TrailerInput,
  type VehicleInput,
  type VendorInput,
  type WaslStatus,
} from '@masar/shared';
import type { Config } from '../config.ts';
import { newId } from '../lib/ids.ts';
import * as fleetRepo from '../modules/fleet/fleet.repository.ts';
import * as vendorsRepo from '../modules/vendors/vendors.repository.ts';
import { vendorRow } from '../modules/vendors/vendors.service.ts';
import { driverRow, vehicleRow } from '../modules/fleet/fleet.service.ts';
import type { Db, Tx } from '../db/client.ts';
import { prng } from './prng.ts';

/**
 * Demo fleets and vendors (README "Demo accounts"): on a fresh database the demo carrier sees a
 * working fleet (tractors with linked trailers and drivers, so "vehicles for assignment" is not
 * empty; busy and free trucks; one suspended; WASL verified / not verified / not submitted), the
 * demo broker a small fleet, trusted drivers and its transport vendors, the demo shipper its
 * vendors and one own vehicle.
 *
 * Every input goes through the shared zod schemas of the fleet and vendor forms (plate letters,
 * IMEI, Iqama, MOI, CR, VAT, TL, nationality, age ≥ 18, trailer ranges…) and the same database
 * checks as the fleet and vendor services (equipment type exists, plate and MOI unique on the
 * platform); rows are written with the modules' repositories, one transaction per account.
 *
 * WASL: a vehicle starts `not_required` under 3.5 t and `not_submitted` above
 * (initialWaslStatus); the demo marks some heavy vehicles `verified` or `not_verified` as if the
 * WASL gateway had answered, and never touches the light ones.
 *
 * Phones are in the +966 50 00x xxxx demo block and e-mails under demo.masar.sa, so no real
 * person or company is contacted; company names are invented.
 *
 * Deterministic (fixed data, identifiers from a seeded PRNG) and idempotent: an account that
 * already has any vehicle, trailer, driver or vendor (deleted ones included) is left alone.
 */

type Ids = Record<1 | 2 | 3, string>;
type VehicleIn = z.output<typeof vehicleInput>;
type DriverIn = z.output<typeof driverInput>;
type State = 'active' | 'suspended';

interface DriverSpec {
  input: Omit<DriverInput, 'driverIdNumber' | 'licenceNumber' | 'moiNumber' | 'companyCr' | 'managerName' | 'managerPhone'>;
  state?: State;
  trusted?: boolean;
  ageDays: number;
}
interface TrailerSpec {
  input: TrailerInput;
  state?: State;
  ageDays: number;
}
interface VehicleSpec {
  input: Omit<VehicleInput, 'plate' | 'sequenceNumber' | 'imei' | 'registrationNumber' | 'plateType'>;
  /** index into the account's drivers / trailers / vendors */
  driver?: number;
  trailer?: number;
  vendor?: number;
  wasl?: Extract<WaslStatus, 'verified' | 'not_verified'>;
  state?: State;
  busy?: boolean;
  ageDays: number;
}
interface VendorSpec {
  input: Omit<VendorInput, 'crNumber' | 'vatNumber' | 'tlNumber'>;
  /** CR prefix of the city of registration (1010 Riyadh, 4030 Jeddah, 2050 Dammam…). */
  crCity: string;
  /** A fixed CR (a vendor that is another demo account), instead of crCity + 6 digits. */
  cr?: string;
  request?: boolean;
  ageDays: number;
}
interface AccountPlan {
  seed: number;
  /** Plate type: 2 public transport (for hire), 3 private transport (own goods). */
  plateType: number;
  cr: string;
  manager: { name: string; phone: string };
  vendors: VendorSpec[];
  drivers: DriverSpec[];
  trailers: TrailerSpec[];
  vehicles: VehicleSpec[];
}

/**
 * The plans: data/demo-fleet.json, per account (carrier, broker, shipper). Of note in it: the
 * carrier has a new hire not yet on a truck, a spare lowbed not hitched and a truck off the road
 * because WASL refused it; the broker has a vendor request sent through its share link and a
 * reefer tractor on long-term hire from a vendor; the shipper's vendors include the demo broker
 * (same CR) and its one vehicle is under 3.5 t, where WASL is not required.
 */
const PLANS = JSON.parse(readFileSync(new URL('./data/demo-fleet.json', import.meta.url), 'utf8')) as Record<'carrier' | 'broker' | 'shipper', AccountPlan>;

const DAY = 86_400_000;

/** Identifiers already taken in this run (plates and MOI numbers are unique platform-wide). */
interface Taken {
  plates: Set<string>;
  mois: Set<string>;
}

export interface DemoFleetCounts {
  vehicles: number;
  trailers: number;
  drivers: number;
  vendors: number;
}

/**
 * Seed the demo accounts' fleets and vendors (see the file comment). Returns how many rows it
 * added (all zero when every account already had some). `_config` keeps the seeds' signature.
 */
export async function seedDemoFleet(db: Db, _config: Pick<Config, never>, ids: Ids): Promise<DemoFleetCounts> {
  const counts: DemoFleetCounts = { vehicles: 0, trailers: 0, drivers: 0, vendors: 0 };
  const taken: Taken = { plates: new Set(), mois: new Set() };
  const plans: [string, AccountPlan][] = [
    [ids[ACCOUNT_TYPE.carrier], PLANS.carrier],
    [ids[ACCOUNT_TYPE.broker], PLANS.broker],
    [ids[ACCOUNT_TYPE.shipper], PLANS.shipper],
  ];
  for (const [ownerId, plan] of plans) {
    if (!ownerId || (await hasFleetOrVendors(db, ownerId))) continue;
    const n = await db.transaction((tx) => seedAccount(tx, ownerId, plan, taken));
    for (const k of Object.keys(counts) as (keyof DemoFleetCounts)[]) counts[k] += n[k];
  }
  return counts;
}

async function hasFleetOrVendors(db: Db, ownerId: string) {
  return (await fleetRepo.ownerHasFleet(db, ownerId)) || (await vendorsRepo.ownerHasVendors(db, ownerId));
}

async function seedAccount(tx: Tx, ownerId: string, plan: AccountPlan, taken: Taken): Promise<DemoFleetCounts> {
  const rnd = prng(20261122 + plan.seed);
  const digits = (n: number, first = '123456789') =>
    first[Math.floor(rnd() * first.length)] + Array.from({ length: n - 1 }, () => Math.floor(rnd() * 10)).join('');
  const letter = () => PLATE_LETTER_VALUES[Math.floor(rnd() * PLATE_LETTER_VALUES.length)];
  const now = Date.now();
  const at = (ageDays: number) => {
    const d = new Date(now - ageDays * DAY);
    return { createdAt: d, updatedAt: d };
  };

  // ---------- vendors ----------
  const vendorIds: string[] = [];
  for (const v of plan.vendors) {
    const input = vendorInput.parse({
      ...v.input,
      crNumber: v.cr ?? v.crCity + digits(6, '0123456789'),
      vatNumber: `3${digits(9)}00003`,
      tlNumber: `TL${digits(8)}`,
    });
    const row = { ...vendorRow(ownerId, input, v.request ? 'request_submitted' : 'verified', v.request ? 'invite' : 'owner'), ...at(v.ageDays) };
    const clash = await vendorsRepo.contactTaken(tx, ownerId, input.email, input.phone);
    if (clash.email || clash.phone) throw new Error(`demo vendor ${input.companyName}: contact already used`);
    await vendorsRepo.insertVendors(tx, [row]);
    vendorIds.push(row.id);
  }

  // ---------- drivers ----------
  const driverIds: string[] = [];
  const driverRows: fleetRepo.NewDriver[] = [];
  for (const d of plan.drivers) {
    const saudi = d.input.nationality === 'saudi';
    let moi = digits(10);
    while (taken.mois.has(moi) || (await fleetRepo.moiTaken(tx, moi))) moi = digits(10);
    taken.mois.add(moi);
    const b: DriverIn = driverInput.parse({
      ...d.input,
      // national ID (1…) for Saudis, Iqama (2…) for residents
      driverIdNumber: (saudi ? '1' : '2') + digits(9, '0123456789'),
      licenceNumber: digits(10),
      moiNumber: moi,
      companyCr: plan.cr,
      managerName: plan.manager.name,
      managerPhone: plan.manager.phone,
    });
    if (await fleetRepo.driverIdTaken(tx, ownerId, b.driverIdNumber)) throw new Error(`demo driver ${b.firstName}: id number already used`);
    const id = newId();
    driverIds.push(id);
    driverRows.push({ ...driverRow(ownerId, b), id, photoFileId: null, state: d.state ?? 'active', ...at(d.ageDays) });
  }
  await fleetRepo.insertDrivers(tx, driverRows);
  for (const [i, d] of plan.drivers.entries()) if (d.trusted) await fleetRepo.addTrusted(tx, ownerId, driverIds[i]);

  // ---------- trailers ----------
  const trailerIds: string[] = [];
  const trailerRows: fleetRepo.NewTrailer[] = [];
  for (const t of plan.trailers) {
    const b = trailerInput.parse(t.input);
    if (await fleetRepo.trailerNumberTaken(tx, ownerId, b.trailerNumber)) throw new Error(`demo trailer ${b.trailerNumber}: number already used`);
    const id = newId();
    trailerIds.push(id);
    trailerRows.push({ id, ownerId, ...b, state: t.state ?? 'active', ...at(t.ageDays) });
  }
  await fleetRepo.insertTrailers(tx, trailerRows);

  // ---------- vehicles ----------
  const vehicleRows: fleetRepo.NewVehicle[] = [];
  for (const v of plan.vehicles) {
    if (!(await fleetRepo.equipmentExists(tx, v.input.vehicleType))) throw new Error(`demo vehicle: unknown equipment type ${v.input.vehicleType}`);
    let plate = { digits: digits(4), left: letter(), middle: letter(), right: letter() };
    const key = (p: typeof plate) => `${p.digits}${p.left}${p.middle}${p.right}`;
    while (taken.plates.has(key(plate)) || (await fleetRepo.plateTaken(tx, plate.digits, `${plate.left}${plate.middle}${plate.right}`)))
      plate = { digits: digits(4), left: letter(), middle: letter(), right: letter() };
    taken.plates.add(key(plate));
    const b: VehicleIn = vehicleInput.parse({
      ...v.input,
      plateType: plan.plateType,
      plate,
      registrationNumber: digits(9),
      sequenceNumber: digits(9),
      imei: `35${digits(13, '0123456789')}`,
      vendorId: v.vendor === undefined ? undefined : vendorIds[v.vendor],
      driverId: v.driver === undefined ? undefined : driverIds[v.driver],
      trailerId: v.trailer === undefined ? undefined : trailerIds[v.trailer],
    });
    const initial = initialWaslStatus(b.weightKg);
    // WASL answers only for vehicles that need it (3.5 t and over)
    const waslStatus = v.wasl && initial !== 'not_required' ? v.wasl : initial;
    vehicleRows.push({
      ...vehicleRow(ownerId, b),
      waslStatus,
      state: v.state ?? 'active',
      // a suspended vehicle is never on a job
      availability: v.busy && v.state !== 'suspended' ? 'busy' : 'free',
      ...at(v.ageDays),
    });
  }
  await fleetRepo.insertVehicles(tx, vehicleRows);
  // the driver of a WASL-verified truck is registered too, so a demo shipment can get its Bayan
  for (const row of vehicleRows)
    if (row.waslStatus === 'verified' && row.driverId) await fleetRepo.updateDriver(tx, row.driverId, { waslStatus: 'verified', waslCheckedAt: new Date() });

  return { vehicles: vehicleRows.length, trailers: trailerRows.length, drivers: driverRows.length, vendors: vendorIds.length };
}
