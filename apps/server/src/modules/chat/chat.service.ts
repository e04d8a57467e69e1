import type { ChatUnread, ConversationListQuery, MessageListQuery, OpenConversationInput, SendMessageInput } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import * as repo from './chat.repository.ts';
import type { ChatDeps } from './deps.ts';
import { callParties } from './use-cases/call-parties.ts';
import { chatAttachment } from './use-cases/chat-attachment.ts';
import { chatCredentials } from './use-cases/chat-credentials.ts';
import { getConversation } from './use-cases/get-conversation.ts';
import { listConversations } from './use-cases/list-conversations.ts';
import { listMessages } from './use-cases/list-messages.ts';
import { markRead } from './use-cases/mark-read.ts';
import { openConversation } from './use-cases/open-conversation.ts';
import { presenceAccess } from './use-cases/presence-access.ts';
import { recordCallLine, type CallLine } from './use-cases/record-call-line.ts';
import { sendMessage } from './use-cases/send-message.ts';
import { typingAccess } from './use-cases/typing-access.ts';

export type { ChatDeps, ChatLoads, ChatOffers, ChatPresence, ChatRelations, ChatTenders } from './deps.ts';
export type { CallLine } from './use-cases/record-call-line.ts';
export { chatAttachmentUrl } from './chat.shared.ts';

/**
 * Chat about a load (issue 21 "Chat"; spec §1, §3 chat credentials, §7 /account/isometricUserId;
 * docs/chat.md). One conversation per (load, owner side, carrier side); the carrier side is a
 * carrier or broker with an offer, a tender invite or the booking on the load. Blocks (either
 * way) and the other side's `chat` contact setting are checked when a conversation is opened and
 * on every message (the two share the load, so `counterparts` lets them in).
 *
 * A message is stored and `chat.message_sent` published in one transaction; the realtime handler
 * then tells both sides' profile topics, and the notifications handler the other side.
 * Unread counts are `last_seq - <side>_read_seq` of the conversation row (no scan); sending reads
 * everything before one's own message; the other side's read position is the read receipt.
 * One use case per file in use-cases/; this factory wires them.
 */
export function createChatService(deps: ChatDeps) {
  return {
    open: (user: CurrentUser, input: OpenConversationInput) => openConversation(deps, user, input),
    get: (user: CurrentUser, id: string) => getConversation(deps, user, id),
    list: (user: CurrentUser, q: ConversationListQuery) => listConversations(deps, user, q),
    messages: (user: CurrentUser, id: string, q: MessageListQuery) => listMessages(deps, user, id, q),
    send: (user: CurrentUser, id: string, input: SendMessageInput) => sendMessage(deps, user, id, input),
    markRead: (user: CurrentUser, id: string, messageId: string) => markRead(deps, user, id, messageId),
    typingAccess: (actor: { accountId: string; maySend: boolean }, conversationId: string, act: 'follow' | 'signal') =>
      typingAccess(deps, actor, conversationId, act),
    presenceAccess: (accountId: string, conversationId: string) => presenceAccess(deps, accountId, conversationId),
    attachment: (user: CurrentUser, id: string, fileId: string) => chatAttachment(deps, user, id, fileId),
    callParties: (id: string) => callParties(deps, id),
    /** A call's line in its conversation, in the calls module's ending transaction (issue 48). */
    recordCallLine: (tx: DbOrTx, line: CallLine) => recordCallLine(tx, line),
    /** GET /chat/unread: the header's count. */
    unread: (user: CurrentUser): Promise<ChatUnread> => repo.unreadOf(deps.db, user.id),
    credentials: (user: CurrentUser) => chatCredentials(user),
  };
}
export type ChatService = ReturnType<typeof createChatService>;
