import { and, eq } from 'drizzle-orm';
import type { EscrowStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { escrows } from '../../db/schema/index.ts';

/**
 * The only SQL that writes `escrows.status` (issue 50; one lifecycle per table like loads').
 * Called by lifecycle.ts and nothing else (test/boundaries.test.ts).
 */
export type EscrowSet = Partial<
  Pick<
    typeof escrows.$inferInsert,
    | 'fundedAt'
    | 'releaseAt'
    | 'releasedAt'
    | 'disputedAt'
    | 'disputeBy'
    | 'disputeReason'
    | 'disputeEvidence'
    | 'settledAt'
    | 'settlement'
    | 'settledCarrierHalalas'
    | 'settlementReason'
  >
>;

/** `update escrows set status = $to … where id = $id and status = $from`; false when it changed meanwhile. */
export async function transitionEscrowRow(tx: DbOrTx, id: string, from: EscrowStatus, to: EscrowStatus, set: EscrowSet): Promise<boolean> {
  const rows = await tx
    .update(escrows)
    .set({ ...set, status: to, updatedAt: new Date() })
    .where(and(eq(escrows.id, id), eq(escrows.status, from)))
    .returning({ id: escrows.id });
  return rows.length > 0;
}
