import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/**
 * All SQL of the calls module (tables calls and call_lines, migration 0127; reads the
 * conversation's sides, loads for the reference and users for the company names, as the chat
 * module does). Everything runs on the connection or transaction it is given. The status of a call
 * is written by lifecycle.repository.ts only (through transitionCall() in lifecycle.ts); a new
 * call is inserted `ringing`.
 */

export interface CallRow {
  id: string;
  conversation_id: string;
  load_id: string;
  reference_id: string;
  /** The conversation's two sides (the caller is one of them). */
  shipper_id: string;
  carrier_id: string;
  caller_id: string;
  caller_user_id: string;
  callee_id: string;
  caller_company: string;
  callee_company: string;
  type: 'audio' | 'video';
  status: 'ringing' | 'active' | 'ended' | 'missed' | 'declined';
  caller_device_id: string | null;
  answered_by: string | null;
  answered_device_id: string | null;
  created_at: string;
  answered_at: string | null;
  ended_at: string | null;
  end_reason: 'cancelled' | 'timeout' | 'declined' | 'hangup' | null;
}

const cols = sql`k.*, l.reference_id, cv.shipper_id, cv.carrier_id, cu.company_name as caller_company, eu.company_name as callee_company`;
const from = sql`calls k join chat_conversations cv on cv.id = k.conversation_id join loads l on l.id = k.load_id
  join users cu on cu.id = k.caller_id join users eu on eu.id = k.callee_id`;

/**
 * Insert a ringing call unless its conversation already has a ringing or active one (the partial
 * unique index calls_live_conversation_idx: of racing calls one row). True when inserted.
 */
export async function insertCall(
  tx: DbOrTx,
  c: {
    id: string;
    conversationId: string;
    loadId: string;
    callerId: string;
    callerUserId: string;
    calleeId: string;
    type: 'audio' | 'video';
    deviceId: string | null;
  },
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`insert into calls (id, conversation_id, load_id, caller_id, caller_user_id, callee_id, type, caller_device_id)
        values (${c.id}, ${c.conversationId}, ${c.loadId}, ${c.callerId}, ${c.callerUserId}, ${c.calleeId}, ${c.type}, ${c.deviceId})
        on conflict (conversation_id) where status in ('ringing', 'active') do nothing returning id`,
  );
  return rows.length === 1;
}

/** Take both accounts' lines for the call; the number taken (2 unless one is in another call). */
export async function takeLines(tx: DbOrTx, callId: string, accounts: [string, string]): Promise<number> {
  // always in the same order, so two calls racing over the same two accounts cannot deadlock
  const [a, b] = [...accounts].sort();
  const rows = await queryRows<{ account_id: string }>(
    tx,
    sql`insert into call_lines (account_id, call_id) values (${a}, ${callId}), (${b}, ${callId})
        on conflict (account_id) do nothing returning account_id`,
  );
  return rows.length;
}

export async function releaseLines(tx: DbOrTx, callId: string): Promise<void> {
  await queryRows(tx, sql`delete from call_lines where call_id = ${callId}`);
}

export async function callById(db: DbOrTx, id: string, lock = false): Promise<CallRow | undefined> {
  if (lock) await queryRows(db, sql`select id from calls where id = ${id} for update`);
  const [r] = await queryRows<CallRow>(db, sql`select ${cols} from ${from} where k.id = ${id}`);
  return r;
}

/** The ringing or active call an account is in (its line), if any. */
export async function liveCallOf(db: DbOrTx, accountId: string): Promise<CallRow | undefined> {
  const [r] = await queryRows<CallRow>(db, sql`select ${cols} from call_lines x join ${from} on k.id = x.call_id where x.account_id = ${accountId}`);
  return r;
}

/** Ringing calls started before `before` (the ring time is over), locked, skipping those another worker holds. */
export async function ringingBefore(tx: DbOrTx, before: Date, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id from calls where status = 'ringing' and created_at < ${before.toISOString()}::timestamptz
        order by created_at limit ${limit} for update skip locked`,
  );
  return rows.map((r) => r.id);
}
