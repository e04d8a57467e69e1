import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cardAddBody,
  envelope,
  idParams,
  intentConfirmBody,
  intentCreateBody,
  invoiceSchema,
  paginationQuery,
  paymentIntentSchema,
  planSchema,
  promoCheckBody,
  promoQuoteSchema,
  savedCardSchema,
  subscriptionSchema,
  trialStartBody,
  walletSchema,
  message,
} from '@masar/shared';
import { AppError } from '../../lib/errors.ts';
import { IDEMPOTENCY_HEADER } from '../../plugins/idempotency.ts';

/**
 * Plans, checkout, saved cards, promo codes, wallet and invoices (issue 8; spec §7 paths
 * /subscription, /subscription/createIntent, /subscriptions, /cancelSubscription, /paymentMethod).
 * Managed with a session only: an API key never pays.
 */
export default async function billingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.billing;
  const user = { auth: 'user' as const, sessionOnly: true };
  const tags = ['billing'];

  app.get(
    '/plans',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'The plans for shippers, carriers and TMS users, in SAR with 15% VAT',
        querystring: z.object({ audience: z.enum(['shipper', 'carrier', 'tms']).optional() }),
        response: { 200: envelope(z.object({ items: z.array(planSchema) })) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: { items: svc.plans(req.lang, req.query.audience) } }),
  );

  app.get(
    '/subscription',
    { config: user, schema: { tags, summary: 'My current plan (null when none)', response: { 200: envelope(subscriptionSchema.nullable()) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.current(app.requireUser(req), req.lang) }),
  );
  app.get(
    '/subscriptions',
    {
      config: user,
      schema: {
        tags,
        summary: 'My plans, newest first',
        querystring: paginationQuery,
        response: { 200: envelope(z.object({ items: z.array(subscriptionSchema) })) },
      },
    },
    async (req) => ({
      message: message('common.ok', req.lang),
      data: { items: await svc.history(app.requireUser(req), req.lang, req.query.limit, req.query.skip) },
    }),
  );
  app.post(
    '/subscription/trial',
    {
      // crash-safe replay (issue 22): one transaction, whose result is the answer
      config: { ...user, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Start the 10-day free trial of a plan',
        description: 'Once per account, and only before any paid plan (TRIAL_USED). The plan must be for the account type (PLAN_NOT_FOR_ACCOUNT).',
        body: trialStartBody,
        response: { 201: envelope(subscriptionSchema) },
      },
    },
    async (req, reply) =>
      reply.status(201).send({ message: message('billing.trial', req.lang), data: await svc.startTrial(app.requireUser(req), req.body.planCode, req.lang) }),
  );
  app.post(
    '/subscription/createIntent',
    {
      // after a crash the retry runs again: the intent found by its key is settled with the gateway (issue 22)
      config: { ...user, idempotencyReplay: 'rerun' },
      schema: {
        tags,
        summary: 'Pay for a plan or recharge the wallet',
        description:
          'Requires the Idempotency-Key header (IDEMPOTENCY_KEY_REQUIRED): a retried request answers the first payment and never charges twice. Purposes: 4 subscription (renews), 3 membership (one period), 2 wallet recharge. Pay with a saved card (`cardId`) or, for plans, from the wallet (`payWithWallet`; INSUFFICIENT_WALLET_BALANCE). Answers 201 when paid, 202 with `actionUrl` when the bank asks for 3-D Secure (then POST /payments/intents/{id}/confirm). Refusals: PAYMENT_DECLINED, PAYMENT_GATEWAY_ERROR, PAYMENT_METHOD_REQUIRED; an active plan must be cancelled first (PLAN_ALREADY_ACTIVE), and one plan checkout at a time per account (CHECKOUT_IN_PROGRESS, 409, while another waits for the bank; checked under a lock before any charge); promo codes: PROMO_INVALID, PROMO_EXPIRED, PROMO_USED_UP, PROMO_ALREADY_USED; PLAN_NOT_FOR_ACCOUNT.',
        body: intentCreateBody,
        response: { 201: envelope(paymentIntentSchema), 202: envelope(paymentIntentSchema) },
      },
    },
    async (req, reply) => {
      const key = req.headers[IDEMPOTENCY_HEADER];
      if (typeof key !== 'string' || !key) throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
      const intent = await svc.createIntent(app.requireUser(req), key, req.body);
      if (intent.status === 'requires_action') return reply.status(202).send({ message: message('billing.action', req.lang), data: intent });
      return reply.status(201).send({ message: message(intent.purpose === 2 ? 'billing.recharged' : 'billing.paid', req.lang), data: intent });
    },
  );
  app.get(
    '/payments/intents/:id',
    { config: user, schema: { tags, summary: 'One of my payments', params: idParams, response: { 200: envelope(paymentIntentSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.intent(app.requireUser(req), req.params.id) }),
  );
  app.post(
    '/payments/intents/:id/confirm',
    {
      config: user,
      schema: {
        tags,
        summary: 'Finish a payment after 3-D Secure',
        description:
          'The state is asked of the payment gateway, never taken from the redirect. `outcome` is read by the sandbox gateway only (its bank page). INTENT_NOT_PENDING when the payment is already over; PAYMENT_DECLINED when the bank refused.',
        params: idParams,
        body: intentConfirmBody,
        response: { 200: envelope(paymentIntentSchema) },
      },
    },
    async (req) => {
      const intent = await svc.confirmIntent(app.requireUser(req), req.params.id, req.body.outcome);
      return {
        message: message(intent.status === 'succeeded' ? (intent.purpose === 2 ? 'billing.recharged' : 'billing.paid') : 'billing.action', req.lang),
        data: intent,
      };
    },
  );
  app.patch(
    '/cancelSubscription',
    {
      config: user,
      schema: {
        tags,
        summary: 'Cancel my plan at the end of the paid period (a trial ends now)',
        description: 'NO_ACTIVE_PLAN when there is nothing to cancel.',
        response: { 200: envelope(subscriptionSchema) },
      },
    },
    async (req) => ({ message: message('billing.cancelled', req.lang), data: await svc.cancel(app.requireUser(req), req.lang) }),
  );

  app.get(
    '/paymentMethod',
    {
      config: user,
      schema: { tags, summary: 'My saved cards (brand, last 4, expiry)', response: { 200: envelope(z.object({ items: z.array(savedCardSchema) })) } },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: { items: await svc.cards(app.requireUser(req)) } }),
  );
  app.post(
    '/paymentMethod',
    {
      // crash-safe replay (issue 22): the committed card is answered, nothing is tokenized again
      config: { ...user, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Save a card',
        description:
          'The number and CVC go to the payment gateway to be tokenized and are never stored or logged; Masar keeps the token, brand, last 4 and expiry. mada, Visa, Mastercard, Amex, Diners, Discover, JCB, UnionPay. At most 10 cards (LIMIT_REACHED); PAYMENT_GATEWAY_ERROR when the gateway does not answer.',
        body: cardAddBody,
        response: { 201: envelope(savedCardSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('billing.cardAdded', req.lang), data: await svc.addCard(app.requireUser(req), req.body) }),
  );
  app.delete(
    '/paymentMethod/:id',
    { config: user, schema: { tags, summary: 'Remove a saved card', params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await svc.removeCard(app.requireUser(req), req.params.id);
      return { message: message('billing.cardRemoved', req.lang), data: null };
    },
  );
  app.post(
    '/paymentMethod/:id/default',
    { config: user, schema: { tags, summary: 'Use this card for renewals', params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await svc.makeDefault(app.requireUser(req), req.params.id);
      return { message: message('common.ok', req.lang), data: null };
    },
  );

  app.post(
    '/promo/check',
    {
      config: user,
      schema: {
        tags,
        summary: 'What a promo code takes off a plan (nothing is redeemed)',
        description: 'PROMO_INVALID, PROMO_EXPIRED, PROMO_USED_UP, PROMO_ALREADY_USED, PLAN_NOT_FOR_ACCOUNT.',
        body: promoCheckBody,
        response: { 200: envelope(promoQuoteSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.quotePromo(app.requireUser(req), req.body.code, req.body.planCode) }),
  );

  app.get(
    '/wallet',
    { config: user, schema: { tags, summary: 'My wallet: balance (sum of the ledger) and latest entries', response: { 200: envelope(walletSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.wallet(app.requireUser(req)) }),
  );
  app.get(
    '/invoices',
    {
      config: user,
      schema: {
        tags,
        summary: 'My VAT invoices, newest first',
        querystring: paginationQuery,
        response: { 200: envelope(z.object({ items: z.array(invoiceSchema) })) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: { items: await svc.invoices(app.requireUser(req), req.query.limit, req.query.skip) } }),
  );
  app.get(
    '/invoices/:id',
    { config: user, schema: { tags, summary: 'One VAT invoice with its ZATCA QR payload', params: idParams, response: { 200: envelope(invoiceSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.invoice(app.requireUser(req), req.params.id) }),
  );
  app.get(
    '/invoices/:id/pdf',
    {
      config: user,
      schema: { tags, summary: 'One VAT invoice as a PDF in English and Arabic, with its ZATCA QR code (application/pdf)', params: idParams },
    },
    async (req, reply) => {
      const { number, pdf } = await svc.invoicePdf(app.requireUser(req), req.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${number}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}
