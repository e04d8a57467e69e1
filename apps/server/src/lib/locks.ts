import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { queryRows } from './sql.ts';

/**
 * Serialize the writes that count against one account's cap (issue 22: "at most N" must hold
 * under 50 parallel requests): a transaction-scoped advisory lock keyed on the cap's name and the
 * owner's id, released at commit or rollback. Take it first in the insert's transaction, then
 * count, then insert: a racing request waits and counts the row just inserted. Works on
 * PostgreSQL and PGlite (one connection there, so the lock is only ever uncontended).
 *
 * `cap`: a short stable name, e.g. 'apikeys', 'webhooks', 'cards'.
 */
export async function lockAccountCap(tx: DbOrTx, cap: string, ownerId: string): Promise<void> {
  await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`masar.cap.${cap}.${ownerId}`}))`);
}
