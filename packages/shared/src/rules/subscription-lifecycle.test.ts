import { describe, expect, it } from 'vitest';
import { DOMAIN_EVENT_TYPES } from '../events.ts';
import { SUBSCRIPTION_STATUSES } from '../schemas/billing.ts';
import {
  SUBSCRIPTION_ACTION_EVENT,
  SUBSCRIPTION_ACTIONS,
  SUBSCRIPTION_TRANSITIONS,
  subscriptionStatusesAllowing,
  subscriptionTransition,
} from './subscription-lifecycle.ts';

// The table written out pair by pair: every (status, action) not listed here must be refused.
const ALLOWED: Record<string, string> = {
  'active renew': 'active',
  'past_due renew': 'active',
  'cancelled renew': 'active',
  'expired renew': 'active',
  'active renewal_failed': 'past_due',
  'past_due renewal_failed': 'past_due',
  'cancelled renewal_failed': 'past_due',
  'trialing cancel': 'cancelled',
  'active cancel': 'cancelled',
  'past_due cancel': 'cancelled',
  'cancelled cancel': 'cancelled',
  'trialing replace': 'cancelled',
  'active replace': 'cancelled',
  'past_due replace': 'cancelled',
  'cancelled replace': 'cancelled',
  'trialing expire': 'expired',
  'active expire': 'expired',
  'past_due expire': 'expired',
  'cancelled expire': 'expired',
};

describe('SUBSCRIPTION_TRANSITIONS', () => {
  it('allows exactly the listed pairs and refuses every other', () => {
    for (const from of SUBSCRIPTION_STATUSES)
      for (const action of SUBSCRIPTION_ACTIONS) expect(subscriptionTransition(from, action), `${from} ${action}`).toBe(ALLOWED[`${from} ${action}`] ?? null);
  });

  it('refuses the illegal moves: a trial is never renewed, an expired plan is not cancelled or expired again', () => {
    expect(subscriptionTransition('trialing', 'renew')).toBeNull();
    expect(subscriptionTransition('expired', 'cancel')).toBeNull();
    expect(subscriptionTransition('expired', 'expire')).toBeNull();
    expect(subscriptionTransition('trialing', 'renewal_failed')).toBeNull();
  });

  it('lists each action once, with statuses of SUBSCRIPTION_STATUSES, and an event that exists', () => {
    expect(SUBSCRIPTION_TRANSITIONS.map((t) => t.action).sort()).toEqual([...SUBSCRIPTION_ACTIONS].sort());
    for (const t of SUBSCRIPTION_TRANSITIONS) for (const s of [...t.from, t.to]) expect(SUBSCRIPTION_STATUSES).toContain(s);
    for (const e of Object.values(SUBSCRIPTION_ACTION_EVENT)) if (e) expect(DOMAIN_EVENT_TYPES).toContain(e);
    expect(subscriptionStatusesAllowing('expire')).toEqual(['trialing', 'active', 'past_due', 'cancelled']);
  });
});
