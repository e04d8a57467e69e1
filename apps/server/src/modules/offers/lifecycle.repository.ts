import { sql, type SQL } from 'drizzle-orm';
import type { OfferStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { recountCardOffers } from '../../db/load-cards.ts';
import { queryRows } from '../../lib/sql.ts';
import type { Party } from './offers.repository.ts';

/**
 * The only SQL that writes `offers.status` after an offer is made (issue 18: one lifecycle),
 * called by `transitionOffer` (lifecycle.ts) and nothing else; test/lifecycle-writers.test.ts
 * fails when any other server file writes the column.
 */

/** What a transition may set beside the status (a counter offer's price and turn). */
export interface OfferTransitionSet {
  price?: string;
  lastOfferBy?: Party;
}

/**
 * `update offers set status = $to, … where id = $id and status = $from`; false when no row matched.
 * An offer leaving or entering `pending` changes its load's offer count: the board card's is
 * recounted in the same transaction (issue 45).
 */
export async function transitionOfferRow(tx: DbOrTx, id: string, from: OfferStatus, to: OfferStatus, set: OfferTransitionSet): Promise<boolean> {
  const parts: SQL[] = [sql`status = ${to}`, sql`updated_at = now()`];
  if (set.price !== undefined) parts.push(sql`price = ${set.price}`);
  if (set.lastOfferBy) parts.push(sql`last_offer_by = ${set.lastOfferBy}`);
  const rows = await queryRows<{ load_id: string }>(
    tx,
    sql`update offers set ${sql.join(parts, sql`, `)} where id = ${id} and status = ${from} returning load_id`,
  );
  if (rows.length > 0 && from !== to && (from === 'pending' || to === 'pending')) await recountCardOffers(tx, [rows[0].load_id]);
  return rows.length > 0;
}

/** The offers of a load in `status` (all but `exceptId`), locked FOR UPDATE, in id order (no deadlock between two closers). */
export async function offersOfLoadIn(tx: DbOrTx, loadId: string, status: OfferStatus, exceptId?: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id from offers where load_id = ${loadId} and status = ${status}${exceptId ? sql` and id <> ${exceptId}` : sql``} order by id for update`,
  );
  return rows.map((r) => r.id);
}

/** The pending offers between two users (either one the shipper, the other the bidder), locked FOR UPDATE. */
export async function pendingBetween(tx: DbOrTx, a: string, b: string): Promise<{ id: string; shipper_id: string }[]> {
  return queryRows<{ id: string; shipper_id: string }>(
    tx,
    sql`select id, shipper_id from offers
        where status = 'pending' and ((shipper_id = ${a} and carrier_id = ${b}) or (shipper_id = ${b} and carrier_id = ${a}))
        order by id for update`,
  );
}

/** The pending offer(s) of `carrierId` on a load (at most one: offers_one_open), locked FOR UPDATE. */
export async function pendingOfCarrierOnLoad(tx: DbOrTx, loadId: string, carrierId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id from offers where load_id = ${loadId} and carrier_id = ${carrierId} and status = 'pending' order by id for update`,
  );
  return rows.map((r) => r.id);
}
