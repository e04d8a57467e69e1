import type { ConversationListQuery, ConversationListResponse } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../chat.repository.ts';
import { afterCursor, cursorOf, withLast } from '../chat.shared.ts';
import type { ChatDeps } from '../deps.ts';

export type ListConversationsDeps = Pick<ChatDeps, 'db'>;

/** GET /chat/conversations: mine, latest message first, keyset-paged. */
export async function listConversations({ db }: ListConversationsDeps, user: CurrentUser, q: ConversationListQuery): Promise<ConversationListResponse> {
  const rows = await repo.conversationsOf(db, user.id, q.limit + 1, afterCursor(q.cursor));
  const page = rows.slice(0, q.limit);
  return { items: await withLast(db, page, user.id), nextCursor: rows.length > q.limit ? cursorOf(page[page.length - 1]) : null };
}
