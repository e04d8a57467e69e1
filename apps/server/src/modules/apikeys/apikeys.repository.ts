import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { apiKeys } from '../../db/schema/index.ts';

/** All SQL of the API-keys module (table api_keys). */
export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertKey(db: DbOrTx, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [r] = await db.insert(apiKeys).values(row).returning();
  return r;
}

/** The owner's keys, newest first (revoked ones included, for the record). */
export async function listKeys(db: DbOrTx, ownerId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.ownerId, ownerId)).orderBy(desc(apiKeys.createdAt)).limit(100);
}

/** Revoke one of the owner's keys; false when it is not theirs or already revoked. */
export async function revokeKey(db: DbOrTx, ownerId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.ownerId, ownerId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/**
 * The live key with this hash, recording the use (last used, count) in the same statement: one
 * round trip per request, and a revoked key is refused at once.
 */
export async function useKey(db: DbOrTx, keyHash: string): Promise<ApiKeyRow | undefined> {
  const [r] = await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(), useCount: sql`${apiKeys.useCount} + 1` })
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .returning();
  return r;
}

export async function countLiveKeys(db: DbOrTx, ownerId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.ownerId, ownerId), isNull(apiKeys.revokedAt)));
  return r?.n ?? 0;
}

/** Revoke the owner's live keys made by `userId` (a team member leaving). Returns how many. */
export async function revokeKeysMadeBy(db: DbOrTx, ownerId: string, userId: string): Promise<number> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.ownerId, ownerId), eq(apiKeys.createdBy, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length;
}
