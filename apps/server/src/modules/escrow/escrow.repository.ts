import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { escrows } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';

/**
 * The SQL of payment protection (table escrows, migration 0141) but the writes of
 * `escrows.status`: those are in lifecycle.repository.ts (a new row's first status, `unfunded`,
 * is written by insertEscrow here). Reads the load's booking (a join-free read of `loads`).
 */
export type EscrowRow = typeof escrows.$inferSelect;

/** Insert an escrow `unfunded`; false when the load has one already (the booking handler ran before). */
export async function insertEscrow(tx: DbOrTx, row: Omit<typeof escrows.$inferInsert, 'status'>): Promise<boolean> {
  const r = await tx
    .insert(escrows)
    .values({ ...row, status: 'unfunded' })
    .onConflictDoNothing({ target: escrows.loadId })
    .returning({ id: escrows.id });
  return r.length > 0;
}

export async function escrowOfLoad(db: DbOrTx, loadId: string, lock = false): Promise<EscrowRow | undefined> {
  const q = db.select().from(escrows).where(eq(escrows.loadId, loadId));
  const [r] = lock ? await q.for('update') : await q;
  return r;
}

export async function escrowById(db: DbOrTx, id: string, lock = false): Promise<EscrowRow | undefined> {
  const q = db.select().from(escrows).where(eq(escrows.id, id));
  const [r] = lock ? await q.for('update') : await q;
  return r;
}

/** A booked load's protection terms: who pays whom and the agreed price (SAR text); undefined when not booked. */
export async function bookingOf(
  tx: DbOrTx,
  loadId: string,
): Promise<{ protection: boolean; shipperId: string; carrierId: string | null; bookedPrice: string | null } | undefined> {
  const [r] = await queryRows<{ payment_protection: boolean; shipper_id: string; carrier_id: string | null; booked_price: string | null }>(
    tx,
    sql`select payment_protection, shipper_id, carrier_id, booked_price::text as booked_price from loads where id = ${loadId}`,
  );
  return r && { protection: r.payment_protection, shipperId: r.shipper_id, carrierId: r.carrier_id, bookedPrice: r.booked_price };
}

/** Escrows whose release is due (partial index escrows_release_due), oldest first. */
export async function dueIds(db: DbOrTx, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: escrows.id })
    .from(escrows)
    .where(and(eq(escrows.status, 'release_scheduled'), sql`${escrows.releaseAt} <= ${now.toISOString()}::timestamptz`))
    .orderBy(escrows.releaseAt)
    .limit(limit);
  return rows.map((r) => r.id);
}
