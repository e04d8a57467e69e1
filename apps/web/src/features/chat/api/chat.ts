import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OpenConversationInput } from '@masar/shared';
import { idempotent, masar, unwrap } from '../../../lib/api';

/**
 * Chat about a load (issue 21; /api/v1/chat/…). Every key starts with 'chat': the real-time
 * bridge re-reads them when a `conversation` event arrives (a new message, a read receipt).
 */
export const CHAT_KEY = ['chat'] as const;
const newKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/** The header's count of unread messages. */
export function useChatUnread(enabled = true) {
  return useQuery({
    queryKey: [...CHAT_KEY, 'unread'],
    queryFn: () => unwrap(masar.GET('/api/v1/chat/unread')),
    enabled,
    refetchOnWindowFocus: true,
  });
}

/** My conversations, latest message first, pages of 20. */
export function useConversations(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...CHAT_KEY, 'conversations'],
    queryFn: ({ pageParam }) => unwrap(masar.GET('/api/v1/chat/conversations', { params: { query: { limit: 20, cursor: pageParam } } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

export function useConversation(id: string) {
  return useQuery({
    queryKey: [...CHAT_KEY, 'conversation', id],
    queryFn: () => unwrap(masar.GET('/api/v1/chat/conversations/{id}', { params: { path: { id } } })),
  });
}

/** A conversation's messages: pages newest first (the thread shows them oldest first). */
export function useMessages(id: string) {
  return useInfiniteQuery({
    queryKey: [...CHAT_KEY, 'messages', id],
    queryFn: ({ pageParam }) =>
      unwrap(masar.GET('/api/v1/chat/conversations/{id}/messages', { params: { path: { id }, query: { limit: 30, cursor: pageParam } } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Open (or find) the conversation about a load with a counterpart. */
export function useOpenConversation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: OpenConversationInput) => unwrap(masar.POST('/api/v1/chat/conversations', { body, headers: idempotent(newKey()) })),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...CHAT_KEY, 'conversations'] }),
  });
}

/** Send a message (one Idempotency-Key per message: a retry stores it once). */
export function useSendMessage(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: string; key: string }) =>
      unwrap(masar.POST('/api/v1/chat/conversations/{id}/messages', { params: { path: { id } }, body: { body }, headers: idempotent(key) })),
    onSuccess: () => qc.invalidateQueries({ queryKey: CHAT_KEY }),
  });
}
export { newKey as newMessageKey };

/** I have read up to a message (the other side's ticks turn to "read"). */
export function useMarkChatRead(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (messageId: string) => unwrap(masar.POST('/api/v1/chat/conversations/{id}/read', { params: { path: { id } }, body: { messageId } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: [...CHAT_KEY, 'unread'] });
      void qc.invalidateQueries({ queryKey: [...CHAT_KEY, 'conversations'] });
    },
  });
}
