import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { payoutAccounts } from '../../db/schema/index.ts';

/** The SQL of payouts (table payout_accounts, migration 0143). */
export type PayoutAccountRow = typeof payoutAccounts.$inferSelect;

export async function payoutAccountOf(db: DbOrTx, userId: string): Promise<PayoutAccountRow | undefined> {
  const [r] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId));
  return r;
}

/** Insert or replace the account's payout IBAN. */
export async function upsertPayoutAccount(tx: DbOrTx, userId: string, iban: string, holderName: string): Promise<PayoutAccountRow> {
  const now = new Date();
  const [r] = await tx
    .insert(payoutAccounts)
    .values({ userId, iban, holderName, updatedAt: now })
    .onConflictDoUpdate({ target: payoutAccounts.userId, set: { iban, holderName, updatedAt: now } })
    .returning();
  return r;
}
