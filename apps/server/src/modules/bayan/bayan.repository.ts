import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { bayanTrips, waybillConfigs } from '../../db/schema/bayan.ts';
import { inList, queryRows } from '../../lib/sql.ts';

/**
 * All SQL of the Bayan module (owns bayan_trips and waybill_configs; reads loads, fleet and users)
 * but the status writes of bayan_trips (lifecycle.repository.ts). A trip is inserted `pending`.
 */

export type BayanTripRow = typeof bayanTrips.$inferSelect;
export type NewBayanTrip = typeof bayanTrips.$inferInsert;

/** What a Bayan trip is made of: the shipment's stops, cargo and parties (read-only joins). */
export interface TripFacts {
  referenceId: string;
  shipperId: string;
  shipperCompany: string;
  shipperPhone: string;
  bookedPrice: string | null;
  price: string;
  pickupCityId: number;
  pickupAddress: string | null;
  pickupAt: Date;
  dropCityId: number;
  dropAddress: string | null;
  dropAt: Date;
  cargo: { goodsType: string; quantity: number; weightKg: number }[];
}

export async function tripFacts(db: DbOrTx, loadId: string): Promise<TripFacts | null> {
  const [r] = await queryRows<{
    reference_id: string;
    shipper_id: string;
    company_name: string;
    phone: string;
    booked_price: string | null;
    price: string;
    p_city: number;
    p_address: string | null;
    p_date: Date | string;
    d_city: number;
    d_address: string | null;
    d_date: Date | string;
    cargo: { goodsType: string; quantity: number; weightKg: number }[];
  }>(
    db,
    sql`select l.reference_id, l.shipper_id, u.company_name, u.phone, l.booked_price::text as booked_price, l.price::text as price,
          p.city_id as p_city, p.address as p_address, p.date as p_date, d.city_id as d_city, d.address as d_address, d.date as d_date,
          coalesce((select json_agg(json_build_object('goodsType', c.goods_type, 'quantity', c.quantity,
                      'weightKg', (c.quantity * c.weight_per_item_kg)::float8) order by c.idx)
                    from cargo_lines c where c.load_id = l.id), '[]'::json) as cargo
        from loads l
        join users u on u.id = l.shipper_id
        join lateral (select * from load_stops s where s.load_id = l.id and s.stop_type = 1 order by s.idx limit 1) p on true
        join lateral (select * from load_stops s where s.load_id = l.id and s.stop_type = 2 order by s.idx desc limit 1) d on true
        where l.id = ${loadId}`,
  );
  if (!r) return null;
  return {
    referenceId: r.reference_id,
    shipperId: r.shipper_id,
    shipperCompany: r.company_name,
    shipperPhone: r.phone,
    bookedPrice: r.booked_price,
    price: r.price,
    pickupCityId: r.p_city,
    pickupAddress: r.p_address,
    pickupAt: new Date(r.p_date),
    dropCityId: r.d_city,
    dropAddress: r.d_address,
    dropAt: new Date(r.d_date),
    cargo: r.cargo,
  };
}

/** The vehicle and driver facts a Bayan trip and its checks need (fleet tables, read only). */
export interface FleetFacts {
  vehicle: {
    id: string;
    ownerId: string;
    weightKg: number;
    plateType: number;
    plateDigits: string;
    plateLetters: string;
    waslStatus: string;
    state: string;
  } | null;
  driver: {
    id: string;
    ownerId: string;
    idNumber: string;
    issueCount: number | null;
    phone: string;
    waslStatus: string;
    state: string;
  } | null;
}

export async function fleetFacts(db: DbOrTx, vehicleId: string, driverId: string): Promise<FleetFacts> {
  const [v] = await queryRows<{
    id: string;
    owner_id: string;
    weight_kg: number;
    plate_type: number;
    plate_digits: string;
    plate_letters: string;
    wasl_status: string;
    state: string;
  }>(
    db,
    sql`select id, owner_id, weight_kg::float8 as weight_kg, plate_type, plate_digits, plate_letters, wasl_status, state from vehicles where id = ${vehicleId}`,
  );
  const [d] = await queryRows<{
    id: string;
    owner_id: string;
    driver_id_number: string;
    iqama_issue_count: number | null;
    phone: string;
    wasl_status: string;
    state: string;
  }>(db, sql`select id, owner_id, driver_id_number, iqama_issue_count, phone, wasl_status, state from drivers where id = ${driverId}`);
  return {
    vehicle: v
      ? {
          id: v.id,
          ownerId: v.owner_id,
          weightKg: Number(v.weight_kg),
          plateType: v.plate_type,
          plateDigits: v.plate_digits,
          plateLetters: v.plate_letters,
          waslStatus: v.wasl_status,
          state: v.state,
        }
      : null,
    driver: d
      ? {
          id: d.id,
          ownerId: d.owner_id,
          idNumber: d.driver_id_number,
          issueCount: d.iqama_issue_count,
          phone: d.phone,
          waslStatus: d.wasl_status,
          state: d.state,
        }
      : null,
  };
}

export async function insertTrip(tx: DbOrTx, row: NewBayanTrip): Promise<void> {
  await tx.insert(bayanTrips).values(row);
}

/** Record an attempt on a trip (its tries, Bayan's last error). Never its status: lifecycle.repository.ts writes that (through transitionTrip()). */
export async function updateTrip(tx: DbOrTx, id: string, patch: Partial<Pick<NewBayanTrip, 'attempts' | 'lastError'>>): Promise<void> {
  await tx
    .update(bayanTrips)
    .set({ ...patch, updatedAt: new Date() })
    .where(sql`${bayanTrips.id} = ${id}`);
}

export async function deleteTrip(tx: DbOrTx, id: string): Promise<void> {
  await tx.delete(bayanTrips).where(sql`${bayanTrips.id} = ${id}`);
}

export async function getTrip(db: DbOrTx, id: string, lock = false): Promise<BayanTripRow | null> {
  const q = db
    .select()
    .from(bayanTrips)
    .where(sql`${bayanTrips.id} = ${id}`);
  const rows = lock ? await q.for('update') : await q;
  return rows[0] ?? null;
}

/** The shipment's live Bayan (pending or active), else its newest one. */
export async function tripOfLoad(db: DbOrTx, loadId: string): Promise<BayanTripRow | null> {
  const rows = await db
    .select()
    .from(bayanTrips)
    .where(sql`${bayanTrips.loadId} = ${loadId}`)
    .orderBy(sql`(${bayanTrips.status} in ('pending', 'active')) desc, ${bayanTrips.createdAt} desc`)
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Pending trips not touched for `staleSeconds` and not refused by Bayan (the sweep re-queues them),
 * longest untouched first: a range of bayan_trips_pending_stale (`(updated_at) where status =
 * 'pending'`, migration 0101), so the minutely sweep reads only the stale ones (issue 24).
 */
export async function stalePending(db: DbOrTx, staleSeconds: number, limit = 100): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from bayan_trips where status = 'pending' and updated_at < now() - make_interval(secs => ${staleSeconds})
          and coalesce(last_error, '') not like 'rejected:%' order by updated_at limit ${limit}`,
  );
  return rows.map((r) => r.id);
}

/** A row of the trip list with what the list shows beside it. */
export interface TripListRow extends BayanTripRow {
  /** created_at as PostgreSQL's text (microseconds kept): the keyset cursor's key. */
  createdKey: string;
  referenceId: string;
  plateDigits: string;
  plateLetters: string;
  driverFirstName: string;
  driverLastName: string;
  fromEn: string;
  fromAr: string;
  toEn: string;
  toAr: string;
}

const LIST_SELECT = sql`select b.id, b.load_id, b.carrier_id, b.shipper_id, b.vehicle_id, b.driver_id, b.status, b.trip_id, b.waybill_id,
    b.waybill_number, b.attempts, b.last_error, b.cancel_reason, b.delivered_at, b.created_at, b.created_at::text as created_key, b.updated_at,
    l.reference_id, v.plate_digits, v.plate_letters, dr.first_name, dr.last_name,
    pc.name_en as from_en, pc.name_ar as from_ar, dc.name_en as to_en, dc.name_ar as to_ar
  from bayan_trips b
  join loads l on l.id = b.load_id
  join vehicles v on v.id = b.vehicle_id
  join drivers dr on dr.id = b.driver_id
  left join cities pc on pc.id = l.pickup_city_id
  left join cities dc on dc.id = l.drop_city_id`;

type RawListRow = {
  id: string;
  load_id: string;
  carrier_id: string;
  shipper_id: string;
  vehicle_id: string;
  driver_id: string;
  status: BayanTripRow['status'];
  trip_id: string | null;
  waybill_id: string | null;
  waybill_number: string | null;
  attempts: number;
  last_error: string | null;
  cancel_reason: BayanTripRow['cancelReason'];
  delivered_at: Date | string | null;
  created_at: Date | string;
  created_key: string;
  updated_at: Date | string;
  reference_id: string;
  plate_digits: string;
  plate_letters: string;
  first_name: string;
  last_name: string;
  from_en: string | null;
  from_ar: string | null;
  to_en: string | null;
  to_ar: string | null;
};
const toListRow = (r: RawListRow): TripListRow => ({
  id: r.id,
  loadId: r.load_id,
  carrierId: r.carrier_id,
  shipperId: r.shipper_id,
  vehicleId: r.vehicle_id,
  driverId: r.driver_id,
  status: r.status,
  tripId: r.trip_id,
  waybillId: r.waybill_id,
  waybillNumber: r.waybill_number,
  request: null,
  attempts: r.attempts,
  lastError: r.last_error,
  cancelReason: r.cancel_reason,
  deliveredAt: r.delivered_at ? new Date(r.delivered_at) : null,
  createdAt: new Date(r.created_at),
  createdKey: r.created_key,
  updatedAt: new Date(r.updated_at),
  referenceId: r.reference_id,
  plateDigits: r.plate_digits,
  plateLetters: r.plate_letters,
  driverFirstName: r.first_name,
  driverLastName: r.last_name,
  fromEn: r.from_en ?? '',
  fromAr: r.from_ar ?? '',
  toEn: r.to_en ?? '',
  toAr: r.to_ar ?? '',
});

export async function listRow(db: DbOrTx, id: string): Promise<TripListRow | null> {
  const rows = await queryRows<RawListRow>(db, sql`${LIST_SELECT} where b.id = ${id}`);
  return rows[0] ? toListRow(rows[0]) : null;
}

/**
 * A page of the user's trips (carrier or shipper), newest first, keyset on (created_at, id) with
 * `after.key` = created_at as PostgreSQL text (microseconds: a millisecond cursor skipped trips
 * created in the same millisecond). Two walks, one per index (bayan_trips_carrier / _shipper),
 * each stopping after `limit` matches, then the page's rows are joined: an `or` of the two read
 * and sorted every trip of the user (284 ms at 100,000 trips).
 */
export async function listTrips(
  db: DbOrTx,
  userId: string,
  f: { status?: string; from?: Date; to?: Date; reference?: string; after?: { key: string; id: string } },
  limit: number,
): Promise<TripListRow[]> {
  const conds: SQL[] = [];
  if (f.status) conds.push(sql`b.status = ${f.status}`);
  if (f.from) conds.push(sql`b.created_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) conds.push(sql`b.created_at <= ${f.to.toISOString()}::timestamptz`);
  if (f.reference) {
    const like = `${f.reference.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(sql`(upper(l.reference_id) like ${like} or upper(b.waybill_number) like ${like})`);
  }
  if (f.after) conds.push(sql`(b.created_at, b.id) < (${f.after.key}::timestamptz, ${f.after.id}::uuid)`);
  const walk = (who: 'carrier_id' | 'shipper_id') =>
    sql`(select b.id, b.created_at from bayan_trips b${f.reference ? sql` join loads l on l.id = b.load_id` : sql``}
         where ${sql.join([sql`b.${sql.raw(who)} = ${userId}`, ...conds], sql` and `)}
         order by b.created_at desc, b.id desc limit ${limit})`;
  const rows = await queryRows<RawListRow>(
    db,
    sql`${LIST_SELECT} where b.id in (select id from (${walk('carrier_id')} union ${walk('shipper_id')}) p)
        order by b.created_at desc, b.id desc limit ${limit}`,
  );
  return rows.map(toListRow);
}

export async function getWaybillConfig(db: DbOrTx, userId: string) {
  const rows = await db
    .select()
    .from(waybillConfigs)
    .where(sql`${waybillConfigs.userId} = ${userId}`);
  return rows[0] ?? null;
}

export async function putWaybillConfig(db: DbOrTx, row: typeof waybillConfigs.$inferInsert): Promise<void> {
  await db
    .insert(waybillConfigs)
    .values(row)
    .onConflictDoUpdate({
      target: waybillConfigs.userId,
      set: {
        senderName: row.senderName,
        senderPhone: row.senderPhone,
        senderAddress: row.senderAddress,
        senderCityId: row.senderCityId,
        updatedAt: new Date(),
      },
    });
}

export async function cityExists(db: DbOrTx, id: number): Promise<boolean> {
  return (await queryRows(db, sql`select 1 from cities where id = ${id}`)).length > 0;
}

/** The live (pending or active) Bayan status of each of `loadIds` that has one. */
export async function liveStatusOfLoads(db: DbOrTx, loadIds: string[]): Promise<Map<string, 'pending' | 'active'>> {
  if (loadIds.length === 0) return new Map();
  const rows = await queryRows<{ load_id: string; status: 'pending' | 'active' }>(
    db,
    sql`select load_id, status from bayan_trips where status in ('pending', 'active') and load_id in ${inList(loadIds)}`,
  );
  return new Map(rows.map((r) => [r.load_id, r.status]));
}
