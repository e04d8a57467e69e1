import { and, desc, eq, sql } from 'drizzle-orm';
import type { SearchFilters, SearchKind } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { recentSearches, savedSearches } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';

/* Saved and recent searches (issue 19; migration 0109). The caller holds the account's cap lock. */

export type SavedSearchRow = typeof savedSearches.$inferSelect;
export type RecentSearchRow = typeof recentSearches.$inferSelect;

/** A user's saved searches of a kind, newest first (at most the cap: one index range). */
export function listSaved(db: DbOrTx, userId: string, kind: SearchKind): Promise<SavedSearchRow[]> {
  return db
    .select()
    .from(savedSearches)
    .where(and(eq(savedSearches.userId, userId), eq(savedSearches.kind, kind)))
    .orderBy(desc(savedSearches.createdAt), desc(savedSearches.id));
}

export async function countSaved(db: DbOrTx, userId: string, kind: SearchKind): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(savedSearches)
    .where(and(eq(savedSearches.userId, userId), eq(savedSearches.kind, kind)));
  return Number(r?.n ?? 0);
}

/** Insert a saved search; null when the user already has one with these filters (the unique index). */
export async function insertSaved(
  db: DbOrTx,
  row: { id: string; userId: string; kind: SearchKind; name: string; filters: SearchFilters; filterKey: string },
): Promise<SavedSearchRow | null> {
  const [r] = await db.insert(savedSearches).values(row).onConflictDoNothing().returning();
  return r ?? null;
}

export async function renameSaved(db: DbOrTx, userId: string, id: string, name: string): Promise<SavedSearchRow | null> {
  const [r] = await db
    .update(savedSearches)
    .set({ name, updatedAt: new Date() })
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
    .returning();
  return r ?? null;
}

export async function deleteSaved(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  const r = await db
    .delete(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
    .returning({ id: savedSearches.id });
  return r.length > 0;
}

/** A user's recent searches of a kind, most recent first. */
export function listRecent(db: DbOrTx, userId: string, kind: SearchKind, limit: number): Promise<RecentSearchRow[]> {
  return db
    .select()
    .from(recentSearches)
    .where(and(eq(recentSearches.userId, userId), eq(recentSearches.kind, kind)))
    .orderBy(desc(recentSearches.usedAt), desc(recentSearches.id))
    .limit(limit);
}

/**
 * Record a search as the most recent (a repeat moves its row to the top: used_at = now) and drop
 * all but the `keep` most recent of the user and kind. Run in one transaction under the account's lock.
 */
export async function upsertRecent(
  tx: DbOrTx,
  row: { id: string; userId: string; kind: SearchKind; filters: SearchFilters; filterKey: string },
  keep: number,
): Promise<RecentSearchRow> {
  // clock_timestamp(): two searches recorded in one transaction (or one ms) still order
  const [r] = await tx
    .insert(recentSearches)
    .values({ ...row, usedAt: sql`clock_timestamp()` })
    .onConflictDoUpdate({
      target: [recentSearches.userId, recentSearches.kind, recentSearches.filterKey],
      set: { usedAt: sql`clock_timestamp()` },
    })
    .returning();
  await queryRows(
    tx,
    sql`delete from recent_searches where user_id = ${row.userId} and kind = ${row.kind} and id not in (
          select id from recent_searches where user_id = ${row.userId} and kind = ${row.kind} order by used_at desc, id desc limit ${keep})`,
  );
  return r;
}

export async function deleteRecent(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  const r = await db
    .delete(recentSearches)
    .where(and(eq(recentSearches.id, id), eq(recentSearches.userId, userId)))
    .returning({ id: recentSearches.id });
  return r.length > 0;
}
