import dayjs from 'dayjs';
import { PAYMENT_PURPOSE, planByCode, toHalalas, vatHalalas } from '@masar/shared';
import { newId } from '../../../lib/ids.ts';
import * as repo from '../billing.repository.ts';
import { RENEWAL_LEAD_HOURS, RENEWAL_MAX_ATTEMPTS, RENEWAL_RETRY_HOURS, subData } from '../billing.shared.ts';
import * as lifecycle from '../lifecycle.ts';
import { chargeIntent, type ChargeDeps } from '../settlement.ts';

export type RenewDueDeps = ChargeDeps;

/**
 * The renewal job (hourly): end trials and cancelled plans whose period is over; charge the
 * card of each renewing subscription from RENEWAL_LEAD_HOURS before its end, up to
 * RENEWAL_MAX_ATTEMPTS tries RENEWAL_RETRY_HOURS apart; after the last failure it is set
 * to end with its period (past_due). Returns counts.
 */
export async function renewDue(deps: RenewDueDeps, now = new Date()): Promise<{ expired: number; renewed: number; failed: number }> {
  const { db } = deps;
  const expired = await db.transaction((tx) => lifecycle.expireBatch(tx));
  let renewed = 0;
  let failed = 0;
  const due = await repo.dueForRenewal(db, dayjs(now).add(RENEWAL_LEAD_HOURS, 'hour').toDate(), 200);
  for (const s of due) {
    const r = await renewOne(deps, s, now);
    if (r === 'renewed') renewed++;
    else if (r === 'failed') failed++;
  }
  return { expired, renewed, failed };
}

/** One renewing subscription's attempt: skipped (too soon after the last, no plan, or another runner has it), renewed or failed. */
async function renewOne(deps: RenewDueDeps, s: repo.SubscriptionRow, now: Date): Promise<'renewed' | 'failed' | 'skipped'> {
  const { db, payments } = deps;
  if (s.lastRenewalAt && now.getTime() - s.lastRenewalAt.getTime() < RENEWAL_RETRY_HOURS * 3600_000) return 'skipped';
  const plan = planByCode(s.planCode);
  if (!plan || !s.endsAt) return 'skipped';
  const attempt = s.renewalAttempts + 1;
  const fail = async (reason: string) => {
    await db.transaction(async (tx) => {
      // lifecycle 'renewal_failed' (→ past_due), with subscription.past_due
      await lifecycle.transition(
        tx,
        s.id,
        'renewal_failed',
        { ...subData(s.id, s.planCode, s.endsAt), attempts: attempt },
        {
          renewalAttempts: attempt,
          lastRenewalAt: now,
          lastRenewalError: reason,
          ...(attempt >= RENEWAL_MAX_ATTEMPTS ? { cancelAtPeriodEnd: true } : {}),
        },
      );
    });
    return 'failed' as const;
  };
  // the plan's card, else the default, else any card the bank has not declined; a declined
  // card only when nothing else is left (a decline such as insufficient funds may clear)
  const cards = await repo.listCards(db, s.userId);
  const candidates = [cards.find((c) => c.id === s.cardId), cards.find((c) => c.isDefault), ...cards].filter((c) => c !== undefined);
  const card = candidates.find((c) => !c.lastChargeFailedAt) ?? candidates[0];
  if (!card) return fail('no_card');
  const price = toHalalas(plan.priceSar);
  const vat = vatHalalas(price);
  const intent = await repo.insertIntent(db, {
    id: newId(),
    userId: s.userId,
    idempotencyKey: `renew:${s.id}:${s.endsAt.toISOString()}:${attempt}`,
    requestHash: 'renewal',
    purpose: PAYMENT_PURPOSE.subscriptionPurchase,
    status: 'processing',
    planCode: plan.code,
    priceHalalas: price,
    amountHalalas: price,
    vatHalalas: vat,
    totalHalalas: price + vat,
    cardId: card.id,
    gateway: payments.name,
    subscriptionId: s.id,
  });
  if (!intent) return 'skipped'; // another runner took this attempt
  const done = await chargeIntent(deps, intent, card.token, `Masar ${plan.name.en} renewal`);
  if (done.status !== 'succeeded') return fail(done.failureCode ?? done.status);
  await repo.updateSubscription(db, s.id, { lastRenewalAt: now });
  return 'renewed';
}
