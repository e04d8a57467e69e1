import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { csvLogRows, csvLogs } from '../../db/schema/index.ts';

/** All SQL of CSV upload logs. */
export type CsvLogRow = typeof csvLogs.$inferSelect;
export type CsvFailedRowRow = typeof csvLogRows.$inferSelect;

export async function insertLog(tx: DbOrTx, row: typeof csvLogs.$inferInsert) {
  await tx.insert(csvLogs).values(row);
}
export async function getLog(tx: DbOrTx, ownerId: string, id: string) {
  const [r] = await tx
    .select()
    .from(csvLogs)
    .where(and(eq(csvLogs.id, id), eq(csvLogs.ownerId, ownerId)));
  return r;
}
export async function listLogs(tx: DbOrTx, ownerId: string, limit: number, skip: number) {
  const [items, [{ n }]] = await Promise.all([
    tx.select().from(csvLogs).where(eq(csvLogs.ownerId, ownerId)).orderBy(desc(csvLogs.createdAt), desc(csvLogs.id)).limit(limit).offset(skip),
    tx
      .select({ n: sql<number>`count(*)::int` })
      .from(csvLogs)
      .where(eq(csvLogs.ownerId, ownerId)),
  ]);
  return { items, total: n };
}
export async function updateLog(tx: DbOrTx, id: string, patch: Partial<typeof csvLogs.$inferInsert>) {
  await tx
    .update(csvLogs)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(csvLogs.id, id));
}
/** Add to the counts atomically (background job and retries may overlap). */
export async function bumpCounts(tx: DbOrTx, id: string, succeeded: number, failed: number) {
  await tx
    .update(csvLogs)
    .set({ succeeded: sql`${csvLogs.succeeded} + ${succeeded}`, failed: sql`${csvLogs.failed} + ${failed}`, updatedAt: new Date() })
    .where(eq(csvLogs.id, id));
}
/**
 * Logs left in `processing` by a process that died: a live import touches updated_at at least
 * once per chunk, so one silent for `staleMs` is dead. Safe with several instances.
 */
export async function failStaleLogs(tx: DbOrTx, staleMs: number) {
  await tx
    .update(csvLogs)
    .set({ status: 'failed', error: 'CSV_INTERRUPTED', updatedAt: new Date() })
    .where(and(eq(csvLogs.status, 'processing'), sql`${csvLogs.updatedAt} < ${new Date(Date.now() - staleMs)}`));
}
export async function insertFailedRows(tx: DbOrTx, rows: (typeof csvLogRows.$inferInsert)[]) {
  for (let i = 0; i < rows.length; i += 1000) await tx.insert(csvLogRows).values(rows.slice(i, i + 1000));
}
export async function failedRows(tx: DbOrTx, logId: string, limit: number, skip: number) {
  const [items, [{ n }]] = await Promise.all([
    tx.select().from(csvLogRows).where(eq(csvLogRows.logId, logId)).orderBy(asc(csvLogRows.rowNumber)).limit(limit).offset(skip),
    tx
      .select({ n: sql<number>`count(*)::int` })
      .from(csvLogRows)
      .where(eq(csvLogRows.logId, logId)),
  ]);
  return { items, total: n };
}
export async function failedRowsByIds(tx: DbOrTx, logId: string, ids: string[]) {
  return tx
    .select()
    .from(csvLogRows)
    .where(and(eq(csvLogRows.logId, logId), inArray(csvLogRows.id, ids)));
}
export async function deleteFailedRow(tx: DbOrTx, id: string) {
  await tx.delete(csvLogRows).where(eq(csvLogRows.id, id));
}
export async function updateFailedRow(tx: DbOrTx, id: string, data: Record<string, string>, errors: { path: string; code: string }[]) {
  await tx.update(csvLogRows).set({ data, errors }).where(eq(csvLogRows.id, id));
}

/** A log by id (the import job runs without an owner in hand). */
export async function getLogById(tx: DbOrTx, id: string) {
  const [r] = await tx.select().from(csvLogs).where(eq(csvLogs.id, id));
  return r;
}
/** Commit a window: the cursor moves to `nextRow` together with the counts. */
/**
 * Lock an import's log row until the transaction ends and return its committed cursor (the next
 * row to import), or null when the import is no longer processing. Two workers of one import
 * (a retried job while a presumed-dead worker still runs) queue here; the second sees the moved
 * cursor and stops.
 */
export async function lockImportCursor(tx: DbOrTx, id: string): Promise<number | null> {
  const rows = await tx.select({ nextRow: csvLogs.nextRow, status: csvLogs.status }).from(csvLogs).where(eq(csvLogs.id, id)).for('update');
  const r = rows[0];
  return r && r.status === 'processing' ? r.nextRow : null;
}

export async function advanceImport(tx: DbOrTx, id: string, nextRow: number, succeeded: number, failed: number) {
  await tx
    .update(csvLogs)
    .set({
      nextRow,
      succeeded: sql`${csvLogs.succeeded} + ${succeeded}`,
      failed: sql`${csvLogs.failed} + ${failed}`,
      updatedAt: new Date(),
    })
    .where(eq(csvLogs.id, id));
}
/**
 * Ids of imports still processing, oldest first: the partial index csv_logs_processing (migration
 * 0101), not every import ever made. The status is SQL, not bound, so that the generic plan
 * matches the index's predicate too (issue 24).
 */
export async function processingLogIds(tx: DbOrTx): Promise<string[]> {
  const rows = await tx
    .select({ id: csvLogs.id })
    .from(csvLogs)
    .where(sql`${csvLogs.status} = 'processing'`)
    .orderBy(csvLogs.createdAt);
  return rows.map((r) => r.id);
}
