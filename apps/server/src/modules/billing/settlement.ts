import dayjs from 'dayjs';
import { fromHalalas, PAYMENT_PURPOSE, planByCode, PLANS, type CardBrand, type PaymentIntent, type Plan } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { ChargeResult } from '../../gateways/payments/payments.ts';
import { PaymentGatewayError } from '../../gateways/payments/payments.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './billing.repository.ts';
import { billingEvent, releasePromo, subData } from './billing.shared.ts';
import type { BillingDeps } from './deps.ts';
import * as lifecycle from './lifecycle.ts';
import { zatcaQrBase64 } from './zatca.ts';

/**
 * How a payment intent ends, shared by checkout, the 3-D Secure confirmation, the reconcile job
 * and the renewal job (issue 8, issue 22). Money is integer halalas throughout; a payment intent
 * is keyed by (user, Idempotency-Key), so a retried request finds the first attempt and never
 * charges twice; every success is written in one transaction (intent, subscription or ledger
 * line, promo redemption, invoice).
 */

/** Gateway answers that say nothing about the card (the acquirer was not reached). */
const NOT_THE_CARDS_FAULT = new Set(['gateway_unreachable']);

async function issueInvoice(deps: Pick<BillingDeps, 'seller'>, tx: DbOrTx, intent: repo.IntentRow, plan: Plan | undefined): Promise<string> {
  const { seller } = deps;
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

/** A paid plan intent's subscription: the renewed period of its subscription, or a new one (returned). */
async function applyPlan(tx: DbOrTx, intent: repo.IntentRow, plan: Plan): Promise<string | undefined> {
  if (intent.subscriptionId) {
    // a renewal: the same subscription gets its next period
    const sub = await repo.findSubscription(tx, intent.subscriptionId);
    // from the current end, never from now: the payer loses no day
    const endsAt = dayjs(sub?.endsAt ?? new Date())
      .add(plan.months, 'month')
      .toDate();
    await lifecycle.transition(tx, intent.subscriptionId, 'renew', subData(intent.subscriptionId, plan.code, endsAt), {
      endsAt,
      renewalAttempts: 0,
      lastRenewalError: null,
      priceHalalas: intent.amountHalalas,
    });
    return undefined;
  }
  await repo.lockWallet(tx, intent.userId); // one live plan per account: subscription writes take turns
  await lifecycle.replaceLive(tx, intent.userId);
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
  return subscriptionId;
}

/** Apply a paid intent, once: the plan or the wallet credit, the invoice. Runs in `tx` with the intent locked. */
export async function applySuccess(deps: Pick<BillingDeps, 'seller'>, tx: DbOrTx, intent: repo.IntentRow, ref: string | null): Promise<repo.IntentRow> {
  if (intent.status === 'succeeded') return intent;
  const set: Parameters<typeof repo.updateIntent>[2] = { status: 'succeeded', gatewayRef: ref, actionUrl: null };
  if (intent.purpose === PAYMENT_PURPOSE.walletRecharge) {
    await repo.insertWalletEntry(tx, { id: newId(), userId: intent.userId, kind: 'recharge', amountHalalas: intent.amountHalalas, intentId: intent.id });
  } else {
    const plan = planByCode(intent.planCode ?? '');
    if (!plan) throw new Error(`intent ${intent.id} has no known plan`);
    const subscriptionId = await applyPlan(tx, intent, plan);
    if (subscriptionId) set.subscriptionId = subscriptionId;
    set.invoiceId = await issueInvoice(deps, tx, intent, plan);
  }
  await billingEvent(tx, 'payment.succeeded', intent.userId, {
    paymentId: intent.id,
    amountSar: fromHalalas(intent.totalHalalas),
    purpose: String(intent.purpose),
  });
  return repo.updateIntent(tx, intent.id, set);
}

/** Record what the gateway said about an intent; returns the intent as it now stands. */
export async function settle(deps: Pick<BillingDeps, 'db' | 'seller'>, intentId: string, result: ChargeResult): Promise<repo.IntentRow> {
  return deps.db.transaction(async (tx) => {
    const intent = await repo.lockIntent(tx, intentId);
    if (!intent) throw new AppError('NOT_FOUND');
    if (intent.status === 'succeeded' || intent.status === 'failed') return intent;
    if (result.status === 'succeeded') {
      if (intent.cardId) await repo.markCardCharged(tx, intent.cardId);
      return applySuccess(deps, tx, intent, result.ref);
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

export async function toIntentView(deps: Pick<BillingDeps, 'db'>, i: repo.IntentRow): Promise<PaymentIntent> {
  const card = i.cardId ? await repo.findCardAny(deps.db, i.cardId) : undefined;
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

/** What charging an intent needs: the gateway, the callback's origin, and settle's deps. */
export type ChargeDeps = Pick<BillingDeps, 'db' | 'seller' | 'payments' | 'publicUrl'>;

/** Charge a card-paid intent at the gateway and record the answer (outside any transaction). */
export async function chargeIntent(
  deps: ChargeDeps,
  intent: repo.IntentRow,
  token: string,
  description: string,
  accountType?: number,
): Promise<repo.IntentRow> {
  const { payments } = deps;
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
  return settle(deps, intent.id, result);
}

/**
 * Settle an intent a crash left `processing` (issue 22): its charge's answer was never
 * recorded, so ask the acquirer again with the same intent id — the charge's idempotency key
 * (payments.ts): the acquirer answers the payment it already made (or makes it once if the
 * request never reached it), never a second charge. A card removed meanwhile fails the intent.
 */
export async function reconcile(deps: ChargeDeps, intent: repo.IntentRow, accountType?: number): Promise<repo.IntentRow> {
  if (intent.status !== 'processing') return intent;
  const card = intent.cardId ? await repo.findCardAny(deps.db, intent.cardId) : undefined;
  if (!card) return settle(deps, intent.id, { status: 'failed', ref: null, code: 'card_removed' });
  const plan = intent.planCode ? PLANS.find((p) => p.code === intent.planCode) : undefined;
  return chargeIntent(deps, intent, card.token, plan ? `Masar ${plan.name.en}` : 'Masar wallet recharge', accountType);
}

/** The HTTP answer of an intent: 201 paid, 202 waiting for 3-D Secure; a refusal is an error. */
export function outcome(i: repo.IntentRow): repo.IntentRow {
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
