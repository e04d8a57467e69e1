import type { Conversation } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { mine, withLast } from '../chat.shared.ts';
import type { ChatDeps } from '../deps.ts';

export type GetConversationDeps = Pick<ChatDeps, 'db' | 'relations' | 'presence'>;

/**
 * GET /chat/conversations/:id (NOT_FOUND unless I am a side of it), with the other side's
 * presence (`otherSide`: online now, last seen); hidden (offline, never seen) while a block
 * stands either way, as its presence topic is.
 */
export async function getConversation({ db, relations, presence }: GetConversationDeps, user: CurrentUser, id: string): Promise<Conversation> {
  const { c, side } = await mine(db, user, id);
  const other = side === 'shipper' ? c.carrier_id : c.shipper_id;
  const [conversation, reach] = await Promise.all([withLast(db, [c], user.id).then((r) => r[0]), relations.reach('chat', other, user.id, true)]);
  const hidden = reach === 'blocked' || !presence;
  const otherSide = hidden ? { online: false, lastSeenAt: null } : await presence.of(other);
  return { ...conversation, otherSide };
}
