import { sql } from 'drizzle-orm';
import type { GeoError, PositionInput, ProofStop, StopAddressInput, TripStep } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { tripProofs, tripSteps } from '../../db/schema/index.ts';
import { inList, queryRows } from '../../lib/sql.ts';

/**
 * SQL of the trips module. It owns trip_steps, trip_proofs, vehicle_positions and
 * vehicle_latest_positions (migration 0085) and only reads loads, load_stops, cities, drivers
 * and vehicles (their owners write them).
 */

export interface DriverRow {
  id: string;
  owner_id: string;
  first_name: string;
  last_name: string;
  phone: string;
  licence_number: string;
  state: string;
  /** Job links and trip tokens carry this; suspending or deleting the driver moves it on (migration 0095). */
  link_generation: number;
  manager_name: string | null;
  manager_phone: string | null;
}
export async function driverById(db: DbOrTx, id: string): Promise<DriverRow | null> {
  const rows = await queryRows<DriverRow>(
    db,
    sql`select id, owner_id, first_name, last_name, phone, licence_number, state, link_generation, manager_name, manager_phone from drivers where id = ${id}`,
  );
  return rows[0] ?? null;
}

export interface StopRow {
  load_id: string;
  stop: ProofStop;
  lat: number;
  lng: number;
  address: string | null;
  address_details: StopAddressInput | null;
  date: Date | string;
  city_en: string;
  city_ar: string;
  district_en: string | null;
  district_ar: string | null;
  /** The pickup's latest time (pickup only) and the stop's opening hours ('HH:MM'), from the load's terms. */
  latest_at: Date | string | null;
  hours_from: string | null;
  hours_to: string | null;
}
/**
 * The first pickup and the last drop of each load (the stops a proof is checked against), with
 * the district's names (reference data) and the stop's time window from the load's terms.
 */
export async function endStops(db: DbOrTx, loadIds: string[]): Promise<StopRow[]> {
  if (loadIds.length === 0) return [];
  return queryRows<StopRow>(
    db,
    sql`select * from (
          select distinct on (s.load_id, s.stop_type) s.load_id, case s.stop_type when 1 then 'pickup' else 'drop' end as stop,
                 s.lat, s.lng, s.address, s.address_details, s.date, c.name_en as city_en, c.name_ar as city_ar,
                 d.name_en as district_en, d.name_ar as district_ar,
                 case s.stop_type when 1 then l.pickup_latest_at end as latest_at,
                 case s.stop_type when 1 then l.pickup_hours_from else l.drop_hours_from end as hours_from,
                 case s.stop_type when 1 then l.pickup_hours_to else l.drop_hours_to end as hours_to
            from load_stops s join cities c on c.id = s.city_id join loads l on l.id = s.load_id
            left join districts d on d.id = s.district_id
           where s.load_id in ${inList(loadIds)}
           order by s.load_id, s.stop_type, case s.stop_type when 1 then s.idx else -s.idx end
        ) x`,
  );
}

export interface CargoRow {
  load_id: string;
  goods_type: string;
  quantity: number;
  weight_kg: number;
  adr: boolean;
  conditions: string | null;
}
/** Every cargo line of the loads, in their order (the driver's page lists them all; issue 23). */
export async function cargoOf(db: DbOrTx, loadIds: string[]): Promise<CargoRow[]> {
  if (loadIds.length === 0) return [];
  return queryRows<CargoRow>(
    db,
    sql`select load_id, goods_type, quantity, (quantity * weight_per_item_kg)::float8 as weight_kg, adr, conditions
          from cargo_lines where load_id in ${inList(loadIds)} order by load_id, idx`,
  );
}

export interface JobRow {
  id: string;
  reference_id: string;
  status: string;
  goods: string | null;
  total_weight_kg: number;
  carrier_id: string | null;
}
/** The driver's running shipments (assigned or waiting for Bayan), oldest assignment first. */
export async function jobsOfDriver(db: DbOrTx, driverId: string): Promise<JobRow[]> {
  return queryRows<JobRow>(
    db,
    sql`select l.id, l.reference_id, l.status, l.total_weight_kg::float8 as total_weight_kg, l.carrier_id,
               (select c.goods_type from cargo_lines c where c.load_id = l.id order by c.idx limit 1) as goods
          from loads l
         where l.driver_id = ${driverId} and l.status in ('assigned', 'pending_bayan') and l.deleted_at is null
         order by l.assigned_at nulls last, l.id`,
  );
}

export interface StepRow {
  load_id: string;
  step: TripStep;
  at: Date | string;
  lat: number | null;
  lng: number | null;
  geo_error: GeoError | null;
  /** The device's time (issue 49); null when the device sent none. */
  recorded_at: Date | string | null;
  distance_km: number | null;
  flagged: boolean;
}
export async function stepsOf(db: DbOrTx, loadIds: string[]): Promise<StepRow[]> {
  if (loadIds.length === 0) return [];
  return queryRows<StepRow>(
    db,
    sql`select load_id, step, at, lat, lng, geo_error, recorded_at, distance_km, flagged from trip_steps where load_id in ${inList(loadIds)} order by load_id, at, created_at`,
  );
}

export type NewStep = typeof tripSteps.$inferInsert;
export async function insertStep(tx: DbOrTx, row: NewStep): Promise<void> {
  await tx.insert(tripSteps).values(row);
}

export interface ProofRow {
  id: string;
  load_id: string;
  driver_id: string;
  stop: ProofStop;
  mime: string;
  size: number;
  storage_key: string;
  at: Date | string;
  lat: number | null;
  lng: number | null;
  distance_km: number | null;
  flagged: boolean;
  /** The device's time (issue 49); null when the device sent none. */
  recorded_at: Date | string | null;
}
const PROOF_COLUMNS = sql`id, load_id, driver_id, stop, mime, size, storage_key, at, lat, lng, distance_km, flagged, recorded_at`;
export async function proofsOf(db: DbOrTx, loadIds: string[]): Promise<ProofRow[]> {
  if (loadIds.length === 0) return [];
  return queryRows<ProofRow>(
    db,
    sql`select ${PROOF_COLUMNS}
          from trip_proofs where load_id in ${inList(loadIds)} order by load_id, at`,
  );
}
export async function proofById(db: DbOrTx, id: string): Promise<ProofRow | null> {
  const rows = await queryRows<ProofRow>(db, sql`select ${PROOF_COLUMNS} from trip_proofs where id = ${id}`);
  return rows[0] ?? null;
}
/** The proof of a load's stop, if the server has it (a second send of it is a replay; issue 49). */
export async function proofOfStop(db: DbOrTx, loadId: string, stop: ProofStop): Promise<ProofRow | null> {
  const rows = await queryRows<ProofRow>(db, sql`select ${PROOF_COLUMNS} from trip_proofs where load_id = ${loadId} and stop = ${stop}`);
  return rows[0] ?? null;
}
export type NewProof = typeof tripProofs.$inferInsert;
export async function insertProof(tx: DbOrTx, row: NewProof): Promise<void> {
  await tx.insert(tripProofs).values(row);
}

// ---------------------------------------------------------------------------------------------
// Tracking

export interface VehicleRow {
  id: string;
  owner_id: string;
  plate: string;
  plate_digits?: string;
  plate_letters?: string;
}
/** A vehicle of `ownerId` by its IMEI (not deleted). */
export async function vehicleByImei(db: DbOrTx, ownerId: string, imei: string): Promise<VehicleRow | null> {
  const rows = await queryRows<VehicleRow>(
    db,
    sql`select id, owner_id, plate_digits || ' ' || plate_letters as plate from vehicles
         where owner_id = ${ownerId} and imei = ${imei} and state <> 'deleted' limit 1`,
  );
  return rows[0] ?? null;
}
export async function vehicleById(db: DbOrTx, id: string): Promise<VehicleRow | null> {
  const rows = await queryRows<VehicleRow>(db, sql`select id, owner_id, plate_digits || ' ' || plate_letters as plate from vehicles where id = ${id}`);
  return rows[0] ?? null;
}
export async function vehiclesOfOwner(db: DbOrTx, ownerId: string, limit: number): Promise<VehicleRow[]> {
  return queryRows<VehicleRow>(
    db,
    sql`select id, owner_id, plate_digits || ' ' || plate_letters as plate, plate_digits, plate_letters from vehicles
         where owner_id = ${ownerId} and state <> 'deleted' order by created_at desc limit ${limit}`,
  );
}

/**
 * Store positions of one vehicle: every point in the trail (a repeated instant is ignored) and
 * the newest as the latest position unless a newer one is already there. Returns points stored.
 */
export async function insertPositions(tx: DbOrTx, vehicleId: string, points: PositionInput[]): Promise<number> {
  const values = sql.join(
    points.map((p) => sql`(${vehicleId}, ${p.at}::timestamptz, ${p.lat}, ${p.lng}, ${p.speed ?? null}::real, ${p.heading ?? null}::real)`),
    sql`, `,
  );
  const inserted = await queryRows<{ n: number }>(
    tx,
    sql`with ins as (
          insert into vehicle_positions (vehicle_id, at, lat, lng, speed, heading) values ${values}
          on conflict (vehicle_id, at) do nothing returning 1
        ) select count(*)::int as n from ins`,
  );
  const newest = points.reduce((a, b) => (Date.parse(b.at) > Date.parse(a.at) ? b : a));
  await tx.execute(
    sql`insert into vehicle_latest_positions (vehicle_id, at, lat, lng, speed, heading)
        values (${vehicleId}, ${newest.at}::timestamptz, ${newest.lat}, ${newest.lng}, ${newest.speed ?? null}::real, ${newest.heading ?? null}::real)
        on conflict (vehicle_id) do update set at = excluded.at, lat = excluded.lat, lng = excluded.lng, speed = excluded.speed, heading = excluded.heading
        where vehicle_latest_positions.at < excluded.at`,
  );
  return inserted[0]?.n ?? 0;
}

export interface PositionRow {
  vehicle_id: string;
  at: Date | string;
  lat: number;
  lng: number;
  speed: number | null;
  heading: number | null;
}
/** The trail since `since`: at most `limit` newest points (a range scan of vehicle_positions_trail), newest first. */
export async function trail(db: DbOrTx, vehicleId: string, since: Date, limit: number): Promise<PositionRow[]> {
  return queryRows<PositionRow>(
    db,
    sql`select vehicle_id, at, lat, lng, speed::float8 as speed, heading::float8 as heading from vehicle_positions
         where vehicle_id = ${vehicleId} and at >= ${since.toISOString()}::timestamptz
         order by at desc limit ${limit}`,
  );
}
export async function latestOf(db: DbOrTx, vehicleIds: string[]): Promise<PositionRow[]> {
  if (vehicleIds.length === 0) return [];
  return queryRows<PositionRow>(
    db,
    sql`select vehicle_id, at, lat, lng, speed::float8 as speed, heading::float8 as heading from vehicle_latest_positions where vehicle_id in ${inList(vehicleIds)}`,
  );
}

export interface ActiveShipmentRow {
  id: string;
  reference_id: string;
  status: string;
  pickup_lat: number;
  pickup_lng: number;
  drop_lat: number;
  drop_lng: number;
  vehicle_id: string | null;
  pickup_city_en: string;
  pickup_city_ar: string;
  drop_city_en: string;
  drop_city_ar: string;
  driver_name: string | null;
  plate_digits: string | null;
  plate_letters: string | null;
  delivered_at: Date | string | null;
}
/**
 * The user's running shipments, as shipper or awarded carrier (godsview), newest first, capped:
 * with the lane's city names, and the assigned driver and vehicle plate as they are now (an
 * unassigned shipment has neither, so a truck taken off leaves it at once).
 */
export async function activeShipmentsOf(db: DbOrTx, userId: string, limit: number): Promise<ActiveShipmentRow[]> {
  return queryRows<ActiveShipmentRow>(
    db,
    // an unassigned shipment keeps its last vehicle_id/driver_id on the row: they are not its truck any more
    sql`select l.id, l.reference_id, l.status, l.pickup_lat, l.pickup_lng, l.drop_lat, l.drop_lng, l.delivered_at,
               case when l.status = 'unassigned' then null else l.vehicle_id end as vehicle_id,
               pc.name_en as pickup_city_en, pc.name_ar as pickup_city_ar, dc.name_en as drop_city_en, dc.name_ar as drop_city_ar,
               case when d.id is null then null else d.first_name || ' ' || d.last_name end as driver_name,
               v.plate_digits, v.plate_letters
          from loads l
          join cities pc on pc.id = l.pickup_city_id
          join cities dc on dc.id = l.drop_city_id
          left join drivers d on d.id = l.driver_id and l.status <> 'unassigned'
          left join vehicles v on v.id = l.vehicle_id and l.status <> 'unassigned'
         where (l.shipper_id = ${userId} or l.carrier_id = ${userId}) and l.status in ('unassigned', 'assigned', 'pending_bayan') and l.deleted_at is null
         order by l.booked_at desc nulls last limit ${limit}`,
  );
}

/** Mean days from delivery to payment over the shipper's newest `window` paid shipments (index loads_shipper_paid). */
export async function daysToPay(db: DbOrTx, shipperId: string, window: number): Promise<{ avg_days: number | null; n: number }> {
  const rows = await queryRows<{ avg_days: number | null; n: number }>(
    db,
    sql`select avg(extract(epoch from (payment_received_at - delivered_at)) / 86400)::float8 as avg_days, count(*)::int as n
          from (select payment_received_at, delivered_at from loads
                 where shipper_id = ${shipperId} and payment_received_at is not null and delivered_at is not null and deleted_at is null
                 order by payment_received_at desc limit ${window}) p`,
  );
  return rows[0] ?? { avg_days: null, n: 0 };
}

/**
 * The vehicle of the driver's newest running shipment (the one a trip token's positions belong
 * to) and when that shipment was assigned (a point before it is not of this trip; issue 49).
 */
export async function jobsOfDriverVehicles(db: DbOrTx, driverId: string): Promise<{ vehicle_id: string; assigned_at: Date | string | null }[]> {
  return queryRows<{ vehicle_id: string; assigned_at: Date | string | null }>(
    db,
    sql`select vehicle_id, assigned_at from loads where driver_id = ${driverId} and status in ('assigned', 'pending_bayan') and deleted_at is null and vehicle_id is not null
         order by assigned_at desc nulls last limit 1`,
  );
}
