import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/**
 * The SQL of presence (table account_presence, migration 0128; owned by modules/realtime): when
 * an account was last seen on the real-time channel.
 */

/** Set the accounts' last-seen time to now (one statement; an account deleted meanwhile is skipped); the times stored. */
export async function touchLastSeen(db: DbOrTx, accountIds: string[]): Promise<Map<string, Date>> {
  if (accountIds.length === 0) return new Map();
  const rows = await queryRows<{ account_id: string; last_seen_at: string | Date }>(
    db,
    sql`insert into account_presence (account_id, last_seen_at)
        select id, now() from users where id in (${sql.join(
          accountIds.map((a) => sql`${a}::uuid`),
          sql`, `,
        )})
        on conflict (account_id) do update set last_seen_at = excluded.last_seen_at
        returning account_id, last_seen_at`,
  );
  return new Map(rows.map((r) => [r.account_id, new Date(r.last_seen_at)]));
}

/** Last-seen times by account (primary-key reads); an account never seen is absent. */
export async function lastSeenOf(db: DbOrTx, accountIds: string[]): Promise<Map<string, Date>> {
  if (accountIds.length === 0) return new Map();
  const rows = await queryRows<{ account_id: string; last_seen_at: string | Date }>(
    db,
    sql`select account_id, last_seen_at from account_presence where account_id in (${sql.join(
      accountIds.map((a) => sql`${a}::uuid`),
      sql`, `,
    )})`,
  );
  return new Map(rows.map((r) => [r.account_id, new Date(r.last_seen_at)]));
}
