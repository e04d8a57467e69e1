import { sql } from 'drizzle-orm';
import type { LedgerAccount, LedgerPosting } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/**
 * The SQL of the ledger (tables ledger_journals, ledger_postings; migration 0140). Writes go
 * only through the database function `ledger_post`, which inserts a journal and its postings in
 * one statement, refuses an unbalanced set, and does nothing for a fact already posted.
 */

/** Post a journal; its id, or null when the fact (kind, id) was posted before. */
export async function postJournal(
  tx: DbOrTx,
  j: { id: string; factKind: string; factId: string; memo: string; postings: LedgerPosting[] },
): Promise<string | null> {
  const postings = JSON.stringify(j.postings.map((p) => ({ owner: p.owner, account: p.account, amount: p.amount })));
  const [r] = await queryRows<{ id: string | null }>(
    tx,
    sql`select ledger_post(${j.id}::uuid, ${j.factKind}, ${j.factId}, ${j.memo}, ${postings}::jsonb) as id`,
  );
  return r.id;
}

/** The balances of one owner's accounts (null: the platform's), in integer halalas. */
export async function balancesOf(db: DbOrTx, ownerId: string | null): Promise<{ account: LedgerAccount; balance: number }[]> {
  const rows = await queryRows<{ account: LedgerAccount; balance: string | number }>(
    db,
    sql`select account, coalesce(sum(amount_halalas), 0)::bigint as balance from ledger_postings
        where owner_id is not distinct from ${ownerId}::uuid group by account order by account`,
  );
  return rows.map((r) => ({ account: r.account, balance: Number(r.balance) }));
}

/** One account's balance in halalas (the sum of its postings). */
export async function balanceOf(db: DbOrTx, ownerId: string | null, account: LedgerAccount): Promise<number> {
  const [r] = await queryRows<{ balance: string | number }>(
    db,
    sql`select coalesce(sum(amount_halalas), 0)::bigint as balance from ledger_postings
        where owner_id is not distinct from ${ownerId}::uuid and account = ${account}`,
  );
  return Number(r.balance);
}

/** The trial balance: the sum of every posting per currency (0 when the ledger balances), and counts. */
export async function trialBalance(db: DbOrTx): Promise<{ currency: string; total: number; postings: number; journals: number }[]> {
  const rows = await queryRows<{ currency: string; total: string | number; postings: string | number; journals: string | number }>(
    db,
    sql`select currency, sum(amount_halalas)::bigint as total, count(*)::bigint as postings, count(distinct journal_id)::bigint as journals
        from ledger_postings group by currency`,
  );
  return rows.map((r) => ({ currency: r.currency, total: Number(r.total), postings: Number(r.postings), journals: Number(r.journals) }));
}

/** The journal a fact posted, if any (id and when). */
export async function journalOfFact(db: DbOrTx, factKind: string, factId: string): Promise<{ id: string; createdAt: Date } | undefined> {
  const [r] = await queryRows<{ id: string; created_at: Date }>(
    db,
    sql`select id, created_at from ledger_journals where fact_kind = ${factKind} and fact_id = ${factId}`,
  );
  return r ? { id: r.id, createdAt: r.created_at } : undefined;
}
