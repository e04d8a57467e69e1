import { createElement, lazy, type ComponentType } from 'react';
import { SlotsProvider, type FeatureSlots } from '../components/slots';
import { loadNamespaces } from '../i18n';

/**
 * Which feature fills each slot of components/slots (features never import each other; app/ wires
 * them). Lazy: a slot's code loads with the first page that shows it. The pages with slots get them
 * from their route (routes.tsx `withSlots`), so none of this is in the entry chunk.
 */
/** The tenders feature with its strings (a page namespace: the pages lending its slots need not name it). */
const tenders = () => Promise.all([import('../features/tenders'), loadNamespaces(['tenders'])]).then(([m]) => m);

export const featureSlots: FeatureSlots = {
  RelationMenu: lazy(() => import('../features/relations').then((m) => ({ default: m.RelationMenu }))),
  CounterpartContactCard: lazy(() => import('../features/relations').then((m) => ({ default: m.CounterpartContactCard }))),
  BayanPanel: lazy(() => import('../features/bayan').then((m) => ({ default: m.BayanPanel }))),
  DaysToPayBadge: lazy(() => import('../features/trips').then((m) => ({ default: m.DaysToPayBadge }))),
  PaymentReceivedButton: lazy(() => import('../features/trips').then((m) => ({ default: m.PaymentReceivedButton }))),
  InvitationsCard: lazy(() => import('../features/team').then((m) => ({ default: m.InvitationsCard }))),
  BidPanel: lazy(() => import('../features/offers').then((m) => ({ default: m.BidPanel }))),
  OwnerOffersPanel: lazy(() => import('../features/offers').then((m) => ({ default: m.OwnerOffersPanel }))),
  TenderTruckButton: lazy(() => tenders().then((m) => ({ default: m.TenderTruckButton }))),
  TenderLoadButton: lazy(() => tenders().then((m) => ({ default: m.TenderLoadButton }))),
  SavedSearches: lazy(() => import('../features/searches').then((m) => ({ default: m.SavedSearches }))),
  MessageButton: lazy(() => Promise.all([import('../features/chat'), loadNamespaces(['chat'])]).then(([m]) => ({ default: m.MessageButton }))),
  CallButtons: lazy(() => Promise.all([import('../features/calls'), loadNamespaces(['calls'])]).then(([m]) => ({ default: m.CallButtons }))),
  NotificationPreferences: lazy(() =>
    Promise.all([import('../features/notifications'), loadNamespaces(['notifications'])]).then(([m]) => ({ default: m.NotificationPreferencesSection })),
  ),
};

/** `Page` with the feature slots provided (routes.tsx loads this module with the page's chunk). */
export function withSlots<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  return (props: P) => createElement(SlotsProvider, { value: featureSlots }, createElement(Page, props));
}
