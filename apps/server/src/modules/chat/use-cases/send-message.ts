import type { ChatMessage, SendMessageInput } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import * as repo from '../chat.repository.ts';
import { mayMessage, mine, theirReadSeq, toMessage } from '../chat.shared.ts';
import type { ChatDeps } from '../deps.ts';

export type SendMessageDeps = Pick<ChatDeps, 'db' | 'relations' | 'files'>;

/**
 * POST /chat/conversations/:id/messages: store the message and publish `chat.message_sent` in
 * one transaction. Blocks and the other side's chat setting are checked again. An attachment
 * must be a `chat-attachment` file of my account not on any message yet
 * (CHAT_ATTACHMENT_UNAVAILABLE otherwise, also when two sends of it race).
 */
export async function sendMessage(deps: SendMessageDeps, user: CurrentUser, id: string, input: SendMessageInput): Promise<ChatMessage> {
  const { c, side } = await mine(deps.db, user, id);
  await mayMessage(deps, user.id, side === 'shipper' ? c.carrier_id : c.shipper_id);
  return deps.db.transaction(async (tx) => {
    const file = input.attachmentId ? await deps.files.ownedChatAttachment(tx, user.id, input.attachmentId) : null;
    const messageId = newId();
    const seq = await repo.takeSeq(tx, id, messageId, side);
    const inserted = await repo.insertMessage(tx, {
      id: messageId,
      conversationId: id,
      seq,
      senderId: user.id,
      authorId: user.actorId ?? user.id,
      body: input.body,
      attachmentId: file?.id ?? null,
    });
    // already on a message: throwing rolls back the seq taken above
    if (!inserted) throw new AppError('CHAT_ATTACHMENT_UNAVAILABLE');
    const m: repo.MessageRow = {
      ...inserted,
      attachment_name: file?.name ?? null,
      attachment_mime: file?.mime ?? null,
      attachment_size: file?.size ?? null,
    };
    await publish(tx, {
      type: 'chat.message_sent',
      aggregateType: 'conversation',
      aggregateId: id,
      actorId: user.actorId ?? user.id,
      data: {
        conversationId: id,
        messageId,
        seq,
        loadId: c.load_id,
        referenceId: c.reference_id,
        shipperId: c.shipper_id,
        carrierId: c.carrier_id,
        by: side,
        // what the notification may say about it; never the bytes or a link
        attachment: file ? { name: file.name, mime: file.mime, size: file.size } : null,
      },
    });
    return toMessage(m, user.id, theirReadSeq(c, side));
  });
}
