import { useQuery } from '@tanstack/react-query';
import type { PlanView, SavedCard, Subscription, Wallet, Invoice } from '@masar/shared';
import { api } from '../../lib/api';

/** Query keys and readers of the billing screens (issue 8; server modules/billing). */
export const BILLING = {
  plans: ['billing', 'plans'],
  subscription: ['billing', 'subscription'],
  cards: ['billing', 'cards'],
  wallet: ['billing', 'wallet'],
  invoices: ['billing', 'invoices'],
} as const;

export const usePlans = (lang: string) =>
  useQuery({ queryKey: [...BILLING.plans, lang], queryFn: () => api.get<{ items: PlanView[] }>('/plans').then((d) => d.items), staleTime: 60_000 });
export const useSubscription = (enabled = true) =>
  useQuery({ queryKey: BILLING.subscription, queryFn: () => api.get<Subscription | null>('/subscription'), enabled });
export const useCards = () => useQuery({ queryKey: BILLING.cards, queryFn: () => api.get<{ items: SavedCard[] }>('/paymentMethod').then((d) => d.items) });
export const useWallet = () => useQuery({ queryKey: BILLING.wallet, queryFn: () => api.get<Wallet>('/wallet') });
export const useInvoices = () =>
  useQuery({ queryKey: BILLING.invoices, queryFn: () => api.get<{ items: Invoice[] }>('/invoices', { limit: 50 }).then((d) => d.items) });

/** A fresh Idempotency-Key for one payment attempt (kept while the user retries it). */
export const newPaymentKey = () => crypto.randomUUID();
