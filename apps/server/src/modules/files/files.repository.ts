import { and, eq, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { files } from '../../db/schema/index.ts';

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
