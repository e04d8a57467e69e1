import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  invoices,
  paymentCards,
  paymentIntents,
  PLAN_IN_FORCE,
  promoCodes,
  promoRedemptions,
  subscriptions,
  users,
  walletEntries,
} from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';

/**
 * The SQL of the billing module (tables payment_cards, promo_codes, promo_redemptions,
 * payment_intents, wallet_entries, invoices, and subscriptions) but the writes of
 * `subscriptions.status`: those are in lifecycle.repository.ts (a new row's first status is
 * written by insertSubscription here).
 */
export type CardRow = typeof paymentCards.$inferSelect;
export type IntentRow = typeof paymentIntents.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PromoRow = typeof promoCodes.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type WalletEntryRow = typeof walletEntries.$inferSelect;

// ── cards ────────────────────────────────────────────────────────────────────────────────────

export async function listCards(db: DbOrTx, userId: string): Promise<CardRow[]> {
  return db
    .select()
    .from(paymentCards)
    .where(and(eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt)))
    .orderBy(desc(paymentCards.isDefault), desc(paymentCards.createdAt))
    .limit(50);
}
export async function findCard(db: DbOrTx, userId: string, id: string): Promise<CardRow | undefined> {
  const [r] = await db
    .select()
    .from(paymentCards)
    .where(and(eq(paymentCards.id, id), eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt)));
  return r;
}
/** A card by id whatever its state (to describe a past payment). */
export async function findCardAny(db: DbOrTx, id: string): Promise<CardRow | undefined> {
  const [r] = await db.select().from(paymentCards).where(eq(paymentCards.id, id));
  return r;
}
export async function insertCard(db: DbOrTx, row: typeof paymentCards.$inferInsert): Promise<CardRow> {
  const [r] = await db.insert(paymentCards).values(row).returning();
  return r;
}
/** Make one card the default (and no other). */
export async function setDefaultCard(db: DbOrTx, userId: string, id: string): Promise<void> {
  await db
    .update(paymentCards)
    .set({ isDefault: sql`${paymentCards.id} = ${id}` })
    .where(and(eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt)));
}
export async function deleteCard(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(paymentCards)
    .set({ deletedAt: new Date(), isDefault: false, token: '' })
    .where(and(eq(paymentCards.id, id), eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt)))
    .returning({ id: paymentCards.id });
  return rows.length > 0;
}
/** A successful charge on a card: it is no longer "declined". */
export async function markCardCharged(tx: DbOrTx, id: string): Promise<void> {
  await tx.update(paymentCards).set({ lastChargeFailedAt: null, lastChargeFailure: null }).where(eq(paymentCards.id, id));
}
/**
 * The bank declined a charge on a card: record when and why, and if it was the default (renewal)
 * card, make the newest card that was not declined the default instead (or none).
 */
export async function markCardDeclined(tx: DbOrTx, userId: string, id: string, reason: string): Promise<void> {
  await tx.update(paymentCards).set({ lastChargeFailedAt: new Date(), lastChargeFailure: reason, isDefault: false }).where(eq(paymentCards.id, id));
  const [stillDefault] = await tx
    .select({ id: paymentCards.id })
    .from(paymentCards)
    .where(and(eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt), eq(paymentCards.isDefault, true)))
    .limit(1);
  if (stillDefault) return;
  const [next] = await tx
    .select({ id: paymentCards.id })
    .from(paymentCards)
    .where(and(eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt), isNull(paymentCards.lastChargeFailedAt)))
    .orderBy(desc(paymentCards.createdAt))
    .limit(1);
  if (next) await tx.update(paymentCards).set({ isDefault: true }).where(eq(paymentCards.id, next.id));
}
export async function countCards(db: DbOrTx, userId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(paymentCards)
    .where(and(eq(paymentCards.userId, userId), isNull(paymentCards.deletedAt)));
  return r?.n ?? 0;
}

// ── promo codes ──────────────────────────────────────────────────────────────────────────────

export async function findPromo(db: DbOrTx, code: string): Promise<PromoRow | undefined> {
  const [r] = await db.select().from(promoCodes).where(eq(promoCodes.code, code));
  return r;
}
export async function hasRedeemed(db: DbOrTx, code: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ code: promoRedemptions.code })
    .from(promoRedemptions)
    .where(and(eq(promoRedemptions.code, code), eq(promoRedemptions.userId, userId)));
  return rows.length > 0;
}
/**
 * Redeem a code for a user inside the payment's transaction: false when the user already did or
 * the code is used up (the unique pair and the guarded counter decide under races).
 */
export async function redeemPromo(tx: DbOrTx, code: string, userId: string, intentId: string): Promise<boolean> {
  const counted = await tx
    .update(promoCodes)
    .set({ redemptions: sql`${promoCodes.redemptions} + 1` })
    .where(and(eq(promoCodes.code, code), sql`(${promoCodes.maxRedemptions} is null or ${promoCodes.redemptions} < ${promoCodes.maxRedemptions})`))
    .returning({ code: promoCodes.code });
  if (!counted.length) return false;
  const inserted = await tx.insert(promoRedemptions).values({ code, userId, intentId }).onConflictDoNothing().returning({ code: promoRedemptions.code });
  return inserted.length > 0;
}
/** Give a redemption back when its payment failed. */
export async function releasePromo(tx: DbOrTx, code: string, userId: string, intentId: string): Promise<void> {
  const gone = await tx
    .delete(promoRedemptions)
    .where(and(eq(promoRedemptions.code, code), eq(promoRedemptions.userId, userId), eq(promoRedemptions.intentId, intentId)))
    .returning({ code: promoRedemptions.code });
  if (gone.length)
    await tx
      .update(promoCodes)
      .set({ redemptions: sql`greatest(${promoCodes.redemptions} - 1, 0)` })
      .where(eq(promoCodes.code, code));
}
export async function upsertPromo(db: DbOrTx, row: typeof promoCodes.$inferInsert): Promise<void> {
  await db
    .insert(promoCodes)
    .values(row)
    .onConflictDoUpdate({
      target: promoCodes.code,
      set: {
        kind: row.kind,
        value: row.value,
        expiresAt: row.expiresAt,
        maxRedemptions: row.maxRedemptions,
        planCodes: row.planCodes,
        active: row.active ?? true,
      },
    });
}

// ── payment intents ──────────────────────────────────────────────────────────────────────────

export async function findIntentByKey(db: DbOrTx, userId: string, key: string): Promise<IntentRow | undefined> {
  const [r] = await db
    .select()
    .from(paymentIntents)
    .where(and(eq(paymentIntents.userId, userId), eq(paymentIntents.idempotencyKey, key)));
  return r;
}
/**
 * Card-paid intents still `processing` (their charge was never recorded) created before
 * `before`, oldest first, with the payer's account type: what a crash left behind (issue 22).
 */
export async function staleProcessingIntents(db: DbOrTx, before: Date, limit = 100): Promise<{ intent: IntentRow; accountType: number }[]> {
  return db
    .select({ intent: paymentIntents, accountType: users.accountType })
    .from(paymentIntents)
    .innerJoin(users, eq(users.id, paymentIntents.userId))
    .where(and(eq(paymentIntents.status, 'processing'), sql`${paymentIntents.createdAt} < ${before}`))
    .orderBy(paymentIntents.createdAt)
    .limit(limit);
}

export async function findIntent(db: DbOrTx, userId: string, id: string): Promise<IntentRow | undefined> {
  const [r] = await db
    .select()
    .from(paymentIntents)
    .where(and(eq(paymentIntents.id, id), eq(paymentIntents.userId, userId)));
  return r;
}
/** The intent row locked for this transaction (one finisher at a time). */
export async function lockIntent(tx: DbOrTx, id: string): Promise<IntentRow | undefined> {
  const [r] = await tx.select().from(paymentIntents).where(eq(paymentIntents.id, id)).for('update');
  return r;
}
/** Insert an intent; undefined when the (user, idempotency key) pair exists already (a racing retry). */
export async function insertIntent(db: DbOrTx, row: typeof paymentIntents.$inferInsert): Promise<IntentRow | undefined> {
  const [r] = await db.insert(paymentIntents).values(row).onConflictDoNothing().returning();
  return r;
}
/**
 * Whether the user has a plan checkout (not a renewal, not a wallet top-up) created after `since`
 * still waiting for the gateway or for 3-D Secure.
 */
export async function hasPendingPlanIntent(db: DbOrTx, userId: string, since: Date): Promise<boolean> {
  const rows = await db
    .select({ id: paymentIntents.id })
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.userId, userId),
        inArray(paymentIntents.status, ['processing', 'requires_action']),
        sql`${paymentIntents.planCode} is not null`,
        isNull(paymentIntents.subscriptionId),
        gt(paymentIntents.createdAt, since),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
export async function updateIntent(db: DbOrTx, id: string, set: Partial<typeof paymentIntents.$inferInsert>): Promise<IntentRow> {
  const [r] = await db
    .update(paymentIntents)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(paymentIntents.id, id))
    .returning();
  return r;
}

// ── subscriptions ────────────────────────────────────────────────────────────────────────────

/** The subscription that grants a plan now, if any (see auth PLAN_IN_FORCE). */
export async function currentSubscription(db: DbOrTx, userId: string): Promise<SubscriptionRow | undefined> {
  const [r] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), PLAN_IN_FORCE))
    .orderBy(desc(subscriptions.startedAt))
    .limit(1);
  return r;
}
export async function findSubscription(db: DbOrTx, id: string): Promise<SubscriptionRow | undefined> {
  const [r] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return r;
}
export async function listSubscriptions(db: DbOrTx, userId: string, limit: number, skip: number): Promise<SubscriptionRow[]> {
  return db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.startedAt)).limit(limit).offset(skip);
}
export async function hasAnySubscription(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  return rows.length > 0;
}
export async function insertSubscription(db: DbOrTx, row: typeof subscriptions.$inferInsert): Promise<void> {
  await db.insert(subscriptions).values(row);
}
/** Columns beside the status (the renewal bookkeeping); the status changes through lifecycle.ts only. */
export async function updateSubscription(db: DbOrTx, id: string, set: Partial<Omit<typeof subscriptions.$inferInsert, 'status'>>): Promise<void> {
  await db.update(subscriptions).set(set).where(eq(subscriptions.id, id));
}
/**
 * Renewing subscriptions whose period ends before `before`: a range of subscriptions_renewal_idx
 * (`(ends_at) where active and not cancel_at_period_end and not trial`). The flags are written as
 * SQL, not bound: a bound `active = $1` cannot match a partial index in a generic plan (issue 24).
 */
export async function dueForRenewal(db: DbOrTx, before: Date, limit: number): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      sql`${subscriptions.active} and not ${subscriptions.cancelAtPeriodEnd} and not ${subscriptions.trial}
          and ${subscriptions.endsAt} is not null and ${subscriptions.endsAt} <= ${before.toISOString()}::timestamptz`,
    )
    .orderBy(subscriptions.endsAt)
    .limit(limit);
}
// ── wallet ───────────────────────────────────────────────────────────────────────────────────

/** Serialize the user's wallet writes (row lock on the user), so a balance check holds until commit. */
export async function lockWallet(tx: DbOrTx, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}
export async function walletBalance(db: DbOrTx, userId: string): Promise<number> {
  const [r] = await queryRows<{ h: string | number }>(
    db,
    sql`select coalesce(sum(amount_halalas), 0)::bigint as h from wallet_entries where user_id = ${userId}`,
  );
  return Number(r.h);
}
export async function insertWalletEntry(tx: DbOrTx, row: typeof walletEntries.$inferInsert): Promise<void> {
  await tx.insert(walletEntries).values(row).onConflictDoNothing();
}
export async function walletEntriesOf(db: DbOrTx, userId: string, limit: number): Promise<WalletEntryRow[]> {
  return db.select().from(walletEntries).where(eq(walletEntries.userId, userId)).orderBy(desc(walletEntries.createdAt)).limit(limit);
}

// ── invoices ─────────────────────────────────────────────────────────────────────────────────

export async function nextInvoiceNumber(tx: DbOrTx): Promise<number> {
  const [r] = await queryRows<{ n: string | number }>(tx, sql`select nextval('invoice_number_seq') as n`);
  return Number(r.n);
}
export async function insertInvoice(tx: DbOrTx, row: typeof invoices.$inferInsert): Promise<void> {
  await tx.insert(invoices).values(row);
}
export async function findInvoice(db: DbOrTx, userId: string, id: string): Promise<InvoiceRow | undefined> {
  const [r] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.userId, userId)));
  return r;
}
export async function listInvoices(db: DbOrTx, userId: string, limit: number, skip: number): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.issuedAt)).limit(limit).offset(skip);
}

/** The buyer's details for an invoice. */
export async function buyerOf(db: DbOrTx, userId: string): Promise<{ name: string; companyName: string; phone: string; accountType: number }> {
  const [r] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, companyName: users.companyName, phone: users.phone, accountType: users.accountType })
    .from(users)
    .where(eq(users.id, userId));
  return { name: `${r.firstName} ${r.lastName}`.trim(), companyName: r.companyName, phone: r.phone, accountType: r.accountType };
}
