import { DOMAIN_EVENT_TYPES } from '../events.ts';
import { describe, expect, it } from 'vitest';
import {
  LOAD_ACTIONS,
  LOAD_ACTION_EVENT,
  OFFER_ACTION_EVENT,
  LOAD_STATUSES,
  LOAD_TRANSITIONS,
  OFFER_STATUSES,
  OFFER_TRANSITION_ACTIONS,
  OFFER_TRANSITIONS,
  loadActionsFrom,
  loadOptionsFor,
  loadTransition,
  offerTransition,
} from './lifecycle.ts';

// The table the spec (§4) and issue 7 describe, written out pair by pair: every (status, action)
// not listed here must be refused.
const ALLOWED: Record<string, string> = {
  'unposted|post': 'posted',
  'posted|unpost': 'unposted',
  'posted|repost': 'posted',
  'unposted|repost': 'posted',
  'expired|repost': 'posted',
  'posted|expire': 'expired',
  'posted|book': 'unassigned',
  'unposted|book': 'unassigned',
  'unassigned|assign': 'assigned',
  'assigned|unassign': 'unassigned',
  'pending_bayan|unassign': 'unassigned',
  'assigned|bayan_requested': 'pending_bayan',
  'pending_bayan|bayan_created': 'assigned',
  'assigned|bayan_closed': 'completed',
  'assigned|complete': 'completed',
  'assigned|bayan_cancelled': 'cancelled',
  'pending_bayan|bayan_cancelled': 'cancelled',
  'posted|cancel': 'cancelled',
  'unposted|cancel': 'cancelled',
  'expired|cancel': 'cancelled',
  'unassigned|cancel': 'cancelled',
};

describe('load state machine (spec §4)', () => {
  for (const from of LOAD_STATUSES)
    for (const action of LOAD_ACTIONS) {
      const expected = ALLOWED[`${from}|${action}`] ?? null;
      it(`${from} --${action}--> ${expected ?? 'refused'}`, () => {
        expect(loadTransition(from, action)).toBe(expected);
      });
    }

  it('completed and cancelled are final', () => {
    expect(loadActionsFrom('completed')).toEqual([]);
    expect(loadActionsFrom('cancelled')).toEqual([]);
  });

  it('every transition in the table leads to a known status and is listed once per (from, action)', () => {
    const seen = new Set<string>();
    for (const t of LOAD_TRANSITIONS)
      for (const f of t.from) {
        expect(seen.has(`${f}|${t.action}`)).toBe(false);
        seen.add(`${f}|${t.action}`);
        expect(LOAD_STATUSES).toContain(t.to);
      }
    expect(seen.size).toBe(Object.keys(ALLOWED).length);
  });
});

describe('offer state machine', () => {
  const OFFER_ALLOWED: Record<string, string> = {
    'pending|counter': 'pending',
    'pending|accept': 'accepted',
    'pending|reject': 'rejected',
    'pending|withdraw': 'withdrawn',
    'pending|close': 'closed',
    'accepted|cancel': 'cancelled',
  };
  for (const from of OFFER_STATUSES)
    for (const action of OFFER_TRANSITION_ACTIONS) {
      const expected = OFFER_ALLOWED[`${from}|${action}`] ?? null;
      it(`${from} --${action}--> ${expected ?? 'refused'}`, () => expect(offerTransition(from, action)).toBe(expected));
    }
  it('lists each transition once', () => expect(OFFER_TRANSITIONS.flatMap((t) => t.from.map((f) => `${f}|${t.action}`)).length).toBe(6));
});

describe('More Options (loadOptionsFor)', () => {
  const base = { hasBayan: false, bayanRequired: true, delivered: false, paymentReceived: false } as const;
  it('offers the owner of a posted shipment edit, unpost, duplicate and cancel, and nothing of the trip', () => {
    expect(loadOptionsFor({ ...base, status: 'posted', role: 'owner' })).toEqual(['edit', 'extend_dates', 'unpost', 'duplicate', 'cancel']);
  });
  it('offers the awarded carrier assignment, then Bayan, then close or cancel of the Bayan', () => {
    expect(loadOptionsFor({ ...base, status: 'unassigned', role: 'carrier' })).toEqual(['assign']);
    expect(loadOptionsFor({ ...base, status: 'assigned', role: 'carrier' })).toEqual(['unassign', 'create_bayan', 'track']);
    expect(loadOptionsFor({ ...base, status: 'assigned', role: 'carrier', hasBayan: true, delivered: true })).toEqual(['close_bayan', 'cancel_bayan', 'track']);
  });
  it('offers close Bayan after the driver delivered; before, only to the shipper (override with a reason)', () => {
    expect(loadOptionsFor({ ...base, status: 'assigned', role: 'carrier', hasBayan: true })).toEqual(['cancel_bayan', 'track']);
    expect(loadOptionsFor({ ...base, status: 'assigned', role: 'owner', hasBayan: true })).toContain('close_bayan');
    expect(loadOptionsFor({ ...base, status: 'assigned', role: 'owner', hasBayan: true, delivered: true })).toContain('close_bayan');
  });
  it('lets a shipment under 3.5 t complete without Bayan once delivered', () => {
    expect(loadOptionsFor({ ...base, status: 'assigned', role: 'carrier', bayanRequired: false, delivered: true })).toContain('complete');
    expect(loadOptionsFor({ ...base, status: 'assigned', role: 'carrier', bayanRequired: true, delivered: true })).not.toContain('complete');
  });
  it('gives a stranger nothing and a completed shipment only tracking and payment', () => {
    expect(loadOptionsFor({ ...base, status: 'posted', role: 'other' })).toEqual([]);
    expect(loadOptionsFor({ ...base, status: 'completed', role: 'carrier' })).toEqual(['track', 'payment_received']);
  });
});

describe('the event of every action (issue 18: one transition() publishes it)', () => {
  it('every load and offer action names a domain event type', () => {
    for (const a of LOAD_ACTIONS) expect(DOMAIN_EVENT_TYPES).toContain(LOAD_ACTION_EVENT[a]);
    for (const a of OFFER_TRANSITION_ACTIONS) expect(DOMAIN_EVENT_TYPES).toContain(OFFER_ACTION_EVENT[a]);
  });
});
