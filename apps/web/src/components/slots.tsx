import { createContext, Suspense, useContext, type ComponentType } from 'react';
import type { Load, LoadOption, Profile, SearchFilters, SearchKind } from '@masar/shared';

/**
 * Components one feature lends to another feature's page (issue 18: no feature imports another).
 * The page names the slot and passes its props; app/slots.ts wires each slot to the feature that
 * owns it (lazily, so nothing enters the entry chunk) and app/Providers provides them. A slot with
 * nothing wired renders nothing.
 */
export interface SlotPropsMap {
  /** relations: favourite / block a company. */
  RelationMenu: { userId: string; companyName: string };
  /** relations: how to reach the other party of a booked load. */
  CounterpartContactCard: { loadId: string };
  /** bayan: create / close / cancel the load's Bayan waybill. */
  BayanPanel: { loadId: string; options: readonly LoadOption[]; delivered?: boolean; vehicleLabel?: string; driverLabel?: string; onChanged?: () => void };
  /** trips: the shipper's average days to pay. */
  DaysToPayBadge: { shipperId: string };
  /** trips: the carrier marks the load paid. */
  PaymentReceivedButton: { loadId: string; amountSar: string; onDone?: () => void };
  /** team: invitations to join a company's team. */
  InvitationsCard: { profile: Profile };
  /** offers: a carrier's bid on a load. */
  BidPanel: { load: Load };
  /** offers: the owner's view of the bids on a load. */
  OwnerOffersPanel: { load: Load };
  /** tenders: "Offer this truck a load" — tender one of my loads to a truck's carrier. */
  TenderTruckButton: { carrierId: string; companyName: string };
  /** tenders: "Tender" — tender this load of mine to chosen carriers. */
  TenderLoadButton: { loadId: string; referenceId: string };
  /** searches: "Save search" and the saved and recent searches of a search page (runs one through onRun). */
  SavedSearches: { kind: SearchKind; filters: SearchFilters; onRun: (filters: SearchFilters) => void };
  /** notifications: the notification preferences section of the settings page. */
  NotificationPreferences: object;
  /** chat: "Message the shipper" / "Message the carrier" about a load (`counterpartId`: the carrier, for the owner). */
  MessageButton: { loadId: string; counterpartId?: string; to: 'shipper' | 'carrier'; company?: string; compact?: boolean };
  /** calls: the audio and video call buttons of a chat thread's header. */
  CallButtons: { conversationId: string; loadId: string; counterpartId: string; counterpartName: string };
}

export type FeatureSlots = { [K in keyof SlotPropsMap]: ComponentType<SlotPropsMap[K]> };

const SlotsContext = createContext<Partial<FeatureSlots>>({});
export const SlotsProvider = SlotsContext.Provider;

type SlotProps<K extends keyof SlotPropsMap> = { name: K } & SlotPropsMap[K];

/** Render the slot `name` with its props (its own Suspense boundary: the page does not blink while it loads). */
export function Slot<K extends keyof SlotPropsMap>({ name, ...props }: SlotProps<K>) {
  const C = useContext(SlotsContext)[name] as ComponentType<object> | undefined;
  if (!C) return null;
  return (
    <Suspense fallback={null}>
      <C {...props} />
    </Suspense>
  );
}
