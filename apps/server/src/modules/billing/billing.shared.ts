import {
  AUDIENCE_OF,
  fromHalalas,
  planByCode,
  toHalalas,
  TRIAL_DAYS,
  vatHalalas,
  type CardBrand,
  type DomainEventType,
  type Invoice,
  type Language,
  type Plan,
  type PlanView,
  type SavedCard,
  type Subscription,
  type SubscriptionStatus,
} from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { publish } from '../events/events.service.ts';
import * as repo from './billing.repository.ts';

/** What several billing use cases share: the rules' constants, row → API shapes, plan checks, events, promo codes. */

/** The renewal charge is tried from a day before the period ends, at most this many times, this far apart. */
export const RENEWAL_LEAD_HOURS = 24;
export const RENEWAL_MAX_ATTEMPTS = 3;
/**
 * A plan checkout still waiting for its gateway answer (processing) or for 3-D Secure
 * (requires_action) blocks another plan checkout of the account for this long (CHECKOUT_IN_PROGRESS):
 * the second would charge for a plan the first is buying. After it, an abandoned one no longer blocks.
 */
export const CHECKOUT_PENDING_MINUTES = 15;
/** At most this many saved cards per account (LIMIT_REACHED; held under a per-account lock, issue 22). */
export const MAX_CARDS = 10;
export const RENEWAL_RETRY_HOURS = 6;
/** The plan the demo accounts are seeded with (seed/demo.ts): no end, replaced by any paid plan. */
export const DEMO_PLAN_CODE = 'demo';

/** The demo accounts' plan is no catalogue plan: its name in both languages (issue 9: never an untranslated name). */
const DEMO_PLAN_NAME: Record<Language, string> = { en: 'Demo plan', ar: 'باقة العرض التوضيحي' };

export const planView = (p: Plan, lang: Language): PlanView => {
  const h = toHalalas(p.priceSar);
  const v = vatHalalas(h);
  return {
    code: p.code,
    audience: p.audience,
    months: p.months,
    name: p.name[lang],
    priceSar: fromHalalas(h),
    vatSar: fromHalalas(v),
    totalSar: fromHalalas(h + v),
    features: p.features,
    trialDays: TRIAL_DAYS,
  };
};

export const subscriptionView = (s: repo.SubscriptionRow, lang: Language): Subscription => {
  const now = Date.now();
  const inForce = s.active && (!s.endsAt || s.endsAt.getTime() > now);
  const status: SubscriptionStatus = inForce ? (s.status as SubscriptionStatus) : s.status === 'cancelled' ? 'cancelled' : 'expired';
  return {
    id: s.id,
    planCode: s.planCode,
    planName: planByCode(s.planCode)?.name[lang] ?? (s.planCode === DEMO_PLAN_CODE ? DEMO_PLAN_NAME[lang] : s.planName),
    status,
    active: inForce,
    trial: s.trial,
    startedAt: s.startedAt.toISOString(),
    currentPeriodEnd: s.endsAt?.toISOString() ?? null,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    renewsAt: inForce && !s.cancelAtPeriodEnd && !s.trial && s.endsAt ? s.endsAt.toISOString() : null,
    priceSar: s.priceHalalas === null ? null : fromHalalas(s.priceHalalas),
  };
};

export const cardView = (c: repo.CardRow): SavedCard => ({
  id: c.id,
  brand: c.brand as CardBrand,
  last4: c.last4,
  expMonth: c.expMonth,
  expYear: c.expYear,
  holderName: c.holderName,
  isDefault: c.isDefault,
  createdAt: c.createdAt.toISOString(),
  lastChargeFailedAt: c.lastChargeFailedAt?.toISOString() ?? null,
  lastChargeFailure: c.lastChargeFailure,
});

export const invoiceView = (r: repo.InvoiceRow): Invoice => ({
  id: r.id,
  number: r.number,
  issuedAt: r.issuedAt.toISOString(),
  seller: r.seller as Invoice['seller'],
  buyer: r.buyer as Invoice['buyer'],
  lines: r.lines as Invoice['lines'],
  subtotalSar: fromHalalas(r.subtotalHalalas),
  vatSar: fromHalalas(r.vatHalalas),
  totalSar: fromHalalas(r.totalHalalas),
  zatcaQr: r.zatcaQr,
  intentId: r.intentId,
});

/**
 * spec §6: an active plan must be cancelled before choosing another (a trial, or the demo
 * accounts' plan, may be upgraded at once). PLAN_ALREADY_ACTIVE.
 */
export function assertNoPaidPlan(current: repo.SubscriptionRow | undefined): void {
  if (current && !current.trial && !current.cancelAtPeriodEnd && current.planCode !== DEMO_PLAN_CODE) throw new AppError('PLAN_ALREADY_ACTIVE');
}

/** Plan gating (spec §6): a plan is bought by the account type it is for. */
export function assertPlanFor(user: CurrentUser, planCode: string): Plan {
  const plan = planByCode(planCode);
  if (!plan) throw new AppError('NOT_FOUND');
  if (AUDIENCE_OF[user.accountType] !== plan.audience) throw new AppError('PLAN_NOT_FOR_ACCOUNT');
  return plan;
}

/** A billing event of the account, in the caller's transaction (issue 18). */
export const billingEvent = (tx: DbOrTx, type: DomainEventType, userId: string, data: Record<string, unknown>) =>
  publish(tx, { type, aggregateType: 'account', aggregateId: userId, actorId: null, data: { accountId: userId, ...data } });

/** The subscription.* events' data: the subscription, its plan and the end of its period. */
export const subData = (id: string, planCode: string, endsAt: Date | null | undefined) => ({
  subscriptionId: id,
  planId: planCode,
  periodEnd: endsAt?.toISOString() ?? null,
});

/** What a promo code takes off a price (halalas), or the reason it does not apply. */
export async function promoDiscount(tx: DbOrTx, userId: string, code: string, plan: Plan): Promise<number> {
  const p = await repo.findPromo(tx, code);
  if (!p || !p.active || (p.planCodes && !p.planCodes.includes(plan.code))) throw new AppError('PROMO_INVALID');
  if (p.expiresAt && p.expiresAt.getTime() <= Date.now()) throw new AppError('PROMO_EXPIRED');
  if (p.maxRedemptions !== null && p.redemptions >= p.maxRedemptions) throw new AppError('PROMO_USED_UP');
  if (await repo.hasRedeemed(tx, code, userId)) throw new AppError('PROMO_ALREADY_USED');
  const price = toHalalas(plan.priceSar);
  const off = p.kind === 'percent' ? Math.floor((price * Math.min(Number(p.value), 100) + 50) / 100) : Number(p.value);
  return Math.min(off, price);
}

/** Give back the promo redemption of an intent that failed. */
export async function releasePromo(tx: DbOrTx, intent: repo.IntentRow) {
  if (intent.promoCode) await repo.releasePromo(tx, intent.promoCode, intent.userId, intent.id);
}
