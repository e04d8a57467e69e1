import { createHash } from 'node:crypto';
import dayjs from 'dayjs';
import {
  AUDIENCE_OF,
  cardBrand,
  fromHalalas,
  PAYMENT_PURPOSE,
  planByCode,
  PLANS,
  toHalalas,
  TRIAL_DAYS,
  vatHalalas,
  type CardBrand,
  type Invoice,
  type Language,
  type PaymentIntent,
  type Plan,
  type PlanView,
  type PromoQuote,
  type SavedCard,
  type Subscription,
  type SubscriptionStatus,
  type Wallet,
  cardAddBody,
  intentCreateBody,
} from '@masar/shared';
import type { DomainEventType } from '@masar/shared';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { PaymentGateway, ChargeResult } from '../../gateways/payments/payments.ts';
import { PaymentGatewayError } from '../../gateways/payments/payments.ts';
import { AppError } from '../../lib/errors.ts';
import { lockAccountCap } from '../../lib/locks.ts';
import { newId } from '../../lib/ids.ts';
import { replayNext } from '../../lib/tx-journal.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import * as repo from './billing.repository.ts';
import { publish } from '../events/events.service.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { zatcaQrBase64 } from './zatca.ts';

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

/**
 * What the auth module's account admin asks of billing, which owns `subscriptions` (issue 18: one
 * writer per table): grant an active plan to an account it creates (the demo accounts), inside
 * the caller's transaction. Injected by the container.
 */
export const plansOfAccounts = {
  grant: (tx: DbOrTx, userId: string, plan: { code: string; name: string }) =>
    repo.insertSubscription(tx, { id: newId(), userId, planCode: plan.code, planName: plan.name, active: true }),
};

/** The demo accounts' plan is no catalogue plan: its name in both languages (issue 9: never an untranslated name). */
const DEMO_PLAN_NAME: Record<Language, string> = { en: 'Demo plan', ar: 'باقة العرض التوضيحي' };

type Seller = Pick<Config, 'SELLER_NAME_EN' | 'SELLER_NAME_AR' | 'SELLER_VAT_NUMBER' | 'SELLER_ADDRESS'>;

const planView = (p: Plan, lang: Language): PlanView => {
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

const subscriptionView = (s: repo.SubscriptionRow, lang: Language): Subscription => {
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

const cardView = (c: repo.CardRow): SavedCard => ({
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

/** Gateway answers that say nothing about the card (the acquirer was not reached). */
const NOT_THE_CARDS_FAULT = new Set(['gateway_unreachable']);

const invoiceView = (r: repo.InvoiceRow): Invoice => ({
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
function assertNoPaidPlan(current: repo.SubscriptionRow | undefined): void {
  if (current && !current.trial && !current.cancelAtPeriodEnd && current.planCode !== DEMO_PLAN_CODE) throw new AppError('PLAN_ALREADY_ACTIVE');
}

/** Plan gating (spec §6): a plan is bought by the account type it is for. */
function assertPlanFor(user: CurrentUser, planCode: string): Plan {
  const plan = planByCode(planCode);
  if (!plan) throw new AppError('NOT_FOUND');
  if (AUDIENCE_OF[user.accountType] !== plan.audience) throw new AppError('PLAN_NOT_FOR_ACCOUNT');
  return plan;
}

/**
 * Plans, checkout, saved cards, promo codes, the wallet ledger, VAT invoices and renewals
 * (issue 8; spec §2 checkout/billing, §3, §6, §7 /subscription… paths). Money is integer
 * halalas throughout; a payment intent is keyed by (user, Idempotency-Key), so a retried
 * request finds the first attempt and never charges twice; every success is written in one
 * transaction (intent, subscription or ledger line, promo redemption, invoice).
 */
export function createBillingService(deps: { db: Db; payments: PaymentGateway; seller: Seller; publicUrl: string }) {
  const { db, payments, seller } = deps;

  /** What a promo code takes off a price (halalas), or the reason it does not apply. */
  async function promoDiscount(tx: DbOrTx, userId: string, code: string, plan: Plan): Promise<number> {
    const p = await repo.findPromo(tx, code);
    if (!p || !p.active || (p.planCodes && !p.planCodes.includes(plan.code))) throw new AppError('PROMO_INVALID');
    if (p.expiresAt && p.expiresAt.getTime() <= Date.now()) throw new AppError('PROMO_EXPIRED');
    if (p.maxRedemptions !== null && p.redemptions >= p.maxRedemptions) throw new AppError('PROMO_USED_UP');
    if (await repo.hasRedeemed(tx, code, userId)) throw new AppError('PROMO_ALREADY_USED');
    const price = toHalalas(plan.priceSar);
    const off = p.kind === 'percent' ? Math.floor((price * Math.min(Number(p.value), 100) + 50) / 100) : Number(p.value);
    return Math.min(off, price);
  }

  async function issueInvoice(tx: DbOrTx, intent: repo.IntentRow, plan: Plan | undefined): Promise<string> {
    const id = newId();
    const n = await repo.nextInvoiceNumber(tx);
    const issuedAt = new Date();
    const buyer = await repo.buyerOf(tx, intent.userId);
    const description = plan
      ? {
          en: `${plan.name.en} plan, ${plan.months === 1 ? '1 month' : '12 months'}`,
          ar: `باقة ${plan.name.ar}، ${plan.months === 1 ? 'شهر واحد' : 'سنة كاملة'}`,
        }
      : { en: 'Masar services', ar: 'خدمات مسار' };
    const line = {
      description,
      quantity: 1,
      unitPriceSar: fromHalalas(intent.priceHalalas),
      discountSar: fromHalalas(intent.discountHalalas),
      amountSar: fromHalalas(intent.amountHalalas),
      vatRatePercent: 15,
      vatSar: fromHalalas(intent.vatHalalas),
    };
    const totalSar = fromHalalas(intent.totalHalalas);
    const vatSar = fromHalalas(intent.vatHalalas);
    await repo.insertInvoice(tx, {
      id,
      number: `INV-${issuedAt.getUTCFullYear()}-${String(n).padStart(6, '0')}`,
      userId: intent.userId,
      intentId: intent.id,
      issuedAt,
      seller: { nameEn: seller.SELLER_NAME_EN, nameAr: seller.SELLER_NAME_AR, vatNumber: seller.SELLER_VAT_NUMBER, address: seller.SELLER_ADDRESS },
      buyer: { name: buyer.name, companyName: buyer.companyName, phone: buyer.phone },
      lines: [line],
      subtotalHalalas: intent.amountHalalas,
      vatHalalas: intent.vatHalalas,
      totalHalalas: intent.totalHalalas,
      zatcaQr: zatcaQrBase64({
        sellerName: seller.SELLER_NAME_AR,
        vatNumber: seller.SELLER_VAT_NUMBER,
        timestamp: issuedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        totalWithVat: totalSar,
        vatTotal: vatSar,
      }),
    });
    await billingEvent(tx, 'invoice.issued', intent.userId, {
      invoiceId: id,
      number: `INV-${issuedAt.getUTCFullYear()}-${String(n).padStart(6, '0')}`,
      totalSar,
    });
    return id;
  }

  /** A billing event of the account, in the caller's transaction (issue 18). */
  const billingEvent = (tx: DbOrTx, type: DomainEventType, userId: string, data: Record<string, unknown>) =>
    publish(tx, { type, aggregateType: 'account', aggregateId: userId, actorId: null, data: { accountId: userId, ...data } });
  const subData = (id: string, planCode: string, endsAt: Date | null | undefined) => ({
    subscriptionId: id,
    planId: planCode,
    periodEnd: endsAt?.toISOString() ?? null,
  });

  /** Apply a paid intent, once: the plan or the wallet credit, the invoice. Runs in `tx` with the intent locked. */
  async function applySuccess(tx: DbOrTx, intent: repo.IntentRow, ref: string | null): Promise<repo.IntentRow> {
    if (intent.status === 'succeeded') return intent;
    const set: Parameters<typeof repo.updateIntent>[2] = { status: 'succeeded', gatewayRef: ref, actionUrl: null };
    if (intent.purpose === PAYMENT_PURPOSE.walletRecharge) {
      await repo.insertWalletEntry(tx, { id: newId(), userId: intent.userId, kind: 'recharge', amountHalalas: intent.amountHalalas, intentId: intent.id });
    } else {
      const plan = planByCode(intent.planCode ?? '');
      if (!plan) throw new Error(`intent ${intent.id} has no known plan`);
      if (intent.subscriptionId) {
        // a renewal: the same subscription gets its next period
        const sub = await repo.findSubscription(tx, intent.subscriptionId);
        const endsAt = dayjs(sub?.endsAt ?? new Date())
          .add(plan.months, 'month')
          .toDate();
        await billingEvent(tx, 'subscription.renewed', intent.userId, subData(intent.subscriptionId, plan.code, endsAt));
        await repo.updateSubscription(tx, intent.subscriptionId, {
          // from the current end, never from now: the payer loses no day
          endsAt: dayjs(sub?.endsAt ?? new Date())
            .add(plan.months, 'month')
            .toDate(),
          status: 'active',
          renewalAttempts: 0,
          lastRenewalError: null,
          priceHalalas: intent.amountHalalas,
        });
      } else {
        await repo.lockWallet(tx, intent.userId); // one live plan per account: subscription writes take turns
        await repo.endActiveSubscriptions(tx, intent.userId);
        const subscriptionId = newId();
        const now = new Date();
        await repo.insertSubscription(tx, {
          id: subscriptionId,
          userId: intent.userId,
          planCode: plan.code,
          planName: plan.name.en,
          active: true,
          status: 'active',
          startedAt: now,
          endsAt: dayjs(now).add(plan.months, 'month').toDate(),
          cancelAtPeriodEnd: intent.purpose === PAYMENT_PURPOSE.membershipPurchase,
          priceHalalas: intent.amountHalalas,
          months: plan.months,
          cardId: intent.cardId,
        });
        await billingEvent(tx, 'subscription.started', intent.userId, subData(subscriptionId, plan.code, dayjs(now).add(plan.months, 'month').toDate()));
        set.subscriptionId = subscriptionId;
      }
      set.invoiceId = await issueInvoice(tx, intent, plan);
    }
    await billingEvent(tx, 'payment.succeeded', intent.userId, {
      paymentId: intent.id,
      amountSar: fromHalalas(intent.totalHalalas),
      purpose: String(intent.purpose),
    });
    return repo.updateIntent(tx, intent.id, set);
  }

  async function releasePromo(tx: DbOrTx, intent: repo.IntentRow) {
    if (intent.promoCode) await repo.releasePromo(tx, intent.promoCode, intent.userId, intent.id);
  }

  /** Record what the gateway said about an intent; returns the intent as it now stands. */
  async function settle(intentId: string, result: ChargeResult): Promise<repo.IntentRow> {
    return db.transaction(async (tx) => {
      const intent = await repo.lockIntent(tx, intentId);
      if (!intent) throw new AppError('NOT_FOUND');
      if (intent.status === 'succeeded' || intent.status === 'failed') return intent;
      if (result.status === 'succeeded') {
        if (intent.cardId) await repo.markCardCharged(tx, intent.cardId);
        return applySuccess(tx, intent, result.ref);
      }
      if (result.status === 'requires_action')
        return repo.updateIntent(tx, intent.id, { status: 'requires_action', gatewayRef: result.ref, actionUrl: result.actionUrl });
      // a declined card is never the renewal card (issue 22): the default moves to a card that was not declined
      if (intent.cardId && !NOT_THE_CARDS_FAULT.has(result.code)) await repo.markCardDeclined(tx, intent.userId, intent.cardId, result.code);
      await releasePromo(tx, intent);
      await billingEvent(tx, 'payment.failed', intent.userId, { paymentId: intent.id, amountSar: fromHalalas(intent.totalHalalas), reason: result.code });
      return repo.updateIntent(tx, intent.id, { status: 'failed', gatewayRef: result.ref, failureCode: result.code, actionUrl: null });
    });
  }

  async function toIntentView(i: repo.IntentRow): Promise<PaymentIntent> {
    const card = i.cardId ? await repo.findCardAny(db, i.cardId) : undefined;
    return {
      id: i.id,
      purpose: i.purpose,
      status: i.status,
      planCode: i.planCode,
      amountSar: fromHalalas(i.amountHalalas),
      discountSar: fromHalalas(i.discountHalalas),
      vatSar: fromHalalas(i.vatHalalas),
      totalSar: fromHalalas(i.totalHalalas),
      card: card ? { brand: card.brand as CardBrand, last4: card.last4 } : null,
      actionUrl: i.actionUrl,
      failureCode: i.failureCode,
      invoiceId: i.invoiceId,
      createdAt: i.createdAt.toISOString(),
    };
  }

  /** Charge a card-paid intent at the gateway and record the answer (outside any transaction). */
  async function chargeIntent(intent: repo.IntentRow, token: string, description: string, accountType?: number): Promise<repo.IntentRow> {
    // the web app's confirm page lives under the payer's role prefix (the route guard keeps signed-in users there)
    const prefix = accountType === 1 ? '/shippers' : accountType === 2 ? '/carriers' : '/brokers';
    let result: ChargeResult;
    try {
      result = await payments.charge({
        token,
        amountHalalas: intent.totalHalalas,
        description,
        intentId: intent.id,
        callbackUrl: `${deps.publicUrl}${prefix}/checkout/confirm?intent=${intent.id}${payments.name === 'sandbox' ? '&sandbox=1' : ''}`,
      });
    } catch (err) {
      if (!(err instanceof PaymentGatewayError)) throw err;
      result = { status: 'failed', ref: null, code: 'gateway_unreachable' };
    }
    return settle(intent.id, result);
  }

  /**
   * Settle an intent a crash left `processing` (issue 22): its charge's answer was never
   * recorded, so ask the acquirer again with the same intent id — the charge's idempotency key
   * (payments.ts): the acquirer answers the payment it already made (or makes it once if the
   * request never reached it), never a second charge. A card removed meanwhile fails the intent.
   */
  async function reconcile(intent: repo.IntentRow, accountType?: number): Promise<repo.IntentRow> {
    if (intent.status !== 'processing') return intent;
    const card = intent.cardId ? await repo.findCardAny(db, intent.cardId) : undefined;
    if (!card) return settle(intent.id, { status: 'failed', ref: null, code: 'card_removed' });
    const plan = intent.planCode ? PLANS.find((p) => p.code === intent.planCode) : undefined;
    return chargeIntent(intent, card.token, plan ? `Masar ${plan.name.en}` : 'Masar wallet recharge', accountType);
  }

  /** The HTTP answer of an intent: 201 paid, 202 waiting for 3-D Secure; a refusal is an error. */
  function outcome(i: repo.IntentRow): repo.IntentRow {
    if (i.status === 'failed') {
      throw new AppError(
        i.failureCode === 'gateway_unreachable'
          ? 'PAYMENT_GATEWAY_ERROR'
          : i.failureCode === 'insufficient_wallet'
            ? 'INSUFFICIENT_WALLET_BALANCE'
            : 'PAYMENT_DECLINED',
      );
    }
    return i;
  }

  const service = {
    /** The plan catalogue in the request's language, optionally for one audience. */
    plans(lang: Language, audience?: Plan['audience']): PlanView[] {
      return PLANS.filter((p) => !audience || p.audience === audience).map((p) => planView(p, lang));
    },

    async current(user: CurrentUser, lang: Language): Promise<Subscription | null> {
      const s = await repo.currentSubscription(db, user.id);
      return s ? subscriptionView(s, lang) : null;
    },

    async history(user: CurrentUser, lang: Language, limit: number, skip: number): Promise<Subscription[]> {
      return (await repo.listSubscriptions(db, user.id, limit, skip)).map((s) => subscriptionView(s, lang));
    },

    /** Start the free trial of a plan for the account's audience: once per account, never after a paid plan. */
    async startTrial(user: CurrentUser, planCode: string, lang: Language): Promise<Subscription> {
      const plan = assertPlanFor(user, planCode);
      return db.transaction(async (tx) => {
        await repo.lockWallet(tx, user.id); // one subscription write per user at a time
        if (await repo.hasAnySubscription(tx, user.id)) throw new AppError('TRIAL_USED');
        const id = newId();
        const now = new Date();
        await repo.insertSubscription(tx, {
          id,
          userId: user.id,
          planCode: plan.code,
          planName: plan.name.en,
          active: true,
          status: 'trialing',
          trial: true,
          startedAt: now,
          endsAt: dayjs(now).add(TRIAL_DAYS, 'day').toDate(),
          cancelAtPeriodEnd: false,
          months: plan.months,
        });
        await billingEvent(tx, 'subscription.started', user.id, subData(id, plan.code, dayjs(now).add(TRIAL_DAYS, 'day').toDate()));
        const s = await repo.currentSubscription(tx, user.id);
        return subscriptionView(s!, lang);
      });
    },

    /** Cancel at the end of the paid period (a trial ends at once). */
    async cancel(user: CurrentUser, lang: Language): Promise<Subscription> {
      const s = await repo.currentSubscription(db, user.id);
      if (!s || s.planCode === DEMO_PLAN_CODE) throw new AppError('NO_ACTIVE_PLAN');
      await db.transaction(async (tx) => {
        if (s.trial) await repo.updateSubscription(tx, s.id, { active: false, status: 'cancelled', endsAt: new Date(), cancelledAt: new Date() });
        else await repo.updateSubscription(tx, s.id, { cancelAtPeriodEnd: true, status: 'cancelled', cancelledAt: new Date() });
        await billingEvent(tx, 'subscription.cancelled', user.id, subData(s.id, s.planCode, s.trial ? new Date() : s.endsAt));
      });
      return subscriptionView((await repo.findSubscription(db, s.id)) ?? s, lang);
    },

    // ── cards ──
    async cards(user: CurrentUser): Promise<SavedCard[]> {
      return (await repo.listCards(db, user.id)).map(cardView);
    },
    /** Tokenize at the gateway and keep token, brand, last 4 and expiry. The number never reaches the database. */
    async addCard(user: CurrentUser, body: z.output<typeof cardAddBody>): Promise<SavedCard> {
      // a same-key retry after a crash that committed the card answers that card (no second token)
      const replayed = replayNext();
      if (replayed) return replayed.value as SavedCard;
      // a cheap early refusal before the gateway call; the cap itself holds under the lock below
      if ((await repo.countCards(db, user.id)) >= MAX_CARDS) throw new AppError('LIMIT_REACHED');
      let token: string;
      try {
        ({ token } = await payments.tokenize({
          number: body.number,
          expMonth: body.expMonth,
          expYear: body.expYear,
          cvc: body.cvc,
          holderName: body.holderName,
        }));
      } catch (err) {
        if (err instanceof PaymentGatewayError) throw new AppError('PAYMENT_GATEWAY_ERROR');
        throw err;
      }
      return db.transaction(async (tx) => {
        await lockAccountCap(tx, 'cards', user.id);
        const saved = await repo.countCards(tx, user.id);
        if (saved >= MAX_CARDS) throw new AppError('LIMIT_REACHED');
        const first = saved === 0;
        const card = await repo.insertCard(tx, {
          id: newId(),
          userId: user.id,
          gateway: payments.name,
          token,
          brand: cardBrand(body.number)!,
          last4: body.number.slice(-4),
          expMonth: body.expMonth,
          expYear: body.expYear,
          holderName: body.holderName,
          isDefault: first,
        });
        if (body.makeDefault && !first) await repo.setDefaultCard(tx, user.id, card.id);
        return cardView({ ...card, isDefault: first || Boolean(body.makeDefault) });
      });
    },
    async removeCard(user: CurrentUser, id: string): Promise<void> {
      if (!(await repo.deleteCard(db, user.id, id))) throw new AppError('NOT_FOUND');
    },
    async makeDefault(user: CurrentUser, id: string): Promise<void> {
      if (!(await repo.findCard(db, user.id, id))) throw new AppError('NOT_FOUND');
      await repo.setDefaultCard(db, user.id, id);
    },

    /** What a promo code would take off a plan (redeems nothing). */
    async quotePromo(user: CurrentUser, code: string, planCode: string): Promise<PromoQuote> {
      const plan = assertPlanFor(user, planCode);
      const discount = await promoDiscount(db, user.id, code, plan);
      const price = toHalalas(plan.priceSar);
      const amount = price - discount;
      const vat = vatHalalas(amount);
      return {
        code,
        planCode,
        priceSar: fromHalalas(price),
        discountSar: fromHalalas(discount),
        amountSar: fromHalalas(amount),
        vatSar: fromHalalas(vat),
        totalSar: fromHalalas(amount + vat),
      };
    },

    /**
     * POST /subscription/createIntent. `key` is the request's Idempotency-Key: the same key
     * answers the first intent (charging nothing again); the same key with another body is
     * IDEMPOTENCY_KEY_REUSED. Answers the intent: succeeded (201) or requires_action (202);
     * a refusal throws PAYMENT_DECLINED / INSUFFICIENT_WALLET_BALANCE / PAYMENT_GATEWAY_ERROR.
     */
    async createIntent(user: CurrentUser, key: string, body: z.output<typeof intentCreateBody>): Promise<PaymentIntent> {
      const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
      const existing = await repo.findIntentByKey(db, user.id, key);
      if (existing) {
        if (existing.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
        // the same-key retry of a checkout whose process died before recording the charge
        // (the Idempotency-Key lease guarantees no live request holds the key): settle it now
        return toIntentView(outcome(await reconcile(existing, user.accountType)));
      }

      let plan: Plan | undefined;
      let price: number;
      let discount = 0;
      if (body.purpose === PAYMENT_PURPOSE.walletRecharge) {
        price = toHalalas(body.amountSar);
      } else {
        plan = assertPlanFor(user, body.planCode);
        price = toHalalas(plan.priceSar);
        // a quick answer for the common case; the check that holds under races is in the transaction below
        assertNoPaidPlan(await repo.currentSubscription(db, user.id));
        if (body.promoCode) discount = await promoDiscount(db, user.id, body.promoCode, plan);
        if (!body.cardId && !body.payWithWallet) throw new AppError('PAYMENT_METHOD_REQUIRED');
      }
      const amount = price - discount;
      // a wallet top-up is not a supply: VAT is charged when the balance is spent
      const vat = body.purpose === PAYMENT_PURPOSE.walletRecharge ? 0 : vatHalalas(amount);
      const card = body.cardId ? await repo.findCard(db, user.id, body.cardId) : undefined;
      if (body.cardId && !card) throw new AppError('NOT_FOUND');
      const payWithWallet = body.purpose !== PAYMENT_PURPOSE.walletRecharge && !card && Boolean(body.payWithWallet);

      const created = await db.transaction(async (tx) => {
        if (plan) {
          // One plan per account (issue 22): this account's plan checkouts take turns on its row
          // lock, and each checks again here, inside the transaction that records its intent and
          // before any gateway charge, so a racing checkout with another Idempotency-Key is refused
          // (409) without charging. subscriptions_one_live_per_user (migration 0095) backs it.
          await repo.lockWallet(tx, user.id);
          if (await repo.findIntentByKey(tx, user.id, key)) return null; // the same request, retried: answered below
          assertNoPaidPlan(await repo.currentSubscription(tx, user.id));
          if (await repo.hasPendingPlanIntent(tx, user.id, new Date(Date.now() - CHECKOUT_PENDING_MINUTES * 60_000)))
            throw new AppError('CHECKOUT_IN_PROGRESS');
        }
        const intent = await repo.insertIntent(tx, {
          id: newId(),
          userId: user.id,
          idempotencyKey: key,
          requestHash,
          purpose: body.purpose,
          status: 'processing',
          planCode: plan?.code ?? null,
          priceHalalas: price,
          discountHalalas: discount,
          amountHalalas: amount,
          vatHalalas: vat,
          totalHalalas: amount + vat,
          cardId: card?.id ?? null,
          payWithWallet,
          promoCode: discount > 0 && 'promoCode' in body ? (body.promoCode ?? null) : null,
          gateway: payWithWallet ? 'wallet' : payments.name,
        });
        if (!intent) return null; // a racing retry with the same key inserted first
        if (intent.promoCode && !(await repo.redeemPromo(tx, intent.promoCode, user.id, intent.id))) throw new AppError('PROMO_ALREADY_USED');
        if (!payWithWallet) return intent;
        // paid from the wallet: check and debit under the wallet lock, in this transaction
        await repo.lockWallet(tx, user.id);
        if ((await repo.walletBalance(tx, user.id)) < intent.totalHalalas) {
          await releasePromo(tx, intent);
          await billingEvent(tx, 'payment.failed', user.id, {
            paymentId: intent.id,
            amountSar: fromHalalas(intent.totalHalalas),
            reason: 'insufficient_wallet',
          });
          return repo.updateIntent(tx, intent.id, { status: 'failed', failureCode: 'insufficient_wallet' });
        }
        await repo.insertWalletEntry(tx, { id: newId(), userId: user.id, kind: 'payment', amountHalalas: -intent.totalHalalas, intentId: intent.id });
        return applySuccess(tx, intent, null);
      });
      if (!created) {
        const first = await repo.findIntentByKey(db, user.id, key);
        if (!first || first.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
        return toIntentView(outcome(await reconcile(first, user.accountType)));
      }
      if (created.status !== 'processing') return toIntentView(outcome(created));
      const description = plan ? `Masar ${plan.name.en}` : 'Masar wallet recharge';
      return toIntentView(outcome(await chargeIntent(created, card!.token, description, user.accountType)));
    },

    /**
     * The `billing.reconcile` job (every minute, issue 22): card checkouts still `processing`
     * after `staleSeconds` lost their request (a live charge has answered or timed out long
     * before): ask the acquirer and settle each, so a crashed checkout neither blocks the next
     * one (CHECKOUT_IN_PROGRESS) nor stays unpaid. Returns how many were settled.
     */
    async reconcileStale(staleSeconds: number, now = new Date()): Promise<number> {
      let n = 0;
      let failure: unknown;
      for (const { intent, accountType } of await repo.staleProcessingIntents(db, new Date(now.getTime() - staleSeconds * 1000))) {
        try {
          await reconcile(intent, accountType);
          n += 1;
        } catch (err) {
          failure ??= err; // the others are still settled; the job fails (and is retried) after
        }
      }
      if (failure) throw failure;
      return n;
    },

    /** After 3-D Secure: ask the gateway how the payment ended and apply it. */
    async confirmIntent(user: CurrentUser, id: string, sandboxOutcome?: 'approve' | 'decline'): Promise<PaymentIntent> {
      const intent = await repo.findIntent(db, user.id, id);
      if (!intent) throw new AppError('NOT_FOUND');
      if (intent.status === 'succeeded') return toIntentView(intent);
      if (intent.status !== 'requires_action' || !intent.gatewayRef) throw new AppError('INTENT_NOT_PENDING');
      let result: ChargeResult;
      try {
        result = await payments.verify(intent.gatewayRef, sandboxOutcome);
      } catch (err) {
        if (err instanceof PaymentGatewayError) throw new AppError('PAYMENT_GATEWAY_ERROR');
        throw err;
      }
      return toIntentView(outcome(await settle(intent.id, result)));
    },

    async intent(user: CurrentUser, id: string): Promise<PaymentIntent> {
      const i = await repo.findIntent(db, user.id, id);
      if (!i) throw new AppError('NOT_FOUND');
      return toIntentView(i);
    },

    /** Balance = the sum of the ledger; the latest entries. */
    async wallet(user: CurrentUser): Promise<Wallet> {
      const [balance, entries] = await Promise.all([repo.walletBalance(db, user.id), repo.walletEntriesOf(db, user.id, 50)]);
      return {
        balanceSar: fromHalalas(balance),
        entries: entries.map((e) => ({
          id: e.id,
          kind: e.kind,
          amountSar: fromHalalas(e.amountHalalas),
          intentId: e.intentId,
          createdAt: e.createdAt.toISOString(),
        })),
      };
    },

    async invoices(user: CurrentUser, limit: number, skip: number): Promise<Invoice[]> {
      return (await repo.listInvoices(db, user.id, limit, skip)).map(invoiceView);
    },
    /** The invoice as a bilingual PDF (A4) with its ZATCA QR code. */
    async invoicePdf(user: CurrentUser, id: string): Promise<{ number: string; pdf: Buffer }> {
      const inv = await service.invoice(user, id);
      return { number: inv.number, pdf: await renderInvoicePdf(inv) };
    },
    async invoice(user: CurrentUser, id: string): Promise<Invoice> {
      const r = await repo.findInvoice(db, user.id, id);
      if (!r) throw new AppError('NOT_FOUND');
      return invoiceView(r);
    },

    /** Create or update a promo code (admin CLI, demo seed). `value`: percent (1–100) or SAR off. */
    async upsertPromo(p: {
      code: string;
      kind: 'percent' | 'fixed';
      value: string;
      expiresAt?: Date | null;
      maxRedemptions?: number | null;
      planCodes?: string[] | null;
    }) {
      const value = p.kind === 'percent' ? Number(p.value) : toHalalas(p.value);
      if (!(value > 0) || (p.kind === 'percent' && (!Number.isInteger(value) || value > 100))) throw new RangeError('promo value out of range');
      await repo.upsertPromo(db, {
        code: p.code.toUpperCase(),
        kind: p.kind,
        value,
        expiresAt: p.expiresAt ?? null,
        maxRedemptions: p.maxRedemptions ?? null,
        planCodes: p.planCodes ?? null,
        active: true,
      });
    },

    /**
     * The renewal job (hourly): end trials and cancelled plans whose period is over; charge the
     * card of each renewing subscription from RENEWAL_LEAD_HOURS before its end, up to
     * RENEWAL_MAX_ATTEMPTS tries RENEWAL_RETRY_HOURS apart; after the last failure it is set
     * to end with its period (past_due). Returns counts.
     */
    async renewDue(now = new Date()): Promise<{ expired: number; renewed: number; failed: number }> {
      const expired = await db.transaction(async (tx) => {
        const rows = await repo.expireEnded(tx);
        for (const r of rows) await billingEvent(tx, 'subscription.expired', r.userId, subData(r.id, r.planCode, r.endsAt));
        return rows.length;
      });
      let renewed = 0;
      let failed = 0;
      const due = await repo.dueForRenewal(db, dayjs(now).add(RENEWAL_LEAD_HOURS, 'hour').toDate(), 200);
      for (const s of due) {
        if (s.lastRenewalAt && now.getTime() - s.lastRenewalAt.getTime() < RENEWAL_RETRY_HOURS * 3600_000) continue;
        const plan = planByCode(s.planCode);
        if (!plan || !s.endsAt) continue;
        const attempt = s.renewalAttempts + 1;
        const fail = async (reason: string) => {
          failed++;
          await db.transaction(async (tx) => {
            await repo.updateSubscription(tx, s.id, {
              renewalAttempts: attempt,
              lastRenewalAt: now,
              lastRenewalError: reason,
              ...(attempt >= RENEWAL_MAX_ATTEMPTS ? { status: 'past_due', cancelAtPeriodEnd: true } : { status: 'past_due' }),
            });
            await billingEvent(tx, 'subscription.past_due', s.userId, { ...subData(s.id, s.planCode, s.endsAt), attempts: attempt });
          });
        };
        // the plan's card, else the default, else any card the bank has not declined; a declined
        // card only when nothing else is left (a decline such as insufficient funds may clear)
        const cards = await repo.listCards(db, s.userId);
        const candidates = [cards.find((c) => c.id === s.cardId), cards.find((c) => c.isDefault), ...cards].filter((c) => c !== undefined);
        const card = candidates.find((c) => !c.lastChargeFailedAt) ?? candidates[0];
        if (!card) {
          await fail('no_card');
          continue;
        }
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
        if (!intent) continue; // another runner took this attempt
        const done = await chargeIntent(intent, card.token, `Masar ${plan.name.en} renewal`);
        if (done.status === 'succeeded') {
          renewed++;
          await repo.updateSubscription(db, s.id, { lastRenewalAt: now });
        } else await fail(done.failureCode ?? done.status);
      }
      return { expired, renewed, failed };
    },
  };
  return service;
}

export type BillingService = ReturnType<typeof createBillingService>;
