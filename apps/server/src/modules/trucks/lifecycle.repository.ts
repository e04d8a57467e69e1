import { sql } from 'drizzle-orm';
import type { TruckStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { trucks } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';
import { postedKey, syncTruckSide, type TruckEdit } from './trucks.repository.ts';

/**
 * The only SQL that writes `trucks.status` (issue 19: one truck lifecycle). Called by
 * lifecycle.ts `transition()` and nothing else (test/boundaries.test.ts).
 */

/** `update trucks set status = $to, … where id = $id and status = $from`; false when the status changed meanwhile. */
export async function transitionRow(tx: DbOrTx, id: string, from: TruckStatus, to: TruckStatus, set: TruckEdit): Promise<boolean> {
  const before = await postedKey(tx, id);
  const rows = await tx
    .update(trucks)
    .set({ ...set, status: to, updatedAt: new Date() })
    .where(sql`${trucks.id} = ${id} and ${trucks.status} = ${from}`)
    .returning({ id: trucks.id });
  if (!rows.length) return false;
  // the side tables follow in the same transaction (trucks arriving, posts per city and hour)
  await syncTruckSide(tx, id, before);
  return true;
}

/**
 * Posted trucks whose window has ended, oldest first, locked (SKIP LOCKED) for the expiry job.
 * The condition is a range of the partial index trucks_posted_expiry (`(available_to) where
 * status = 'posted'`, migration 0103): the job reads only what is due.
 */
export async function dueForExpiry(tx: DbOrTx, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id from trucks where status = 'posted' and available_to <= now() order by available_to limit ${limit} for update skip locked`,
  );
  return rows.map((r) => r.id);
}

/** The SQL text of dueForExpiry (for EXPLAIN in the tests). */
export const DUE_FOR_EXPIRY_SQL = `select id from trucks where status = 'posted' and available_to <= now() order by available_to limit 500`;
