import { and, eq, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { files } from '../../db/schema/index.ts';

/** A stored file's row (table `files`, owned by the files module). */
export type FileRow = typeof files.$inferSelect;
export type FileRefRow = Pick<FileRow, 'id' | 'mime' | 'size'>;

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

/** id, mime and size of those of `ids` that exist (and belong to `ownerId` when given). */
export async function findFileRefs(tx: DbOrTx, ids: string[], ownerId?: string): Promise<FileRefRow[]> {
  if (ids.length === 0) return [];
  const where = ownerId ? and(eq(files.ownerId, ownerId), inArray(files.id, ids)) : inArray(files.id, ids);
  return tx.select({ id: files.id, mime: files.mime, size: files.size }).from(files).where(where);
}
