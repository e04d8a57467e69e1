import { sql } from 'drizzle-orm';
import type { CallStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/**
 * The only SQL that writes `calls.status` (issue 51: every status by a transition table). Called
 * by `transitionCall()` in lifecycle.ts and nothing else; test/boundaries.test.ts fails when any
 * other server file writes the column. A new call is inserted `ringing` (calls.repository.ts).
 */

/** What a transition records beside the status: who answered on which tab, or why it ended. */
export type CallTransitionSet = { answeredBy: string; answeredDeviceId: string } | { endReason: 'cancelled' | 'timeout' | 'declined' | 'hangup' };

/**
 * `update calls set status = $to, … where id = $id and status = $from`: the conditional update
 * that decides a race between two transitions. Answering stamps answered_at, ending ended_at (the
 * database's clock). False when no row matched (the status changed meanwhile).
 */
export async function transitionCallRow(tx: DbOrTx, id: string, from: CallStatus, to: CallStatus, set: CallTransitionSet): Promise<boolean> {
  const stamp =
    'endReason' in set
      ? sql`end_reason = ${set.endReason}, ended_at = now()`
      : sql`answered_by = ${set.answeredBy}, answered_device_id = ${set.answeredDeviceId}, answered_at = now()`;
  const rows = await queryRows<{ id: string }>(tx, sql`update calls set status = ${to}, ${stamp} where id = ${id} and status = ${from} returning id`);
  return rows.length === 1;
}
