import { and, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users, vehicles, vendors } from '../../db/schema/index.ts';

/** All SQL of my vendors. */
export type VendorRow = typeof vendors.$inferSelect;
export type NewVendor = typeof vendors.$inferInsert;
export type VendorStatus = VendorRow['status'];

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function getVendor(tx: DbOrTx, ownerId: string, id: string, forUpdate = false): Promise<VendorRow | undefined> {
  const q = tx
    .select()
    .from(vendors)
    .where(and(eq(vendors.id, id), eq(vendors.ownerId, ownerId), isNull(vendors.deletedAt)));
  const [r] = forUpdate ? await q.for('update') : await q;
  return r;
}

export async function listVendors(
  tx: DbOrTx,
  ownerId: string,
  f: { search?: string; statuses?: VendorStatus[]; userType?: string },
  limit: number,
  skip: number,
) {
  const conds: (SQL | undefined)[] = [eq(vendors.ownerId, ownerId), isNull(vendors.deletedAt)];
  if (f.statuses?.length) conds.push(inArray(vendors.status, f.statuses));
  if (f.userType) conds.push(eq(vendors.userType, f.userType));
  if (f.search) {
    const s = like(f.search);
    conds.push(or(ilike(vendors.companyName, s), ilike(vendors.vendorName, s), ilike(vendors.email, s), ilike(vendors.phone, s)));
  }
  const where = and(...conds);
  const [items, [{ n }]] = await Promise.all([
    tx.select().from(vendors).where(where).orderBy(desc(vendors.createdAt), desc(vendors.id)).limit(limit).offset(skip),
    tx
      .select({ n: sql<number>`count(*)::int` })
      .from(vendors)
      .where(where),
  ]);
  return { items, total: n };
}

/** Every live vendor of an owner (CSV export), oldest first. */
export async function allVendors(tx: DbOrTx, ownerId: string) {
  return tx
    .select()
    .from(vendors)
    .where(and(eq(vendors.ownerId, ownerId), isNull(vendors.deletedAt)))
    .orderBy(vendors.createdAt, vendors.id);
}

/** Which of `email`/`phone` an owner already uses on a live vendor (other than `exceptId`). */
export async function contactTaken(tx: DbOrTx, ownerId: string, email: string | undefined, phone: string | undefined, exceptId?: string) {
  const conds: SQL[] = [];
  if (email) conds.push(sql`lower(${vendors.email}) = lower(${email})`);
  if (phone) conds.push(eq(vendors.phone, phone));
  if (!conds.length) return { email: false, phone: false };
  const rows = await tx
    .select({ email: vendors.email, phone: vendors.phone })
    .from(vendors)
    .where(
      and(
        eq(vendors.ownerId, ownerId),
        isNull(vendors.deletedAt),
        sql`${vendors.status} <> 'not_verified'`,
        exceptId ? sql`${vendors.id} <> ${exceptId}` : undefined,
        or(...conds),
      ),
    );
  return {
    email: Boolean(email) && rows.some((r) => r.email.toLowerCase() === email!.toLowerCase()),
    phone: Boolean(phone) && rows.some((r) => r.phone === phone),
  };
}

/** Column name and SQL type of every vendor column a new row sets (bulk insert below). */
const BULK_COLUMNS: [keyof NewVendor, string, string][] = [
  ['id', 'id', 'uuid'],
  ['ownerId', 'owner_id', 'uuid'],
  ['status', 'status', 'text'],
  ['origin', 'origin', 'text'],
  ['userType', 'user_type', 'text'],
  ['companyName', 'company_name', 'text'],
  ['vendorName', 'vendor_name', 'text'],
  ['phone', 'phone', 'text'],
  ['email', 'email', 'text'],
  ['jobTitle', 'job_title', 'text'],
  ['officeLocations', 'office_locations', 'jsonb'],
  ['notes', 'notes', 'text'],
  ['crNumber', 'cr_number', 'text'],
  ['tlNumber', 'tl_number', 'text'],
  ['vatNumber', 'vat_number', 'text'],
  ['paymentTerms', 'payment_terms', 'text'],
  ['shipmentTypes', 'shipment_types', 'jsonb'],
  ['regions', 'regions', 'jsonb'],
  ['preferredLanguages', 'preferred_languages', 'jsonb'],
  ['preferredContactMethod', 'preferred_contact_method', 'text'],
  ['numberOfTrucks', 'number_of_trucks', 'integer'],
  ['numberOfTrailers', 'number_of_trailers', 'integer'],
  ['fleetSize', 'fleet_size', 'integer'],
  ['fleetTypes', 'fleet_types', 'jsonb'],
  ['equipmentTypes', 'equipment_types', 'jsonb'],
  ['serviceArea', 'service_area', 'text'],
  ['insurance', 'insurance', 'text'],
  ['rateAgreement', 'rate_agreement', 'text'],
  ['pastExperience', 'past_experience', 'text'],
  ['paymentHistory', 'payment_history', 'text'],
  ['customsClearance', 'customs_clearance', 'boolean'],
  ['documentFileIds', 'document_file_ids', 'jsonb'],
];
const BULK_SQL = {
  cols: sql.raw(BULK_COLUMNS.map(([, c]) => c).join(', ')),
  defs: sql.raw(BULK_COLUMNS.map(([, c, t]) => `${c} ${t}`).join(', ')),
};

/**
 * Insert vendors. Many rows (CSV import) go as ONE parameter, a JSON array expanded by
 * jsonb_to_recordset: one statement, no per-cell parameters, about an order of magnitude
 * faster than a wide multi-row VALUES on both engines.
 */
export async function insertVendors(tx: DbOrTx, rows: NewVendor[]) {
  if (rows.length === 0) return;
  if (rows.length < 5) {
    await tx.insert(vendors).values(rows);
    return;
  }
  const json = JSON.stringify(rows.map((r) => Object.fromEntries(BULK_COLUMNS.map(([k, c]) => [c, r[k] ?? null]))));
  await tx.execute(sql`insert into vendors (${BULK_SQL.cols}) select ${BULK_SQL.cols} from jsonb_to_recordset(${json}::jsonb) as x(${BULK_SQL.defs})`);
}
export async function updateVendor(tx: DbOrTx, id: string, patch: Partial<NewVendor>) {
  await tx
    .update(vendors)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(vendors.id, id));
}
/** Live vehicles that name this vendor as their source. */
export async function vendorInUse(tx: DbOrTx, id: string) {
  const r = await tx
    .select({ id: vehicles.id })
    .from(vehicles)
    .where(and(eq(vehicles.vendorId, id), sql`${vehicles.state} <> 'deleted'`))
    .limit(1);
  return r.length > 0;
}
export async function ownerInfo(tx: DbOrTx, ownerId: string) {
  const [r] = await tx
    .select({ companyName: users.companyName, accountType: users.accountType, status: users.status })
    .from(users)
    .where(eq(users.id, ownerId));
  return r;
}

/** Whether `ownerId` has any vendor, deleted ones included. */
export async function ownerHasVendors(db: DbOrTx, ownerId: string): Promise<boolean> {
  const rows = await db.select({ id: vendors.id }).from(vendors).where(eq(vendors.ownerId, ownerId)).limit(1);
  return rows.length > 0;
}

/**
 * The Masar account of each of `ids` (vendors of `ownerId`, not deleted): a vendor record has no
 * user link, so it maps to the registered carrier or broker (account type 2 or 3, not suspended
 * or deleted) whose phone equals the vendor's phone (both normalized by the shared phoneSchema)
 * or, failing that, whose e-mail equals the vendor's (case-insensitive). userId null: none.
 * Vendors not found (another owner's, deleted) are absent from the result.
 */
export async function vendorAccounts(tx: DbOrTx, ownerId: string, ids: string[]): Promise<{ vendorId: string; userId: string | null }[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({
      vendorId: vendors.id,
      // qualified by hand: drizzle may render a select's own columns unqualified, which inside
      // this subquery would resolve to the users row
      userId: sql<string | null>`(select u.id from ${users} u
        where u.account_type in (2, 3) and u.status not in (3, 4) and u.id <> ${ownerId}
          and (u.phone = "vendors"."phone" or lower(u.email) = lower("vendors"."email"))
        order by (u.phone = "vendors"."phone") desc, u.created_at limit 1)`,
    })
    .from(vendors)
    .where(and(eq(vendors.ownerId, ownerId), inArray(vendors.id, ids), isNull(vendors.deletedAt)));
  return rows;
}

/**
 * Whether `userId` is the Masar account of one of `ownerId`'s verified, live vendors (matched by
 * phone or e-mail as in vendorAccounts): the "trusted carriers" a Book Now load may be limited to
 * (issue 19).
 */
export async function isVerifiedVendorAccount(db: DbOrTx, ownerId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: vendors.id })
    .from(vendors)
    .where(
      and(
        eq(vendors.ownerId, ownerId),
        eq(vendors.status, 'verified'),
        isNull(vendors.deletedAt),
        sql`exists (select 1 from ${users} u where u.id = ${userId} and u.id <> ${ownerId}
          and (u.phone = "vendors"."phone" or lower(u.email) = lower("vendors"."email")))`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}
