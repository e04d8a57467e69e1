import * as repo from '../chat.repository.ts';
import type { Side } from '../chat.shared.ts';
import type { ChatDeps } from '../deps.ts';

export type PresenceAccessDeps = Pick<ChatDeps, 'db' | 'relations'>;

/**
 * May `accountId` (a team member: its owner) follow the presence of a conversation's other
 * side (issue 21; docs/realtime.md "Presence")? The rule of following typing: the two parties,
 * not while a block stands either way. Asked by the broker on every follow and before every
 * presence message, never cached.
 * - null: not a party (or no such conversation); 'refused': a block;
 * - else the other side and its account (whose presence the follower hears).
 */
export async function presenceAccess(
  { db, relations }: PresenceAccessDeps,
  accountId: string,
  conversationId: string,
): Promise<{ side: Side; accountId: string } | 'refused' | null> {
  const p = await repo.conversationParties(db, conversationId);
  if (!p || (p.shipper_id !== accountId && p.carrier_id !== accountId)) return null;
  const other = p.shipper_id === accountId ? { side: 'carrier' as const, accountId: p.carrier_id } : { side: 'shipper' as const, accountId: p.shipper_id };
  if ((await relations.reach('chat', other.accountId, accountId, true)) === 'blocked') return 'refused';
  return other;
}
