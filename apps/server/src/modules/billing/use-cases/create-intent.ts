import { createHash } from 'node:crypto';
import { fromHalalas, PAYMENT_PURPOSE, toHalalas, vatHalalas, type intentCreateBody, type PaymentIntent, type Plan } from '@masar/shared';
import type { z } from 'zod';
import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import { assertNoPaidPlan, assertPlanFor, billingEvent, CHECKOUT_PENDING_MINUTES, promoDiscount, releasePromo } from '../billing.shared.ts';
import type { BillingDeps } from '../deps.ts';
import { applySuccess, chargeIntent, outcome, reconcile, toIntentView, type ChargeDeps } from '../settlement.ts';

export type CreateIntentDeps = ChargeDeps;
type Body = z.output<typeof intentCreateBody>;

/** What the checkout charges (halalas) and how, worked out before its transaction. */
interface Priced {
  plan: Plan | undefined;
  price: number;
  discount: number;
  amount: number;
  vat: number;
  card: repo.CardRow | undefined;
  payWithWallet: boolean;
}

/**
 * POST /subscription/createIntent. `key` is the request's Idempotency-Key: the same key
 * answers the first intent (charging nothing again); the same key with another body is
 * IDEMPOTENCY_KEY_REUSED. Answers the intent: succeeded (201) or requires_action (202);
 * a refusal throws PAYMENT_DECLINED / INSUFFICIENT_WALLET_BALANCE / PAYMENT_GATEWAY_ERROR.
 */
export async function createIntent(deps: CreateIntentDeps, user: CurrentUser, key: string, body: Body): Promise<PaymentIntent> {
  const { db } = deps;
  const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const existing = await repo.findIntentByKey(db, user.id, key);
  if (existing) {
    if (existing.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    // the same-key retry of a checkout whose process died before recording the charge
    // (the Idempotency-Key lease guarantees no live request holds the key): settle it now
    return toIntentView(deps, outcome(await reconcile(deps, existing, user.accountType)));
  }

  const priced = await price(deps, user, body);
  const created = await db.transaction((tx) => recordIntent(deps, tx, user, key, requestHash, body, priced));
  if (!created) {
    const first = await repo.findIntentByKey(db, user.id, key);
    if (!first || first.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    return toIntentView(deps, outcome(await reconcile(deps, first, user.accountType)));
  }
  if (created.status !== 'processing') return toIntentView(deps, outcome(created));
  const description = priced.plan ? `Masar ${priced.plan.name.en}` : 'Masar wallet recharge';
  return toIntentView(deps, outcome(await chargeIntent(deps, created, priced.card!.token, description, user.accountType)));
}

/** The checkout's price, discount, VAT and means of payment; the quick refusals (before any transaction). */
async function price(deps: Pick<BillingDeps, 'db'>, user: CurrentUser, body: Body): Promise<Priced> {
  const { db } = deps;
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
  return { plan, price, discount, amount, vat, card, payWithWallet };
}

/**
 * The checkout's transaction: the intent (and its promo redemption) recorded before any gateway
 * charge; paid from the wallet, the debit and the plan too. Null when the same request (same key)
 * was recorded first: the caller answers that one.
 */
async function recordIntent(
  deps: Pick<BillingDeps, 'payments' | 'seller'>,
  tx: DbOrTx,
  user: CurrentUser,
  key: string,
  requestHash: string,
  body: Body,
  p: Priced,
): Promise<repo.IntentRow | null> {
  const { plan, price, discount, amount, vat, card, payWithWallet } = p;
  if (plan) {
    // One plan per account (issue 22): this account's plan checkouts take turns on its row
    // lock, and each checks again here, inside the transaction that records its intent and
    // before any gateway charge, so a racing checkout with another Idempotency-Key is refused
    // (409) without charging. subscriptions_one_live_per_user (migration 0095) backs it.
    await repo.lockWallet(tx, user.id);
    if (await repo.findIntentByKey(tx, user.id, key)) return null; // the same request, retried: answered below
    assertNoPaidPlan(await repo.currentSubscription(tx, user.id));
    if (await repo.hasPendingPlanIntent(tx, user.id, new Date(Date.now() - CHECKOUT_PENDING_MINUTES * 60_000))) throw new AppError('CHECKOUT_IN_PROGRESS');
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
    gateway: payWithWallet ? 'wallet' : deps.payments.name,
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
  return applySuccess(deps, tx, intent, null);
}
