import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { loads } from '../../db/schema/index.ts';
import { inList, queryRows } from '../../lib/sql.ts';
import type { NewLoad } from './authoring.repository.ts';

/**
 * The only SQL that writes `loads.status` (issue 18: one lifecycle). Everything here is called by
 * `transition()` and the expiry job's `expireBatch()` (lifecycle.ts) and nothing else;
 * test/boundaries.test.ts fails when any other server file writes the column.
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
 * The batch form of transitionRow for the expiry job: `update loads set status = $to where id in
 * (…) and status = $from`, one statement for up to a batch of rows the caller already holds FOR
 * UPDATE. Returns the rows that moved, with their owner (the event names the shipper).
 */
export async function transitionRows(tx: DbOrTx, ids: string[], from: string, to: string): Promise<{ id: string; shipper_id: string }[]> {
  if (!ids.length) return [];
  return queryRows<{ id: string; shipper_id: string }>(
    tx,
    sql`update loads set status = ${to}, updated_at = now() where id in ${inList(ids)} and status = ${from} returning id, shipper_id`,
  );
}

/**
 * Posted loads past their expiry, oldest expiry first, locked for the expiry job (SKIP LOCKED: a
 * load being booked right now is left for the next tick). The expiry IS the pickup deadline: it is
 * stored as `expires_at` = first pickup + LOAD_EXPIRY_HOURS_AFTER_PICKUP whenever the dates are
 * set (post, edit, repost), and the read-time rule (EXPIRED/ON_BOARD in loads.repository.ts) uses
 * the same column. The condition is a range of the partial index loads_posted_expiry
 * (`(expires_at) where status = 'posted'`, migration 0051) — one condition on one column, no OR —
 * so a run reads only what is due, never every posted load, in the custom and in the generic plan
 * (issue 24: test/jobs-due.test.ts checks both, bench/expiry.bench.ts times it at 1M loads).
 */
const dueForExpiryQuery = (limit: number) =>
  sql`select id from loads where status = 'posted' and expires_at <= now() and deleted_at is null order by expires_at limit ${limit} for update skip locked`;

export async function dueForExpiry(tx: DbOrTx, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(tx, dueForExpiryQuery(limit));
  return rows.map((r) => r.id);
}

/** The SQL text of dueForExpiry as it is sent ($1: the batch size), for EXPLAIN in the tests and the bench. */
export const DUE_FOR_EXPIRY_SQL = new PgDialect().sqlToQuery(dueForExpiryQuery(500)).sql;
