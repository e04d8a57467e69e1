import * as repo from '../chat.repository.ts';
import type { Side } from '../chat.shared.ts';
import type { ChatDeps } from '../deps.ts';

export type TypingAccessDeps = Pick<ChatDeps, 'db' | 'relations'>;

/**
 * May `actor` follow (subscribe to) or signal on (publish to) a conversation's typing topic
 * (issue 21; docs/realtime.md)? Asked by the real-time broker on every subscription and every
 * signal, never cached, so a block or a new chat setting counts on the next one.
 * - null: the actor's account is not a party (or no such conversation);
 * - 'refused': a party that may not now — a block either way (follow and signal), or, to
 *   signal, what refuses sending: the other side's chat setting, a team role that may not send;
 * - else the side and account the broker stamps on the signal.
 */
export async function typingAccess(
  { db, relations }: TypingAccessDeps,
  actor: { accountId: string; maySend: boolean },
  conversationId: string,
  act: 'follow' | 'signal',
): Promise<{ side: Side; accountId: string } | 'refused' | null> {
  const p = await repo.conversationParties(db, conversationId);
  const side: Side | null = !p ? null : p.shipper_id === actor.accountId ? 'shipper' : p.carrier_id === actor.accountId ? 'carrier' : null;
  if (!p || !side) return null;
  const reach = await relations.reach('chat', side === 'shipper' ? p.carrier_id : p.shipper_id, actor.accountId, true);
  if (reach === 'blocked') return 'refused';
  if (act === 'signal' && (reach === 'refused' || !actor.maySend)) return 'refused';
  return { side, accountId: actor.accountId };
}
