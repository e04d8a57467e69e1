import type { ReadState } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import * as repo from '../chat.repository.ts';
import { mine } from '../chat.shared.ts';
import type { ChatDeps } from '../deps.ts';

export type MarkReadDeps = Pick<ChatDeps, 'db'>;

/**
 * POST /chat/conversations/:id/read: I have read up to this message (never moves back). When
 * the position moves, `chat.read` is published in the same transaction, so the other side's
 * ticks turn to "read" live. NOT_FOUND when the message is not in the conversation.
 */
export async function markRead({ db }: MarkReadDeps, user: CurrentUser, id: string, messageId: string): Promise<ReadState> {
  const { c, side } = await mine(db, user, id);
  const seq = await repo.messageSeq(db, id, messageId);
  if (seq === null) throw new AppError('NOT_FOUND');
  return db.transaction(async (tx) => {
    const moved = await repo.markRead(tx, id, side, seq);
    if (moved) {
      await publish(tx, {
        type: 'chat.read',
        aggregateType: 'conversation',
        aggregateId: id,
        actorId: user.actorId ?? user.id,
        data: {
          conversationId: id,
          seq: moved.read,
          loadId: c.load_id,
          referenceId: c.reference_id,
          shipperId: c.shipper_id,
          carrierId: c.carrier_id,
          by: side,
        },
      });
      return { conversationId: id, readSeq: moved.read, unread: Math.max(0, moved.last - moved.read) };
    }
    const now = (await repo.conversationById(tx, id))!;
    const read = Number(side === 'shipper' ? now.shipper_read_seq : now.carrier_read_seq);
    return { conversationId: id, readSeq: read, unread: Math.max(0, Number(now.last_seq) - read) };
  });
}
