import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  attachmentParams,
  chatCredentialsQuery,
  chatCredentialsSchema,
  chatMessageSchema,
  chatUnreadSchema,
  conversationListQuery,
  conversationListResponse,
  conversationParams,
  conversationSchema,
  envelope,
  markReadInput,
  message,
  messageListQuery,
  messageListResponse,
  openConversationInput,
  readStateSchema,
  sendMessageInput,
  CHAT_MESSAGE_MAX,
} from '@masar/shared';
import { AppError } from '../../lib/errors.ts';
import { extensionOf } from '../../lib/upload.ts';

/**
 * Chat about a load (issue 21 "Chat"; spec §1, §3, §7 GET /account/isometricUserId). Signed-in
 * users only; every answer is about a conversation I am a side of.
 */
export default async function chatRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.chat;
  const config = { auth: 'user' as const, sessionOnly: true };
  const tags = ['chat'];

  app.post(
    '/chat/conversations',
    {
      config: { ...config, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Open (or find) the conversation about a load with a counterpart',
        description:
          'The load’s owner (shipper or broker) names the carrier in `counterpartId`; a carrier or broker with an offer, a tender invite or the booking on the load talks to the owner (`counterpartId` omitted). One conversation per (load, owner, carrier): opening it again answers the same one. NOT_FOUND (404) when the load is gone or the two are not its parties; USER_BLOCKED (403) when either blocked the other; CHAT_NOT_ALLOWED (403) when the other side’s chat setting leaves me out.',
        body: openConversationInput,
        response: { 201: envelope(conversationSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('common.ok', req.lang), data: await svc.open(app.requireUser(req), req.body) }),
  );
  app.get(
    '/chat/conversations',
    {
      config,
      schema: {
        tags,
        summary: 'My conversations, latest message first',
        description:
          'Keyset pages: pass `nextCursor` as `cursor` (VALIDATION_FAILED on `cursor` for a forged one). Each with its last message and my unread count.',
        querystring: conversationListQuery,
        response: { 200: envelope(conversationListResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.list(app.requireUser(req), req.query) }),
  );
  app.get(
    '/chat/conversations/:id',
    { config, schema: { tags, summary: 'One of my conversations', params: conversationParams, response: { 200: envelope(conversationSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.get(app.requireUser(req), req.params.id) }),
  );
  app.get(
    '/chat/conversations/:id/messages',
    {
      config,
      schema: {
        tags,
        summary: 'A conversation’s messages, newest first',
        description: 'Pages by `cursor` (the previous page’s nextCursor). My messages carry `read` (the other side has read them).',
        params: conversationParams,
        querystring: messageListQuery,
        response: { 200: envelope(messageListResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.messages(app.requireUser(req), req.params.id, req.query) }),
  );
  app.post(
    '/chat/conversations/:id/messages',
    {
      config: { ...config, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Send a message',
        description: `Up to ${CHAT_MESSAGE_MAX} characters. Send an Idempotency-Key: a retry answers the same message. Stored, then announced to both sides over MQTT (chat.message_sent, with the attachment’s name, type and size). USER_BLOCKED / CHAT_NOT_ALLOWED (403) as when opening. One attachment: upload it first with POST /files (purpose \`chat-attachment\`: JPEG, PNG, WebP or PDF by magic bytes, at most 5 MB) and pass its id as \`attachmentId\`; the text may then be empty. CHAT_ATTACHMENT_UNAVAILABLE (409) when the file is not my chat-attachment upload or was already sent.`,
        params: conversationParams,
        body: sendMessageInput,
        response: { 201: envelope(chatMessageSchema) },
      },
    },
    async (req, reply) =>
      reply.status(201).send({ message: message('common.ok', req.lang), data: await svc.send(app.requireUser(req), req.params.id, req.body) }),
  );
  app.get(
    '/chat/conversations/:id/attachments/:fileId',
    {
      config,
      schema: {
        tags,
        summary: 'Download a message’s attachment',
        description:
          'The bytes of a file sent in this conversation, for its two sides only (NOT_FOUND for anyone else, and for a file not sent here). Served with its sniffed type, `nosniff`, and as an attachment unless it is an image.',
        params: attachmentParams,
      },
    },
    async (req, reply) => {
      const { row, stream } = await svc.attachment(app.requireUser(req), req.params.id, req.params.fileId);
      const name = row.name ?? `${row.id}.${extensionOf(row.mime)}`;
      // a PDF opens as a download (never inline on our origin); images may show inline
      const disposition = row.mime.startsWith('image/') ? 'inline' : 'attachment';
      return reply
        .header('content-type', row.mime)
        .header('content-length', row.size)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `${disposition}; filename="${row.id}.${extensionOf(row.mime)}"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .send(stream);
    },
  );
  app.post(
    '/chat/conversations/:id/read',
    {
      config,
      schema: {
        tags,
        summary: 'Mark the conversation read up to a message',
        description: 'Never moves back. The other side sees my read position (read receipts; chat.read over MQTT).',
        params: conversationParams,
        body: markReadInput,
        response: { 200: envelope(readStateSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.markRead(app.requireUser(req), req.params.id, req.body.messageId) }),
  );
  app.get(
    '/chat/unread',
    { config, schema: { tags, summary: 'My unread messages (the header count)', response: { 200: envelope(chatUnreadSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.unread(app.requireUser(req)) }),
  );
  app.get(
    '/account/isometricUserId',
    {
      config,
      schema: {
        tags: ['account'],
        summary: 'My chat credentials',
        description:
          'Spec §3 chat credentials as this product fills them: its own chat over its own MQTT broker (no third party). `userId` may only name myself (NOT_FOUND otherwise); appSecret and userToken are null — the MQTT connection signs in with the access token.',
        querystring: chatCredentialsQuery,
        response: { 200: envelope(chatCredentialsSchema) },
      },
    },
    async (req) => {
      const user = app.requireUser(req);
      if (req.query.userId && req.query.userId !== user.id) throw new AppError('NOT_FOUND');
      return { message: message('common.ok', req.lang), data: svc.credentials(user) };
    },
  );
}
