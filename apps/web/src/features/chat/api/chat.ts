import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { CHAT_ATTACHMENT_MIME_TYPES, LIMITS, type ChatAttachment, type OpenConversationInput } from '@masar/shared';
import { downloadFile, uploadFile } from '../../../components/transfer';
import { idempotent, masar, unwrap, unwrapResponse } from '../../../lib/api';

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

/** Send a message (one Idempotency-Key per message: a retry stores it once), with an uploaded attachment's id. */
export function useSendMessage(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key, attachmentId }: { body: string; key: string; attachmentId?: string }) =>
      unwrap(
        masar.POST('/api/v1/chat/conversations/{id}/messages', {
          params: { path: { id } },
          body: attachmentId ? { body, attachmentId } : { body },
          headers: idempotent(key),
        }),
      ),
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

/** What the file picker offers; the server decides by the file's bytes. */
export const CHAT_ATTACHMENT_ACCEPT = CHAT_ATTACHMENT_MIME_TYPES.join(',');
/** The attachment limit in MB (a number, so the hint takes the reader's digits). */
export const CHAT_ATTACHMENT_MAX_MB = LIMITS.documentMaxBytes / 1024 / 1024;
const ATTACH_EXT = /\.(pdf|jpe?g|png|webp)$/i;

/**
 * Client-side check before uploading a chat attachment (an image or a PDF, at most 5 MB); the
 * server checks again by magic bytes. Returns an error kind or null.
 */
export function checkChatAttachment(file: File): 'type' | 'size' | null {
  if (!(CHAT_ATTACHMENT_MIME_TYPES as readonly string[]).includes(file.type) && !ATTACH_EXT.test(file.name)) return 'type';
  if (file.size > LIMITS.documentMaxBytes) return 'size';
  return null;
}

/** Upload a chat attachment (POST /files, purpose chat-attachment); its id goes with the message. */
export function useUploadChatAttachment() {
  return useMutation({ mutationFn: (file: File) => uploadFile(file, 'chat-attachment') });
}

const attachmentCall = (a: Pick<ChatAttachment, 'id'>, conversationId: string) =>
  masar.GET('/api/v1/chat/conversations/{id}/attachments/{fileId}', { params: { path: { id: conversationId, fileId: a.id } }, parseAs: 'blob' });

/** Save an attachment under its file name (the request carries the session, so a plain link would not do). */
export const downloadAttachment = (a: ChatAttachment, conversationId: string) => downloadFile(attachmentCall(a, conversationId), a.name ?? a.id);

/**
 * An object URL of an image attachment for a thumbnail (fetched with the session's token),
 * revoked when the bubble goes; null until loaded or when it cannot be read.
 */
export function useAttachmentImage(a: ChatAttachment | null, conversationId: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  const id = a && a.mime.startsWith('image/') ? a.id : null;
  useEffect(() => {
    if (!id || typeof URL.createObjectURL !== 'function') return;
    let made: string | null = null;
    let live = true;
    unwrapResponse(attachmentCall({ id }, conversationId))
      .then(({ data }) => {
        if (!live || !(data instanceof Blob)) return;
        made = URL.createObjectURL(data);
        setUrl(made);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [id, conversationId]);
  return url;
}
