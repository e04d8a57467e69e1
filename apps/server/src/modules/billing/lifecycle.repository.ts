import { and, eq, sql } from 'drizzle-orm';
import { subscriptionStatusesAllowing, type SubscriptionStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { subscriptions } from '../../db/schema/index.ts';
import { inList } from '../../lib/sql.ts';
import type { SubscriptionRow } from './billing.repository.ts';

/**
 * The only SQL that writes `subscriptions.status` (issue 51: one lifecycle, as loads and offers
 * have). Everything here is called by `transition()` and the batch transitions of lifecycle.ts and
 * nothing else; test/boundaries.test.ts fails when any other server file writes the column. A new
 * subscription's first status is written by its insert (billing.repository.ts insertSubscription).
 */

/** Columns a transition may set beside the status (the period, the renewal bookkeeping, the cancel). */
export type SubscriptionTransitionSet = Partial<
  Pick<
    typeof subscriptions.$inferInsert,
    'active' | 'endsAt' | 'cancelAtPeriodEnd' | 'cancelledAt' | 'renewalAttempts' | 'lastRenewalAt' | 'lastRenewalError' | 'priceHalalas'
  >
>;

/** The subscription row locked for this transaction (one status change at a time). */
export async function lockSubscription(tx: DbOrTx, id: string): Promise<SubscriptionRow | undefined> {
  const [r] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
  return r;
}

/**
 * `update subscriptions set status = $to, … where id = $id and status = $from`: the conditional
 * update that decides a race between two transitions. False when no row matched.
 */
export async function transitionRow(tx: DbOrTx, id: string, from: string, to: string, set: SubscriptionTransitionSet): Promise<boolean> {
  const rows = await tx
    .update(subscriptions)
    .set({ ...set, status: to })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.status, from)))
    .returning({ id: subscriptions.id });
  return rows.length > 0;
}

/**
 * A new plan replaces the live one (lifecycle 'replace'): end every subscription of the user that
 * is still marked active, from any status the table allows.
 */
export async function endLive(tx: DbOrTx, userId: string, from: readonly string[], to: string): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ active: false, status: to, endsAt: sql`least(coalesce(${subscriptions.endsAt}, now()), now())` })
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.active, true), sql`${subscriptions.status} in ${inList([...from])}`));
}

/**
 * Trials and cancelled-at-period-end subscriptions whose period is over: no longer active
 * (lifecycle 'expire'). A range of subscriptions_ending_idx (`(ends_at) where active and (trial or
 * cancel_at_period_end)`, migration 0101); the flags are SQL, not bound, so that the generic plan
 * matches it too. `from`/`to`: the table's 'expire' (the defaults; lifecycle.ts passes them).
 */
export async function expireEnded(
  db: DbOrTx,
  from: readonly SubscriptionStatus[] = subscriptionStatusesAllowing('expire'),
  to: SubscriptionStatus = 'expired',
): Promise<{ id: string; userId: string; planCode: string; endsAt: Date | null }[]> {
  const rows = await db
    .update(subscriptions)
    .set({ active: false, status: to })
    .where(
      sql`${subscriptions.active} and (${subscriptions.trial} or ${subscriptions.cancelAtPeriodEnd})
          and ${subscriptions.endsAt} is not null and ${subscriptions.endsAt} <= now() and ${subscriptions.status} in ${inList([...from])}`,
    )
    .returning({ id: subscriptions.id, userId: subscriptions.userId, planCode: subscriptions.planCode, endsAt: subscriptions.endsAt });
  return rows;
}
