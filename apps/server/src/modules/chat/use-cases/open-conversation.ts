import type { Conversation, OpenConversationInput } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../chat.repository.ts';
import { carrierSideOf, mayMessage, withLast } from '../chat.shared.ts';
import type { ChatDeps } from '../deps.ts';

export type OpenConversationDeps = Pick<ChatDeps, 'db' | 'loads' | 'offers' | 'tenders' | 'relations'>;

/**
 * POST /chat/conversations: the conversation about a load with a counterpart, created on first
 * open (racing opens find one row). The load's owner names the carrier (`counterpartId`); a
 * carrier side talks to the owner. NOT_FOUND when the load is gone or the two are not its
 * parties; USER_BLOCKED, CHAT_NOT_ALLOWED per the other side's settings.
 */
export async function openConversation(deps: OpenConversationDeps, user: CurrentUser, input: OpenConversationInput): Promise<Conversation> {
  const { db } = deps;
  const load = await deps.loads.stateForOffer(db, input.loadId, 'none');
  if (!load || load.deleted) throw new AppError('NOT_FOUND');
  let shipperId: string;
  let carrierId: string;
  if (load.shipper_id === user.id) {
    if (!input.counterpartId || input.counterpartId === user.id) throw new AppError('NOT_FOUND');
    shipperId = user.id;
    carrierId = input.counterpartId;
  } else {
    if (input.counterpartId && input.counterpartId !== load.shipper_id) throw new AppError('NOT_FOUND');
    shipperId = load.shipper_id;
    carrierId = user.id;
  }
  const existing = await repo.conversationByParties(db, input.loadId, shipperId, carrierId);
  if (!existing && !(await carrierSideOf(deps, load, input.loadId, carrierId))) throw new AppError('NOT_FOUND');
  await mayMessage(deps, user.id, user.id === shipperId ? carrierId : shipperId);
  if (!existing) await repo.insertConversation(db, newId(), input.loadId, shipperId, carrierId);
  const c = existing ?? (await repo.conversationByParties(db, input.loadId, shipperId, carrierId));
  return (await withLast(db, [c!], user.id))[0];
}
