import { useQuery } from '@tanstack/react-query';
import { PLAN_CODES } from '@masar/shared';
import { masar, unwrap, type BodyOf } from '../../lib/api';

/** A plan's code as the API's bodies take it (one of the catalogue's PLAN_CODES). */
export type PlanCode = BodyOf<'/api/v1/subscription/trial', 'post'>['planCode'];
export const isPlanCode = (code: string): code is PlanCode => PLAN_CODES.includes(code);

/** Query keys and readers of the billing screens (issue 8; server modules/billing). */
export const BILLING = {
  plans: ['billing', 'plans'],
  subscription: ['billing', 'subscription'],
  cards: ['billing', 'cards'],
  wallet: ['billing', 'wallet'],
  invoices: ['billing', 'invoices'],
} as const;

export const usePlans = (lang: string) =>
  useQuery({ queryKey: [...BILLING.plans, lang], queryFn: () => unwrap(masar.GET('/api/v1/plans')).then((d) => d.items), staleTime: 60_000 });
export const useSubscription = (enabled = true) =>
  useQuery({ queryKey: BILLING.subscription, queryFn: () => unwrap(masar.GET('/api/v1/subscription')), enabled });
export const useCards = () => useQuery({ queryKey: BILLING.cards, queryFn: () => unwrap(masar.GET('/api/v1/paymentMethod')).then((d) => d.items) });
export const useWallet = () => useQuery({ queryKey: BILLING.wallet, queryFn: () => unwrap(masar.GET('/api/v1/wallet')) });
export const useInvoices = () =>
  useQuery({ queryKey: BILLING.invoices, queryFn: () => unwrap(masar.GET('/api/v1/invoices', { params: { query: { limit: 50 } } })).then((d) => d.items) });

/** A fresh Idempotency-Key for one payment attempt (kept while the user retries it). */
export const newPaymentKey = () => crypto.randomUUID();
