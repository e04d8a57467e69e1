import type { cardAddBody, intentCreateBody, Language, Plan } from '@masar/shared';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import * as repo from './billing.repository.ts';
import type { BillingDeps } from './deps.ts';
import { addCard } from './use-cases/add-card.ts';
import { cancelSubscription } from './use-cases/cancel-subscription.ts';
import { confirmIntent } from './use-cases/confirm-intent.ts';
import { createIntent } from './use-cases/create-intent.ts';
import { currentSubscription } from './use-cases/current-subscription.ts';
import { getIntent } from './use-cases/get-intent.ts';
import { getInvoice } from './use-cases/get-invoice.ts';
import { getInvoicePdf } from './use-cases/get-invoice-pdf.ts';
import { getWallet } from './use-cases/get-wallet.ts';
import { listCards } from './use-cases/list-cards.ts';
import { listInvoices } from './use-cases/list-invoices.ts';
import { listPlans } from './use-cases/list-plans.ts';
import { listSubscriptions } from './use-cases/list-subscriptions.ts';
import { makeDefaultCard } from './use-cases/make-default-card.ts';
import { removeCard } from './use-cases/remove-card.ts';
import { quotePromo } from './use-cases/quote-promo.ts';
import { reconcileStale } from './use-cases/reconcile-stale.ts';
import { renewDue } from './use-cases/renew-due.ts';
import { startTrial } from './use-cases/start-trial.ts';
import { upsertPromo, type PromoIn } from './use-cases/upsert-promo.ts';

export { CHECKOUT_PENDING_MINUTES, DEMO_PLAN_CODE, MAX_CARDS, RENEWAL_LEAD_HOURS, RENEWAL_MAX_ATTEMPTS, RENEWAL_RETRY_HOURS } from './billing.shared.ts';

/**
 * What the auth module's account admin asks of billing, which owns `subscriptions` (issue 18: one
 * writer per table): grant an active plan to an account it creates (the demo accounts), inside
 * the caller's transaction. Injected by the container.
 */
export const plansOfAccounts = {
  grant: (tx: DbOrTx, userId: string, plan: { code: string; name: string }) =>
    repo.insertSubscription(tx, { id: newId(), userId, planCode: plan.code, planName: plan.name, active: true }),
};

/**
 * Plans, checkout, saved cards, promo codes, the wallet ledger, VAT invoices and renewals
 * (issue 8; spec §2 checkout/billing, §3, §6, §7 /subscription… paths). One use case per file
 * (use-cases/*); how a payment intent ends (the crash-safe, idempotent part: settle, reconcile)
 * in settlement.ts; every status change of a subscription through lifecycle.ts. This factory is
 * the wiring only.
 */
export function createBillingService(deps: BillingDeps) {
  return {
    plans: (lang: Language, audience?: Plan['audience']) => listPlans(lang, audience),
    current: (user: CurrentUser, lang: Language) => currentSubscription(deps, user, lang),
    history: (user: CurrentUser, lang: Language, limit: number, skip: number) => listSubscriptions(deps, user, lang, limit, skip),
    startTrial: (user: CurrentUser, planCode: string, lang: Language) => startTrial(deps, user, planCode, lang),
    cancel: (user: CurrentUser, lang: Language) => cancelSubscription(deps, user, lang),

    // ── cards ──
    cards: (user: CurrentUser) => listCards(deps, user),
    addCard: (user: CurrentUser, body: z.output<typeof cardAddBody>) => addCard(deps, user, body),
    removeCard: (user: CurrentUser, id: string) => removeCard(deps, user, id),
    makeDefault: (user: CurrentUser, id: string) => makeDefaultCard(deps, user, id),

    quotePromo: (user: CurrentUser, code: string, planCode: string) => quotePromo(deps, user, code, planCode),
    createIntent: (user: CurrentUser, key: string, body: z.output<typeof intentCreateBody>) => createIntent(deps, user, key, body),
    reconcileStale: (staleSeconds: number, now = new Date()) => reconcileStale(deps, staleSeconds, now),
    confirmIntent: (user: CurrentUser, id: string, sandboxOutcome?: 'approve' | 'decline') => confirmIntent(deps, user, id, sandboxOutcome),
    intent: (user: CurrentUser, id: string) => getIntent(deps, user, id),
    wallet: (user: CurrentUser) => getWallet(deps, user),

    invoices: (user: CurrentUser, limit: number, skip: number) => listInvoices(deps, user, limit, skip),
    invoicePdf: (user: CurrentUser, id: string) => getInvoicePdf(deps, user, id),
    invoice: (user: CurrentUser, id: string) => getInvoice(deps, user, id),

    upsertPromo: (p: PromoIn) => upsertPromo(deps, p),
    renewDue: (now = new Date()) => renewDue(deps, now),
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
