import type { MessageListQuery, MessageListResponse } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../chat.repository.ts';
import { mine, theirReadSeq, toMessage } from '../chat.shared.ts';
import type { ChatDeps } from '../deps.ts';

export type ListMessagesDeps = Pick<ChatDeps, 'db'>;

/** GET /chat/conversations/:id/messages: newest first; `cursor` = the previous page's nextCursor (a seq). */
export async function listMessages({ db }: ListMessagesDeps, user: CurrentUser, id: string, q: MessageListQuery): Promise<MessageListResponse> {
  const { c, side } = await mine(db, user, id);
  const theirRead = theirReadSeq(c, side);
  const rows = await repo.messagesOf(db, id, q.limit + 1, q.cursor ? Number(q.cursor) : null);
  const page = rows.slice(0, q.limit);
  return {
    items: page.map((m) => toMessage(m, user.id, theirRead)),
    nextCursor: rows.length > q.limit ? String(page[page.length - 1].seq) : null,
    counterpartReadSeq: theirRead,
  };
}
