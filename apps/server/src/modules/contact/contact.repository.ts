import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { contactMessages } from '../../db/schema/index.ts';

/** All SQL of the contact module (table contact_messages). */
export type ContactMessageRow = typeof contactMessages.$inferSelect;

/** Insert a message; answers the row, or undefined when its `reference` is taken already (nothing written). */
export async function insertMessage(tx: DbOrTx, row: typeof contactMessages.$inferInsert): Promise<ContactMessageRow | undefined> {
  const [r] = await tx.insert(contactMessages).values(row).onConflictDoNothing({ target: contactMessages.reference }).returning();
  return r;
}

/** The message, locked for the rest of the transaction (the outbox handler sends from it). */
export async function messageForUpdate(tx: DbOrTx, id: string): Promise<ContactMessageRow | undefined> {
  const [r] = await tx.select().from(contactMessages).where(eq(contactMessages.id, id)).for('update');
  return r;
}

/** Stamp what was sent (`supportSentAt`, `ackSentAt`) and the last send error (null clears it). */
export async function recordSends(tx: DbOrTx, id: string, set: { supportSentAt?: Date; ackSentAt?: Date; lastError: string | null }): Promise<void> {
  await tx.update(contactMessages).set(set).where(eq(contactMessages.id, id));
}
