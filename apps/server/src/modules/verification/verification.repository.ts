import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { verificationDocuments, verificationReviews } from '../../db/schema/index.ts';

/** All SQL of the verification module (tables verification_documents, verification_reviews). */
export type DocumentRow = typeof verificationDocuments.$inferSelect;
export type ReviewRow = typeof verificationReviews.$inferSelect;

export async function documentsOf(db: DbOrTx, userId: string): Promise<DocumentRow[]> {
  return db.select().from(verificationDocuments).where(eq(verificationDocuments.userId, userId));
}
export async function reviewOf(db: DbOrTx, userId: string): Promise<ReviewRow | undefined> {
  const [r] = await db.select().from(verificationReviews).where(eq(verificationReviews.userId, userId));
  return r;
}
/** Put (or replace) one document: it is `submitted` again, whatever it was. */
export async function putDocument(tx: DbOrTx, userId: string, type: string, fileId: string): Promise<void> {
  await tx
    .insert(verificationDocuments)
    .values({ userId, type, fileId, state: 'submitted', reason: null })
    .onConflictDoUpdate({
      target: [verificationDocuments.userId, verificationDocuments.type],
      set: { fileId, state: 'submitted', reason: null, updatedAt: sql`now()` },
    });
}
export async function markSubmitted(tx: DbOrTx, userId: string, at: Date): Promise<void> {
  await tx
    .insert(verificationReviews)
    .values({ userId, submittedAt: at })
    .onConflictDoUpdate({ target: verificationReviews.userId, set: { submittedAt: at } });
}
/** The operator's decision on every document still waiting (approved ones stay approved on a rejection). */
export async function decide(tx: DbOrTx, userId: string, decision: 'approved' | 'rejected', reason: string | null, at: Date): Promise<void> {
  await tx
    .update(verificationDocuments)
    .set({ state: decision, reason: decision === 'rejected' ? reason : null, updatedAt: at })
    .where(and(eq(verificationDocuments.userId, userId), decision === 'rejected' ? ne(verificationDocuments.state, 'approved') : sql`true`));
  await tx
    .insert(verificationReviews)
    .values({ userId, decidedAt: at, decision, reason })
    .onConflictDoUpdate({ target: verificationReviews.userId, set: { decidedAt: at, decision, reason } });
}

/**
 * The operator rejects ONE document with its own reason (issue 23; npm run admin --
 * reject-document): that document is rejected (the user replaces only it), the others the
 * operator looked at (submitted) are approved, and the review is a rejection with that reason.
 * Returns false when the account has no such document (nothing is written).
 */
export async function rejectDocument(tx: DbOrTx, userId: string, type: string, reason: string, at: Date): Promise<boolean> {
  const hit = await tx
    .update(verificationDocuments)
    .set({ state: 'rejected', reason, updatedAt: at })
    .where(and(eq(verificationDocuments.userId, userId), eq(verificationDocuments.type, type)))
    .returning({ type: verificationDocuments.type });
  if (hit.length === 0) return false;
  await tx
    .update(verificationDocuments)
    .set({ state: 'approved', reason: null, updatedAt: at })
    .where(and(eq(verificationDocuments.userId, userId), ne(verificationDocuments.type, type), eq(verificationDocuments.state, 'submitted')));
  await tx
    .insert(verificationReviews)
    .values({ userId, decidedAt: at, decision: 'rejected', reason })
    .onConflictDoUpdate({ target: verificationReviews.userId, set: { decidedAt: at, decision: 'rejected', reason } });
  return true;
}
