import { and, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { drivers, trailers, trustedDrivers, vehicles, vendors } from '../../db/schema/index.ts';
import { normalizePlateLetter, toLatinDigits } from '@masar/shared';
import { queryRows } from '../../lib/sql.ts';

/** All SQL of fleet management (vehicles, trailers, drivers, trusted drivers). */

export type VehicleRow = typeof vehicles.$inferSelect;
export type TrailerRow = typeof trailers.$inferSelect;
export type DriverRow = typeof drivers.$inferSelect;
export type NewVehicle = typeof vehicles.$inferInsert;
export type NewTrailer = typeof trailers.$inferInsert;
export type NewDriver = typeof drivers.$inferInsert;
export type State = 'active' | 'suspended' | 'deleted';

type FleetTable = typeof vehicles | typeof trailers | typeof drivers;

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const stateCond = (col: FleetTable['state'], state?: State) => (state ? eq(col, state) : ne(col, 'deleted'));
/** Row `id` of `ownerId`, not deleted (another owner's row is simply not found). */
const ownedLive = (t: FleetTable, ownerId: string, id: string) => and(eq(t.id, id), eq(t.ownerId, ownerId), ne(t.state, 'deleted'));
/** How many rows of `t` match `where` (a list's total). */
async function countOf(tx: DbOrTx, t: FleetTable, where: SQL) {
  const [{ n }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(t)
    .where(where);
  return n;
}
/**
 * Whether a live (not deleted) row other than `exceptId` matches: `tableWhere` is the SQL after
 * `from` (`vehicles where plate_digits = …`). The pre-checks of the unique indexes use it; the
 * index itself still decides a race.
 */
async function liveRowExists(tx: DbOrTx, tableWhere: SQL, exceptId?: string) {
  const r = await queryRows(tx, sql`select 1 from ${tableWhere} and state <> 'deleted' ${exceptId ? sql`and id <> ${exceptId}` : sql``} limit 1`);
  return r.length > 0;
}

export async function equipmentExists(tx: DbOrTx, code: string) {
  return (await queryRows(tx, sql`select 1 from equipment_types where code = ${code}`)).length > 0;
}
export async function vendorOwned(tx: DbOrTx, ownerId: string, vendorId: string) {
  const r = await tx
    .select({ id: vendors.id })
    .from(vendors)
    .where(and(eq(vendors.id, vendorId), eq(vendors.ownerId, ownerId), sql`${vendors.deletedAt} is null`));
  return r.length > 0;
}

// ---------- vehicles ----------
export interface VehicleView extends VehicleRow {
  driverFirstName: string | null;
  driverLastName: string | null;
  trailerNumber: string | null;
}

async function selectVehicles(tx: DbOrTx, where: SQL | undefined, limit?: number, skip?: number): Promise<VehicleView[]> {
  const q = tx
    .select({ v: vehicles, driverFirstName: drivers.firstName, driverLastName: drivers.lastName, trailerNumber: trailers.trailerNumber })
    .from(vehicles)
    .leftJoin(drivers, eq(drivers.id, vehicles.driverId))
    .leftJoin(trailers, eq(trailers.id, vehicles.trailerId))
    .where(where)
    .orderBy(desc(vehicles.createdAt), desc(vehicles.id));
  const rows = limit !== undefined ? await q.limit(limit).offset(skip ?? 0) : await q;
  return rows.map((r) => ({ ...r.v, driverFirstName: r.driverFirstName, driverLastName: r.driverLastName, trailerNumber: r.trailerNumber }));
}

export async function getVehicle(tx: DbOrTx, ownerId: string, id: string, forUpdate = false): Promise<VehicleView | undefined> {
  if (forUpdate) await queryRows(tx, sql`select 1 from vehicles where id = ${id} and owner_id = ${ownerId} for update`);
  const [r] = await selectVehicles(tx, ownedLive(vehicles, ownerId, id));
  return r;
}
export async function getVehiclesByIds(tx: DbOrTx, ids: string[]) {
  if (ids.length === 0) return [];
  return selectVehicles(tx, inArray(vehicles.id, ids));
}

export interface VehicleFilter {
  search?: string;
  state?: State;
  availability?: 'free' | 'busy';
  wasl?: VehicleRow['waslStatus'];
}
function vehicleWhere(ownerId: string, f: VehicleFilter): SQL {
  const conds: (SQL | undefined)[] = [eq(vehicles.ownerId, ownerId), stateCond(vehicles.state, f.state)];
  if (f.availability) conds.push(eq(vehicles.availability, f.availability));
  if (f.wasl) conds.push(eq(vehicles.waslStatus, f.wasl));
  if (f.search) {
    const s = like(f.search);
    // a plate typed any way ("1234 أ ب د", "ABD1234", Arabic digits) → digits and canonical letters
    const compact = [...toLatinDigits(f.search)]
      .filter((ch) => ch.trim() && ch !== '-' && ch !== '\u0640')
      .map((ch) => (/\d/.test(ch) ? ch : (normalizePlateLetter(ch) ?? ch)))
      .join('');
    const digits = compact.replace(/\D/g, '');
    const letters = compact.replace(/\d/g, '');
    conds.push(
      or(
        ilike(sql`${vehicles.plateDigits} || ${vehicles.plateLetters}`, like(digits + letters)),
        ilike(sql`${vehicles.plateLetters} || ${vehicles.plateDigits}`, like(letters + digits)),
        ilike(vehicles.plateDigits, s),
        ilike(vehicles.plateLetters, s),
        ilike(vehicles.make, s),
        ilike(vehicles.model, s),
        ilike(vehicles.sequenceNumber, s),
        ilike(vehicles.registrationNumber, s),
        ilike(vehicles.vehicleType, s),
      ),
    );
  }
  return and(...conds)!;
}
export async function listVehicles(tx: DbOrTx, ownerId: string, f: VehicleFilter, limit: number, skip: number) {
  const where = vehicleWhere(ownerId, f);
  const [items, total] = await Promise.all([selectVehicles(tx, where, limit, skip), countOf(tx, vehicles, where)]);
  return { items, total };
}
export async function vehiclesForAssignment(tx: DbOrTx, ownerId: string) {
  return selectVehicles(
    tx,
    and(
      eq(vehicles.ownerId, ownerId),
      eq(vehicles.state, 'active'),
      eq(vehicles.availability, 'free'),
      sql`${vehicles.driverId} is not null and ${vehicles.trailerId} is not null`,
      eq(drivers.state, 'active'),
      eq(trailers.state, 'active'),
    ),
  );
}
export async function plateTaken(tx: DbOrTx, digits: string, letters: string, exceptId?: string) {
  return liveRowExists(tx, sql`vehicles where plate_digits = ${digits} and plate_letters = ${letters}`, exceptId);
}
/** Live vehicle id per driver or trailer id of `ids` (`part`: the vehicle's column that links them). */
async function vehiclesOf(tx: DbOrTx, part: typeof vehicles.driverId | typeof vehicles.trailerId, ids: string[]) {
  const m = new Map<string, string>();
  if (!ids.length) return m;
  const rows = await tx
    .select({ id: vehicles.id, part })
    .from(vehicles)
    .where(and(inArray(part, ids), ne(vehicles.state, 'deleted')));
  for (const r of rows) if (r.part) m.set(r.part, r.id);
  return m;
}
/** vehicle id per driver id (live vehicles). */
export const vehiclesOfDrivers = (tx: DbOrTx, ids: string[]) => vehiclesOf(tx, vehicles.driverId, ids);
/** vehicle id per trailer id (live vehicles). */
export const vehiclesOfTrailers = (tx: DbOrTx, ids: string[]) => vehiclesOf(tx, vehicles.trailerId, ids);
/** The live vehicle driver `driverId` is on, or null. */
export async function vehicleOfDriver(tx: DbOrTx, driverId: string) {
  return (await vehiclesOfDrivers(tx, [driverId])).get(driverId) ?? null;
}
/** The live vehicle trailer `trailerId` is linked to, or null. */
export async function vehicleOfTrailer(tx: DbOrTx, trailerId: string) {
  return (await vehiclesOfTrailers(tx, [trailerId])).get(trailerId) ?? null;
}
export async function insertVehicles(tx: DbOrTx, rows: NewVehicle[]) {
  if (rows.length) await tx.insert(vehicles).values(rows);
}
export async function updateVehicle(tx: DbOrTx, id: string, patch: Partial<NewVehicle>) {
  await tx
    .update(vehicles)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(vehicles.id, id));
}
/** Free the driver / trailer of any live vehicle (when the driver or trailer is deleted). */
export async function detachFromVehicles(tx: DbOrTx, what: { driverId?: string; trailerId?: string }) {
  if (what.driverId) await tx.update(vehicles).set({ driverId: null, updatedAt: new Date() }).where(eq(vehicles.driverId, what.driverId));
  if (what.trailerId) await tx.update(vehicles).set({ trailerId: null, updatedAt: new Date() }).where(eq(vehicles.trailerId, what.trailerId));
}

// ---------- trailers ----------
export async function getTrailer(tx: DbOrTx, ownerId: string, id: string): Promise<TrailerRow | undefined> {
  const [r] = await tx
    .select()
    .from(trailers)
    .where(ownedLive(trailers, ownerId, id));
  return r;
}
function trailerWhere(ownerId: string, f: { search?: string; state?: State }) {
  const conds: (SQL | undefined)[] = [eq(trailers.ownerId, ownerId), stateCond(trailers.state, f.state)];
  if (f.search) conds.push(or(ilike(trailers.trailerNumber, like(f.search)), ilike(trailers.trailerType, like(f.search))));
  return and(...conds)!;
}
export async function listTrailers(tx: DbOrTx, ownerId: string, f: { search?: string; state?: State }, limit: number, skip: number) {
  const where = trailerWhere(ownerId, f);
  const [items, total] = await Promise.all([
    tx.select().from(trailers).where(where).orderBy(desc(trailers.createdAt), desc(trailers.id)).limit(limit).offset(skip),
    countOf(tx, trailers, where),
  ]);
  return { items, total };
}
export async function getTrailersByIds(tx: DbOrTx, ids: string[]) {
  return ids.length ? tx.select().from(trailers).where(inArray(trailers.id, ids)) : [];
}
export async function trailerNumberTaken(tx: DbOrTx, ownerId: string, num: string, exceptId?: string) {
  return liveRowExists(tx, sql`trailers where owner_id = ${ownerId} and trailer_number = ${num}`, exceptId);
}
export async function insertTrailers(tx: DbOrTx, rows: NewTrailer[]) {
  if (rows.length) await tx.insert(trailers).values(rows);
}
export async function updateTrailer(tx: DbOrTx, id: string, patch: Partial<NewTrailer>) {
  await tx
    .update(trailers)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(trailers.id, id));
}

// ---------- drivers ----------
export async function getDriver(tx: DbOrTx, ownerId: string, id: string): Promise<DriverRow | undefined> {
  const [r] = await tx
    .select()
    .from(drivers)
    .where(ownedLive(drivers, ownerId, id));
  return r;
}
function driverSearch(search: string) {
  const s = like(search);
  return or(
    ilike(drivers.firstName, s),
    ilike(drivers.lastName, s),
    ilike(sql`${drivers.firstName} || ' ' || ${drivers.lastName}`, s),
    ilike(drivers.phone, s),
    ilike(drivers.licenceNumber, s),
    ilike(drivers.driverIdNumber, s),
  );
}
function driverWhere(ownerId: string, f: { search?: string; state?: State; wasl?: DriverRow['waslStatus'] }) {
  const conds: (SQL | undefined)[] = [eq(drivers.ownerId, ownerId), stateCond(drivers.state, f.state)];
  if (f.wasl) conds.push(eq(drivers.waslStatus, f.wasl));
  if (f.search) conds.push(driverSearch(f.search));
  return and(...conds)!;
}
export async function listDrivers(
  tx: DbOrTx,
  ownerId: string,
  f: { search?: string; state?: State; trustedOnly?: boolean; wasl?: DriverRow['waslStatus'] },
  limit: number,
  skip: number,
) {
  let where = driverWhere(ownerId, f);
  if (f.trustedOnly) where = and(where, sql`exists (select 1 from trusted_drivers t where t.owner_id = ${ownerId} and t.driver_id = ${drivers.id})`)!;
  const [items, total] = await Promise.all([
    tx.select().from(drivers).where(where).orderBy(desc(drivers.createdAt), desc(drivers.id)).limit(limit).offset(skip),
    countOf(tx, drivers, where),
  ]);
  return { items, total };
}
export async function getDriversByIds(tx: DbOrTx, ids: string[]) {
  return ids.length ? tx.select().from(drivers).where(inArray(drivers.id, ids)) : [];
}
export async function moiTaken(tx: DbOrTx, moi: string, exceptId?: string) {
  return liveRowExists(tx, sql`drivers where moi_number = ${moi}`, exceptId);
}
export async function driverIdTaken(tx: DbOrTx, ownerId: string, idNumber: string, exceptId?: string) {
  return liveRowExists(tx, sql`drivers where owner_id = ${ownerId} and driver_id_number = ${idNumber}`, exceptId);
}
export async function insertDrivers(tx: DbOrTx, rows: NewDriver[]) {
  if (rows.length) await tx.insert(drivers).values(rows);
}
/** Move the driver's link generation on: every job link and trip token made before is refused for good (issue 22). */
export async function bumpLinkGeneration(tx: DbOrTx, id: string) {
  await tx
    .update(drivers)
    .set({ linkGeneration: sql`${drivers.linkGeneration} + 1` })
    .where(eq(drivers.id, id));
}

export async function updateDriver(tx: DbOrTx, id: string, patch: Partial<NewDriver>) {
  await tx
    .update(drivers)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(drivers.id, id));
}
export async function trustedSet(tx: DbOrTx, ownerId: string, ids: string[]) {
  if (!ids.length) return new Set<string>();
  const rows = await tx
    .select({ d: trustedDrivers.driverId })
    .from(trustedDrivers)
    .where(and(eq(trustedDrivers.ownerId, ownerId), inArray(trustedDrivers.driverId, ids)));
  return new Set(rows.map((r) => r.d));
}
export async function addTrusted(tx: DbOrTx, ownerId: string, driverId: string) {
  await tx.insert(trustedDrivers).values({ ownerId, driverId }).onConflictDoNothing();
}
export async function removeTrusted(tx: DbOrTx, ownerId: string, driverId: string) {
  await tx.delete(trustedDrivers).where(and(eq(trustedDrivers.ownerId, ownerId), eq(trustedDrivers.driverId, driverId)));
}

// ---------- the fleet table (tabs) ----------
export interface FleetFilter extends VehicleFilter {
  tab: number;
}
/**
 * One page of the fleet table across kinds, newest first: (kind, id) pairs plus counts per
 * kind. The vehicle-only filter (availability) leaves drivers and trailers out; the WASL filter
 * applies to vehicles and drivers (issue 7) and leaves trailers out.
 */
export async function fleetPage(tx: DbOrTx, ownerId: string, f: FleetFilter, limit: number, skip: number) {
  const vehicleOnly = Boolean(f.availability);
  const noTrailers = vehicleOnly || Boolean(f.wasl);
  // kind is a constant of this code, written into the SQL as a literal (a parameter has no type in a union)
  const part = (kind: 'vehicle' | 'trailer' | 'driver', t: FleetTable, where: SQL) => ({
    kind,
    q: sql`select ${sql.raw(`'${kind}'`)} as kind, ${t.id} as id, ${t.createdAt} as created_at from ${t} where ${where}`,
  });
  const parts = [part('vehicle', vehicles, vehicleWhere(ownerId, f))];
  if (!noTrailers) parts.push(part('trailer', trailers, trailerWhere(ownerId, f)));
  if (!vehicleOnly) parts.push(part('driver', drivers, driverWhere(ownerId, f)));
  const counts = { vehicles: 0, trailers: 0, drivers: 0 };
  const countRows = await queryRows<{ kind: string; n: number }>(
    tx,
    sql.join(
      parts.map((p) => sql`select ${p.kind}::text as kind, count(*)::int as n from (${p.q}) x`),
      sql` union all `,
    ),
  );
  for (const r of countRows) counts[`${r.kind}s` as keyof typeof counts] = r.n;
  const want = f.tab === 1 ? 'driver' : f.tab === 2 ? 'trailer' : f.tab === 3 ? 'vehicle' : null;
  const chosen = parts.filter((p) => !want || p.kind === want);
  if (!chosen.length) return { ids: [] as { kind: string; id: string }[], counts };
  const ids = await queryRows<{ kind: 'vehicle' | 'trailer' | 'driver'; id: string }>(
    tx,
    sql`select kind, id from (${sql.join(
      chosen.map((p) => p.q),
      sql` union all `,
    )}) u order by created_at desc, id desc limit ${limit} offset ${skip}`,
  );
  return { ids, counts };
}

/** Whether `ownerId` has any vehicle, trailer or driver, deleted ones included (the demo seed leaves such accounts alone). */
export async function ownerHasFleet(db: DbOrTx, ownerId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from vehicles where owner_id = ${ownerId}
        union all select 1 from trailers where owner_id = ${ownerId}
        union all select 1 from drivers where owner_id = ${ownerId}
        limit 1`,
  );
  return rows.length > 0;
}

/**
 * Per owner among `ownerIds`: vehicles not deleted and how many of them are WASL verified (the
 * fact-based record's WASL share). One index range per owner (vehicles_owner_wasl, migration 0110).
 */
export async function waslCountsOf(db: DbOrTx, ownerIds: string[]): Promise<{ owner_id: string; vehicles: number; verified: number }[]> {
  if (!ownerIds.length) return [];
  const rows = await queryRows<{ owner_id: string; vehicles: string | number; verified: string | number }>(
    db,
    sql`select owner_id, count(*) as vehicles, count(*) filter (where wasl_status = 'verified') as verified
        from vehicles where owner_id = any(${`{${ownerIds.join(',')}}`}::uuid[]) and state <> 'deleted' group by owner_id`,
  );
  return rows.map((r) => ({ owner_id: r.owner_id, vehicles: Number(r.vehicles), verified: Number(r.verified) }));
}
