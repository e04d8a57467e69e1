import { ACCOUNT_TYPE, type AccountType, type DomainEventType, type NotificationCategory } from '@masar/shared';

/*
 * The event → notification catalogue (issue 21 "Notifications"; docs/notifications.md): which
 * typed events a user sees, in which category, which side of the event receives it and which
 * screen it opens. One more notification is one more line here (and its text in the web's
 * `notifications` namespace, en + ar). Events not listed notify nobody.
 */

/** A side of an event: the shipper or the carrier of a shipment (each with its team), or the account of an account event. */
export type Side = 'shipper' | 'carrier' | 'account';
/** The screen a notification opens (see linkFor). */
export type Screen = 'load' | 'track' | 'tenders' | 'rateAlerts' | 'approval' | 'team' | 'billing';

export interface CatalogueEntry {
  category: NotificationCategory;
  /** Who receives it: fixed sides, or from the payload (the side that did not act, for `by`). */
  to: readonly Side[] | ((data: Record<string, unknown>) => readonly Side[]);
  screen: Screen;
  /** An event that warrants an SMS when the channel exists (stored preference only for now). */
  sms?: true;
  /** The event has its own e-mail (sent by another handler): the notification is in-app only, never a second e-mail. */
  ownEmail?: true;
}

/** The side that did not name the price / did not act (`by` of an offer event). */
const otherThan = (d: Record<string, unknown>): readonly Side[] =>
  d.by === 'shipper' ? ['carrier'] : d.by === 'carrier' ? ['shipper'] : ['shipper', 'carrier'];
const BOTH: readonly Side[] = ['shipper', 'carrier'];

export const NOTIFICATION_CATALOGUE: Partial<Record<DomainEventType, CatalogueEntry>> = {
  'offer.created': { category: 'offers', to: ['shipper'], screen: 'load' },
  'offer.countered': { category: 'offers', to: otherThan, screen: 'load' },
  'offer.accepted': { category: 'offers', to: otherThan, screen: 'load', sms: true },
  'offer.rejected': { category: 'offers', to: otherThan, screen: 'load' },
  'offer.closed': { category: 'offers', to: ['carrier'], screen: 'load' },
  'load.cancelled': { category: 'shipments', to: BOTH, screen: 'load' },
  'load.bayan_cancelled': { category: 'shipments', to: BOTH, screen: 'load' },
  'load.assigned': { category: 'shipments', to: ['shipper'], screen: 'load', sms: true },
  'load.payment_received': { category: 'shipments', to: ['shipper'], screen: 'load' },
  'load.bayan_created': { category: 'bayan', to: BOTH, screen: 'load' },
  'load.bayan_closed': { category: 'bayan', to: BOTH, screen: 'load' },
  'load.bayan_failed': { category: 'bayan', to: BOTH, screen: 'load', sms: true },
  'trip.step': { category: 'trips', to: ['shipper'], screen: 'track' },
  'trip.proof_flagged': { category: 'trips', to: BOTH, screen: 'track' },
  'tender.invited': { category: 'tenders', to: ['carrier'], screen: 'tenders' },
  'tender.invite_awarded': { category: 'tenders', to: ['carrier'], screen: 'load' },
  'tender.invite_closed': { category: 'tenders', to: ['carrier'], screen: 'tenders' },
  'tender.closed': { category: 'tenders', to: ['shipper'], screen: 'tenders' },
  // issue 20: the alert's own e-mail goes out from modules/rates (rate-alert-emails)
  'rate.alert_triggered': { category: 'rates', to: ['account'], screen: 'rateAlerts', ownEmail: true },
  // issue 21 "Chat": the side that did not send it; the load's screen opens the conversation
  'chat.message_sent': { category: 'chat', to: otherThan, screen: 'load' },
  // issue 21 "Calls": a call nobody answered (the caller hung up, or 45 s passed) — the called side; `by` is the caller's side
  'call.missed': { category: 'chat', to: otherThan, screen: 'load' },
  'account.approved': { category: 'account', to: ['account'], screen: 'approval' },
  'account.rejected': { category: 'account', to: ['account'], screen: 'approval' },
  'account.suspended': { category: 'account', to: ['account'], screen: 'approval' },
  'team.member_joined': { category: 'account', to: ['account'], screen: 'team' },
  'subscription.renewed': { category: 'billing', to: ['account'], screen: 'billing' },
  'subscription.past_due': { category: 'billing', to: ['account'], screen: 'billing' },
  'subscription.expired': { category: 'billing', to: ['account'], screen: 'billing' },
};

/** Payload fields copied into `params` for the text (when present and a string or number). */
export const PARAM_FIELDS = [
  'priceSar',
  'amountSar',
  'step',
  'reason',
  'planId',
  'periodEnd',
  'stop',
  'distanceKm',
  'by',
  'name',
  'changePct',
  'currentAvgSar',
  'callType',
] as const;

/** The path prefix of each account type's screens (apps/web routes.tsx). */
const ROLE_BASE: Record<AccountType, string> = { [ACCOUNT_TYPE.shipper]: '/shippers', [ACCOUNT_TYPE.carrier]: '/carriers', [ACCOUNT_TYPE.broker]: '/brokers' };

/**
 * The path a notification opens for a user whose account (the owner's, for a team member) is of
 * `accountType`: e.g. `/shippers/loads/<loadId>` (the load with its offers for the owner, the bid
 * for a carrier), `/carriers/loads/<id>/track`, `/brokers/tendering-shipment`.
 */
export function linkFor(screen: Screen, accountType: AccountType, loadId: string | null): string {
  const base = ROLE_BASE[accountType] ?? '/shippers';
  switch (screen) {
    case 'load':
      return loadId ? `${base}/loads/${loadId}` : myLoads(accountType);
    case 'track':
      return loadId ? `${base}/loads/${loadId}/track` : myLoads(accountType);
    case 'tenders':
      return `${base}/tendering-shipment`;
    case 'rateAlerts':
      return `${base}/rate-change-alerts`;
    case 'approval':
      return `${base}/profile-approval`;
    case 'team':
      return `${base}/account/team`;
    case 'billing':
      return `${base}/billing-and-invoice`;
  }
}

/** The shipments list of a role (carriers call it "my shipments"). */
const myLoads = (t: AccountType) => (t === ACCOUNT_TYPE.carrier ? '/carriers/my-shipments' : `${ROLE_BASE[t] ?? '/shippers'}/my-loads`);
