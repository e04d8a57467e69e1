import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { loads } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';
import type { NewLoad } from './authoring.repository.ts';

/**
 * The only SQL that writes `loads.status` (issue 18: one lifecycle). Everything here is called by
 * `loadLifecycle.transition` (lifecycle.ts) and nothing else; test/lifecycle-writers.test.ts fails
 * when any other server file writes the column.
 */

/** Columns a transition may set beside the status (booking, assignment, repost dates, cancel). */
export type TransitionSet = Partial<
  Pick<
    NewLoad,
    | 'vehicleId'
    | 'driverId'
    | 'trailerId'
    | 'assignedAt'
    | 'deliveredAt'
    | 'paymentReceivedAt'
    | 'deletedAt'
    | 'carrierId'
    | 'bookedPrice'
    | 'bookedAt'
    | 'postedAt'
    | 'pickupAt'
    | 'dropAt'
    | 'expiresAt'
  >
>;

/**
 * `update loads set status = $to, … where id = $id and status = $from`: the conditional update
 * that decides a race between two transitions. `onBoard`: the row must also still be before its
 * expiry (a posted load past `expires_at` is expired by the read-time rule, whatever the job did).
 * Returns false when no row matched (the status changed meanwhile, or it expired).
 */
export async function transitionRow(tx: DbOrTx, id: string, from: string, to: string, set: TransitionSet, onBoard: boolean): Promise<boolean> {
  const rows = await tx
    .update(loads)
    .set({ ...set, status: to as NewLoad['status'], updatedAt: new Date() })
    .where(sql`${loads.id} = ${id} and ${loads.status} = ${from}${onBoard ? sql` and ${loads.expiresAt} > now()` : sql``}`)
    .returning({ id: loads.id });
  return rows.length > 0;
}

/**
 * Posted loads past their expiry, oldest expiry first, locked for the expiry job (SKIP LOCKED: a
 * load being booked right now is left for the next tick). The condition is a range of the partial
 * index loads_posted_expiry (`(expires_at) where status = 'posted'`, migration 0051): the job reads
 * only what is due, never every posted load.
 */
export async function dueForExpiry(tx: DbOrTx, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id from loads where status = 'posted' and expires_at <= now() and deleted_at is null
        order by expires_at limit ${limit} for update skip locked`,
  );
  return rows.map((r) => r.id);
}

/** The SQL text of dueForExpiry (for EXPLAIN in the tests). */
export const DUE_FOR_EXPIRY_SQL = `select id from loads where status = 'posted' and expires_at <= now() and deleted_at is null order by expires_at limit 500`;
