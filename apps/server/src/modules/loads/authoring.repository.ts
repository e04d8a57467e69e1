import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { writeLoadCards, writeLoadCardsWhere } from '../../db/load-cards.ts';
import { cargoLines, loadStops, loads } from '../../db/schema/index.ts';
import { inList, queryRows } from '../../lib/sql.ts';

/* Writing loads (create, edit, duplicate, the demo board's rows and dates), never their status:
   lifecycle.repository.ts holds that. Reference lookups for validation. */

export interface CityRef {
  id: number;
  lat: number;
  lng: number;
}
export async function findCities(db: DbOrTx, ids: number[]): Promise<Map<number, CityRef>> {
  const uniq = [...new Set(ids)];
  const rows = await queryRows<CityRef>(db, sql`select id, lat, lng from cities where id = any(${`{${uniq.join(',')}}`}::int[])`);
  return new Map(rows.map((r) => [r.id, r]));
}

/** District id → its city id, for the districts of `ids` that exist. */
export async function districtCities(db: DbOrTx, ids: number[]): Promise<Map<number, number>> {
  const rows = await queryRows<{ id: string | number; city_id: number }>(
    db,
    sql`select id, city_id from districts where id = any(${`{${[...new Set(ids)].join(',')}}`}::bigint[])`,
  );
  return new Map(rows.map((r) => [Number(r.id), Number(r.city_id)]));
}

export async function equipmentExists(db: DbOrTx, code: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from equipment_types where code = ${code}`);
  return rows.length > 0;
}

/** Goods type codes (of `codes`) that do not exist. */
export async function unknownGoodsTypes(db: DbOrTx, codes: string[]): Promise<string[]> {
  const uniq = [...new Set(codes)];
  const rows = await queryRows<{ code: string }>(
    db,
    sql`select code from goods_types where code = any(${`{${uniq.map((c) => `"${c.replace(/["\\]/g, '')}"`).join(',')}}`}::text[])`,
  );
  const known = new Set(rows.map((r) => r.code));
  return uniq.filter((c) => !known.has(c));
}

export async function nextReference(db: DbOrTx): Promise<string> {
  const [r] = await queryRows<{ n: string | number }>(db, sql`select nextval('load_reference_seq') as n`);
  return `LD-${String(r.n).padStart(6, '0')}`;
}

export type NewLoad = typeof loads.$inferInsert;
export type NewStop = Omit<typeof loadStops.$inferInsert, 'loadId'>;
export type NewCargo = Omit<typeof cargoLines.$inferInsert, 'loadId'>;

/** Insert a load with its stops and cargo lines, and its board card (issue 45; call inside a transaction). */
export async function insertLoad(tx: DbOrTx, load: NewLoad, stops: NewStop[], cargo: NewCargo[]) {
  await tx.insert(loads).values(load);
  await tx.insert(loadStops).values(stops.map((s) => ({ ...s, loadId: load.id })));
  await tx.insert(cargoLines).values(cargo.map((c) => ({ ...c, loadId: load.id })));
  await writeLoadCards(tx, [load.id]);
}

/**
 * Insert many complete loads at once, 200 rows per statement (the demo board; call inside a
 * transaction). Stops and cargo lines carry their loadId.
 */
export async function insertLoadsBulk(
  tx: DbOrTx,
  rows: { loads: NewLoad[]; stops: (typeof loadStops.$inferInsert)[]; cargo: (typeof cargoLines.$inferInsert)[] },
) {
  for (let i = 0; i < rows.loads.length; i += 200) await tx.insert(loads).values(rows.loads.slice(i, i + 200));
  for (let i = 0; i < rows.stops.length; i += 200) await tx.insert(loadStops).values(rows.stops.slice(i, i + 200));
  for (let i = 0; i < rows.cargo.length; i += 200) await tx.insert(cargoLines).values(rows.cargo.slice(i, i + 200));
  // their board cards (issue 45), 1,000 loads per statement
  const ids = rows.loads.map((l) => l.id);
  for (let i = 0; i < ids.length; i += 1000) await writeLoadCards(tx, ids.slice(i, i + 1000));
}
export type NewStopRow = typeof loadStops.$inferInsert;
export type NewCargoRow = typeof cargoLines.$inferInsert;

/** `count` new load reference numbers (LD-000123) in one round trip. */
export async function nextReferenceIds(db: DbOrTx, count: number): Promise<string[]> {
  const rows = await queryRows<{ n: number }>(db, sql`select nextval('load_reference_seq')::int as n from generate_series(1, ${count})`);
  return rows.map((r) => `LD-${String(r.n).padStart(6, '0')}`);
}

/** Whether any of `shipperIds` has a load (deleted ones included). */
export async function shippersHaveLoads(db: DbOrTx, shipperIds: string[]): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from loads where shipper_id in ${inList(shipperIds)} limit 1`);
  return rows.length > 0;
}

/** The earliest pickup among the posted or expired loads of `shipperIds`, or null. */
export async function earliestOpenPickup(db: DbOrTx, shipperIds: string[]): Promise<Date | null> {
  const [r] = await queryRows<{ min: Date | string | null }>(
    db,
    sql`select min(pickup_at) as min from loads where shipper_id in ${inList(shipperIds)} and status in ('posted', 'expired')`,
  );
  return r?.min ? new Date(r.min) : null;
}

/**
 * Move every date of the loads of `shipperIds` (stops included) forward by `days`; creation,
 * posting and booking times never pass now. No status changes here: the loads service reposts the
 * expired ones through the lifecycle (refreshDemo). (The demo board's nightly refresh; inside a transaction.)
 */
export async function shiftLoadDates(tx: DbOrTx, shipperIds: string[], days: number): Promise<void> {
  const by = sql`make_interval(days => ${days})`;
  const owners = inList(shipperIds);
  await tx.execute(sql`update loads set pickup_at = pickup_at + ${by}, drop_at = drop_at + ${by}, expires_at = expires_at + ${by},
      posted_at = least(posted_at + ${by}, now()), booked_at = least(booked_at + ${by}, now()), created_at = least(created_at + ${by}, now()), updated_at = now()
    where shipper_id in ${owners}`);
  await tx.execute(sql`update load_stops s set date = s.date + ${by} from loads l where l.id = s.load_id and l.shipper_id in ${owners}`);
  // the cards show the stops' dates (issue 45)
  await writeLoadCardsWhere(tx, sql`l.shipper_id in ${owners}`);
}

/** The expired loads of `shipperIds` whose (moved) expiry is in the future again: the demo refresh reposts them through the lifecycle. */
export async function expiredBackInDate(db: DbOrTx, shipperIds: string[]) {
  return queryRows<{ id: string; shipper_id: string; pickup_at: Date | string }>(
    db,
    sql`select id, shipper_id, pickup_at from loads where shipper_id in ${inList(shipperIds)} and status = 'expired' and expires_at > now() and deleted_at is null order by id`,
  );
}

/** Replace a load's stops or cargo lines, and rewrite its board card (issue 45; call inside a transaction). */
export async function replaceStops(tx: DbOrTx, loadId: string, stops: NewStop[]) {
  await tx.execute(sql`delete from load_stops where load_id = ${loadId}`);
  await tx.insert(loadStops).values(stops.map((s) => ({ ...s, loadId })));
  await writeLoadCards(tx, [loadId]);
}
export async function replaceCargo(tx: DbOrTx, loadId: string, cargo: NewCargo[]) {
  await tx.execute(sql`delete from cargo_lines where load_id = ${loadId}`);
  await tx.insert(cargoLines).values(cargo.map((c) => ({ ...c, loadId })));
  await writeLoadCards(tx, [loadId]);
}

/** Move one stop to a new date (extend dates, repost with new dates) and rewrite its load's board card (issue 45). */
export async function setStopDate(tx: DbOrTx, stopId: string, date: Date): Promise<void> {
  const rows = await queryRows<{ load_id: string }>(
    tx,
    sql`update load_stops set date = ${date.toISOString()}::timestamptz where id = ${stopId} returning load_id`,
  );
  await writeLoadCards(
    tx,
    rows.map((r) => r.load_id),
  );
}

/** Stops and cargo of a load as insertable rows (duplicate, repost). */
export async function stopsAndCargo(db: DbOrTx, loadId: string) {
  const stops = await db
    .select()
    .from(loadStops)
    .where(sql`${loadStops.loadId} = ${loadId}`)
    .orderBy(loadStops.idx);
  const cargo = await db
    .select()
    .from(cargoLines)
    .where(sql`${cargoLines.loadId} = ${loadId}`)
    .orderBy(cargoLines.idx);
  return { stops, cargo };
}

export async function rawLoad(db: DbOrTx, id: string) {
  const rows = await db
    .select()
    .from(loads)
    .where(sql`${loads.id} = ${id}`);
  return rows[0] ?? null;
}

/** Write columns of a load other than its status (status changes go through lifecycle.ts transition()). */
export async function updateLoadRow(tx: DbOrTx, id: string, set: Omit<Partial<NewLoad>, 'status'>) {
  await tx
    .update(loads)
    .set({ ...set, updatedAt: new Date() })
    .where(sql`${loads.id} = ${id}`);
}
