import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/*
 * The fact-based record's tables (migration 0110; docs/account-record.md). Each fact of a
 * shipment is set at most once (the `… is null` guard of its update), and the counters move only
 * when the fact was newly set, in the same transaction: a redelivered or replayed event writes
 * nothing.
 */

/** The counters of account_records. */
export type RecordCounter =
  | 'carrier_completed'
  | 'pickups_measured'
  | 'pickups_on_time'
  | 'deliveries_measured'
  | 'deliveries_on_time'
  | 'carrier_cancellations'
  | 'shipper_completed'
  | 'shipper_cancellations';

/** The parties of a shipment's facts row. */
export interface RecordParties {
  shipper_id: string;
  carrier_id: string | null;
}

/** The facts row of a load (created on its first counted event; the carrier filled in once known). */
export async function ensureLoad(tx: DbOrTx, loadId: string, shipperId: string, carrierId: string | null): Promise<void> {
  await tx.execute(
    sql`insert into account_record_loads (load_id, shipper_id, carrier_id) values (${loadId}, ${shipperId}, ${carrierId})
        on conflict (load_id) do update set carrier_id = coalesce(account_record_loads.carrier_id, excluded.carrier_id)
        where account_record_loads.carrier_id is null and excluded.carrier_id is not null`,
  );
}

/** Record the arrival at the pickup once: the parties when it was newly recorded, else null. */
export async function setPickupArrival(tx: DbOrTx, loadId: string, at: Date, onTime: boolean): Promise<RecordParties | null> {
  const [r] = await queryRows<RecordParties>(
    tx,
    sql`update account_record_loads set pickup_arrived_at = ${at.toISOString()}, pickup_on_time = ${onTime}, updated_at = now()
        where load_id = ${loadId} and pickup_arrived_at is null returning shipper_id, carrier_id`,
  );
  return r ?? null;
}

/** Record the arrival at the drop once (see setPickupArrival). */
export async function setDropArrival(tx: DbOrTx, loadId: string, at: Date, onTime: boolean): Promise<RecordParties | null> {
  const [r] = await queryRows<RecordParties>(
    tx,
    sql`update account_record_loads set drop_arrived_at = ${at.toISOString()}, drop_on_time = ${onTime}, updated_at = now()
        where load_id = ${loadId} and drop_arrived_at is null returning shipper_id, carrier_id`,
  );
  return r ?? null;
}

/** Record the completion once (never after a cancellation). */
export async function setCompleted(tx: DbOrTx, loadId: string, at: Date): Promise<RecordParties | null> {
  const [r] = await queryRows<RecordParties>(
    tx,
    sql`update account_record_loads set completed_at = ${at.toISOString()}, updated_at = now()
        where load_id = ${loadId} and completed_at is null and cancelled_at is null returning shipper_id, carrier_id`,
  );
  return r ?? null;
}

/** Record a cancellation after booking once (never after a completion), and who cancelled. */
export async function setCancelled(tx: DbOrTx, loadId: string, at: Date, by: 'shipper' | 'carrier' | null): Promise<RecordParties | null> {
  const [r] = await queryRows<RecordParties>(
    tx,
    sql`update account_record_loads set cancelled_at = ${at.toISOString()}, cancelled_by = ${by}, updated_at = now()
        where load_id = ${loadId} and cancelled_at is null and completed_at is null returning shipper_id, carrier_id`,
  );
  return r ?? null;
}

/** Add to an account's counters (its row created on the first fact). */
export async function bump(tx: DbOrTx, accountId: string, deltas: Partial<Record<RecordCounter, number>>): Promise<void> {
  const cols = (Object.keys(deltas) as RecordCounter[]).filter((c) => deltas[c]);
  if (!cols.length) return;
  const names = sql.raw(cols.join(', '));
  const values = sql.join(
    cols.map((c) => sql`${deltas[c]}::int`),
    sql`, `,
  );
  const sets = sql.raw(cols.map((c) => `${c} = account_records.${c} + excluded.${c}`).join(', '));
  await tx.execute(
    sql`insert into account_records (account_id, ${names}) values (${accountId}, ${values})
        on conflict (account_id) do update set ${sets}, updated_at = now()`,
  );
}

/**
 * Measure a shipper's days-to-pay again (load.payment_received): the mean days from delivery to
 * payment received over its newest `window` paid shipments (index loads_shipper_paid, ≤ `window`
 * rows), one decimal. A recomputation, so a redelivered or replayed event writes the same values.
 */
export async function refreshDaysToPay(tx: DbOrTx, shipperId: string, window: number): Promise<void> {
  await tx.execute(
    sql`insert into account_records (account_id, days_to_pay, paid_shipments)
        select ${shipperId}::uuid, round(avg(extract(epoch from (payment_received_at - delivered_at)) / 86400)::numeric, 1), count(*)::int
          from (select payment_received_at, delivered_at from loads
                 where shipper_id = ${shipperId} and payment_received_at is not null and delivered_at is not null and deleted_at is null
                 order by payment_received_at desc limit ${window}) p
        on conflict (account_id) do update set days_to_pay = excluded.days_to_pay, paid_shipments = excluded.paid_shipments, updated_at = now()`,
  );
}

/** An account's counters. */
export interface RecordRow {
  account_id: string;
  carrier_completed: number;
  pickups_measured: number;
  pickups_on_time: number;
  deliveries_measured: number;
  deliveries_on_time: number;
  carrier_cancellations: number;
  shipper_completed: number;
  shipper_cancellations: number;
}

/** The counters of these accounts (by primary key); accounts without any fact are absent. */
export async function recordsOf(db: DbOrTx, accountIds: string[]): Promise<Map<string, RecordRow>> {
  if (!accountIds.length) return new Map();
  const rows = await queryRows<RecordRow>(
    db,
    sql`select account_id, carrier_completed, pickups_measured, pickups_on_time, deliveries_measured, deliveries_on_time,
               carrier_cancellations, shipper_completed, shipper_cancellations
        from account_records where account_id = any(${`{${accountIds.join(',')}}`}::uuid[])`,
    // read with every truck page and every offer list: primary keys, the generic plan
    'records_of',
    'generic',
  );
  return new Map(rows.map((r) => [r.account_id, r]));
}

/** Does the account exist (GET /accounts/:id/record answers 404 otherwise)? */
export async function accountExists(db: DbOrTx, id: string): Promise<boolean> {
  const [r] = await queryRows<{ ok: number }>(db, sql`select 1 as ok from users where id = ${id}`);
  return !!r;
}
