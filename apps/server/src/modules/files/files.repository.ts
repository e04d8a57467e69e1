import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { files } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';

/** A stored file's row (table `files`, owned by the files module). */
export type FileRow = typeof files.$inferSelect;
export type FileRefRow = Pick<FileRow, 'id' | 'mime' | 'size' | 'name' | 'purpose'>;

/** Insert the row of an uploaded file. */
export async function insertFile(db: DbOrTx, row: typeof files.$inferInsert): Promise<void> {
  await db.insert(files).values(row);
}

/** The row of file `id` when `ownerId` uploaded it, else undefined. */
export async function findOwnedFile(db: Db, ownerId: string, id: string): Promise<FileRow | undefined> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.ownerId, ownerId)));
  return row;
}

/** The row of file `id` whoever uploaded it (callers decide who may read it). */
export async function findFileById(db: DbOrTx, id: string): Promise<FileRow | undefined> {
  const [row] = await db.select().from(files).where(eq(files.id, id));
  return row;
}

/** id, mime, size, name and purpose of those of `ids` that exist (and belong to `ownerId`, and have `purpose`, when given). */
export async function findFileRefs(tx: DbOrTx, ids: string[], ownerId?: string, purpose?: string): Promise<FileRefRow[]> {
  if (ids.length === 0) return [];
  const where = and(inArray(files.id, ids), ownerId ? eq(files.ownerId, ownerId) : undefined, purpose ? eq(files.purpose, purpose) : undefined);
  return tx.select({ id: files.id, mime: files.mime, size: files.size, name: files.name, purpose: files.purpose }).from(files).where(where);
}

/**
 * Put a chat attachment of `ownerId` on a message, inside the sending transaction: marks
 * `attached_at` (kept when already set) and answers the file, or undefined when it is not a
 * `chat-attachment` upload of `ownerId` — or the clean-up deleted it first (the row lock orders
 * the two: a file marked here is never deleted as unsent).
 */
export async function claimChatAttachment(tx: DbOrTx, ownerId: string, id: string): Promise<Pick<FileRow, 'id' | 'mime' | 'size' | 'name'> | undefined> {
  const [row] = await tx
    .update(files)
    .set({ attachedAt: sql`coalesce(${files.attachedAt}, now())` })
    .where(and(eq(files.id, id), eq(files.ownerId, ownerId), eq(files.purpose, 'chat-attachment')))
    .returning({ id: files.id, mime: files.mime, size: files.size, name: files.name });
  return row;
}

/**
 * Delete up to `limit` chat attachments uploaded before `before` and never put on a message,
 * oldest first, and answer their storage keys (the bytes are the caller's to delete). Reads only
 * what is due: the partial index files_unsent_chat_idx (migration 0128) holds exactly the unsent
 * chat uploads, by upload time. A file a send holds locked is skipped (the next run decides).
 */
export async function deleteUnsentChatAttachments(tx: DbOrTx, before: Date, limit: number): Promise<{ id: string; storageKey: string }[]> {
  const rows = await queryRows<{ id: string; storage_key: string }>(
    tx,
    sql`delete from files where id in (
          select id from files where purpose = 'chat-attachment' and attached_at is null and created_at < ${before.toISOString()}::timestamptz
          order by created_at limit ${limit} for update skip locked)
        returning id, storage_key`,
  );
  return rows.map((r) => ({ id: r.id, storageKey: r.storage_key }));
}
