/**
 * The escrow state machine (issue 50 payment protection), one table like loads' and
 * subscriptions'. The server applies it in ONE place, apps/server/src/modules/escrow/lifecycle.ts
 * `transition()`: row lock, this table, a conditional update (`… where id = $id and status =
 * $from`), the action's event in the same transaction. A row's first status (`unfunded`) is
 * written by its insert.
 */
import type { EscrowStatus } from '../schemas/escrow.ts';
import type { Transition } from './lifecycle.ts';

export const ESCROW_ACTIONS = ['fund', 'schedule_release', 'release', 'dispute', 'settle', 'refund', 'cancel'] as const;
export type EscrowAction = (typeof ESCROW_ACTIONS)[number];

/** The domain event each action publishes (events.ts); null: none. */
export const ESCROW_ACTION_EVENT = {
  fund: 'payment.funded',
  schedule_release: null,
  release: 'payment.released',
  dispute: 'payment.disputed',
  settle: 'payment.settled',
  refund: 'payment.settled',
  cancel: null,
} as const satisfies Record<EscrowAction, string | null>;

export const ESCROW_TRANSITIONS: readonly Transition<EscrowStatus, EscrowAction>[] = [
  { action: 'fund', from: ['unfunded'], to: 'funded', by: 'booking handler (wallet covers it) or the shipper after a top-up' },
  { action: 'schedule_release', from: ['funded'], to: 'release_scheduled', by: 'load.completed handler (POD, and Bayan closed where required)' },
  { action: 'release', from: ['release_scheduled'], to: 'released', by: 'escrow.release job, once the dispute window is over' },
  { action: 'dispute', from: ['funded', 'release_scheduled'], to: 'disputed', by: 'shipper or booked carrier, before the release' },
  { action: 'settle', from: ['disputed'], to: 'settled', by: 'operator (admin CLI escrow-settle): full, partial, refund' },
  { action: 'refund', from: ['funded'], to: 'refunded', by: 'load.cancelled handler: back to the shipper’s wallet' },
  { action: 'cancel', from: ['unfunded'], to: 'cancelled', by: 'load.cancelled handler before funding' },
];

/** The status `action` leads an escrow to from `from`, or null when ESCROW_TRANSITIONS does not allow it. */
export function escrowTransition(from: EscrowStatus, action: EscrowAction): EscrowStatus | null {
  const t = ESCROW_TRANSITIONS.find((x) => x.action === action)!;
  return t.from.includes(from) ? t.to : null;
}
