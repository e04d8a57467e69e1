import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { businessProfiles, contactShares, savedAddresses } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';

/** All SQL of the profile module (tables business_profiles, contact_shares, saved_addresses; reads cities/districts). */
export type BusinessProfileRow = typeof businessProfiles.$inferSelect;
export type ContactShareRow = typeof contactShares.$inferSelect;
export type SavedAddressRow = typeof savedAddresses.$inferSelect;

export async function findBusinessProfile(db: DbOrTx, userId: string): Promise<BusinessProfileRow | undefined> {
  const [r] = await db.select().from(businessProfiles).where(eq(businessProfiles.userId, userId));
  return r;
}
export async function upsertBusinessProfile(db: DbOrTx, row: typeof businessProfiles.$inferInsert): Promise<void> {
  const { userId: _u, ...set } = row;
  await db
    .insert(businessProfiles)
    .values(row)
    .onConflictDoUpdate({ target: businessProfiles.userId, set: { ...set, updatedAt: sql`now()` } });
}

export async function findContactShare(db: DbOrTx, userId: string): Promise<ContactShareRow | undefined> {
  const [r] = await db.select().from(contactShares).where(eq(contactShares.userId, userId));
  return r;
}
export async function upsertContactShare(db: DbOrTx, row: typeof contactShares.$inferInsert): Promise<void> {
  const { userId: _u, ...set } = row;
  await db
    .insert(contactShares)
    .values(row)
    .onConflictDoUpdate({ target: contactShares.userId, set: { ...set, updatedAt: sql`now()` } });
}

/** The city's lat/lng, and whether `districtId` (when given) is a district of that city. undefined: no such city. */
export async function cityPoint(db: DbOrTx, cityId: number, districtId: number | null | undefined) {
  const [r] = await queryRows<{ lat: number; lng: number; district_ok: boolean }>(
    db,
    sql`select c.lat, c.lng, ${districtId == null ? sql`true` : sql`exists (select 1 from districts d where d.id = ${districtId} and d.city_id = c.id)`} as district_ok
        from cities c where c.id = ${cityId}`,
  );
  return r ? { lat: Number(r.lat), lng: Number(r.lng), districtOk: Boolean(r.district_ok) } : undefined;
}

/** Serialise address-book writes of one user (the 200 limit) for the rest of the transaction. */
export async function lockAddressBook(tx: DbOrTx, userId: string): Promise<void> {
  await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`masar.addresses.${userId}`}))`);
}
export async function countAddresses(db: DbOrTx, userId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(savedAddresses)
    .where(eq(savedAddresses.userId, userId));
  return Number(r.n);
}
/** My saved addresses, labels A→Z, at most `limit`. */
export async function listAddresses(db: DbOrTx, userId: string, limit: number): Promise<SavedAddressRow[]> {
  return db
    .select()
    .from(savedAddresses)
    .where(eq(savedAddresses.userId, userId))
    .orderBy(asc(sql`lower(${savedAddresses.label})`), asc(savedAddresses.id))
    .limit(limit);
}
export async function findAddress(db: DbOrTx, userId: string, id: string): Promise<SavedAddressRow | undefined> {
  const [r] = await db
    .select()
    .from(savedAddresses)
    .where(and(eq(savedAddresses.id, id), eq(savedAddresses.userId, userId)));
  return r;
}
export async function insertAddress(db: DbOrTx, row: typeof savedAddresses.$inferInsert): Promise<SavedAddressRow> {
  const [r] = await db.insert(savedAddresses).values(row).returning();
  return r;
}
/** Update my address `id`; undefined when it is not mine (or gone). */
export async function updateAddress(
  db: DbOrTx,
  userId: string,
  id: string,
  set: Omit<typeof savedAddresses.$inferInsert, 'id' | 'userId' | 'createdAt'>,
): Promise<SavedAddressRow | undefined> {
  const [r] = await db
    .update(savedAddresses)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(savedAddresses.id, id), eq(savedAddresses.userId, userId)))
    .returning();
  return r;
}
export async function deleteAddress(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(savedAddresses)
    .where(and(eq(savedAddresses.id, id), eq(savedAddresses.userId, userId)))
    .returning({ id: savedAddresses.id });
  return rows.length > 0;
}
