import { z } from 'zod';

/**
 * Chat about a load (issue 21 "Chat"; spec §1 in-app chat, §3 chat credentials, §7
 * GET /account/isometricUserId). A conversation is between a load's owner (shipper or broker)
 * and one carrier side (a carrier or broker with an offer, a tender invite or the booking on it).
 * Messages are stored first, then announced over MQTT (`chat.message_sent`); clients re-read
 * them from these endpoints.
 */

/** The longest message body (characters). */
export const CHAT_MESSAGE_MAX = 2000;

/** POST /chat/conversations: open (or find) the conversation about a load with a counterpart. */
export const openConversationInput = z.object({
  loadId: z.uuid(),
  /** The other side: the carrier, for the load's owner; omitted (or the owner) for a carrier. */
  counterpartId: z.uuid().optional(),
});
export type OpenConversationInput = z.infer<typeof openConversationInput>;

/**
 * What a chat attachment may be (issue 21): an image (JPEG, PNG, WebP) or a PDF, typed by its
 * magic bytes (never its name or content-type), at most LIMITS.documentMaxBytes (5 MB). Uploaded
 * through POST /files with purpose `chat-attachment`, then sent once by its uploader.
 */
export const CHAT_ATTACHMENT_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;

/**
 * A message's attachment. `url` is GET /api/v1/chat/conversations/:id/attachments/:fileId (the
 * two sides only); `name` the uploader's file name (sanitised), `size` bytes, `mime` from the bytes.
 */
export const chatAttachmentSchema = z.object({
  id: z.uuid(),
  name: z.string().nullable(),
  mime: z.enum(CHAT_ATTACHMENT_MIME_TYPES),
  size: z.number().int(),
  url: z.string(),
});
export type ChatAttachment = z.infer<typeof chatAttachmentSchema>;

/** How a call ended, as its line in the conversation says (issue 48; docs/calls.md). */
export const CALL_LINE_OUTCOMES = ['missed', 'declined', 'ended'] as const;
export type CallLineOutcome = (typeof CALL_LINE_OUTCOMES)[number];

/**
 * A call's line in its conversation (issue 48): the call, its type, how it ended — `missed`
 * (the caller hung up while it rang, or nobody answered in CALL_RING_SECONDS), `declined` (the
 * called side refused it), `ended` (answered, then hung up) — and for `ended` its length in
 * seconds (answer to hang-up, the database's clock). The message's sender is the caller's account,
 * so `mine` says I called. The text is the reader's to write (language and digits).
 */
export const chatCallLineSchema = z.object({
  callId: z.uuid(),
  type: z.enum(['AudioCall', 'VideoCall']),
  outcome: z.enum(CALL_LINE_OUTCOMES),
  durationSeconds: z.number().int().min(0).nullable(),
});
export type ChatCallLine = z.infer<typeof chatCallLineSchema>;

export const chatMessageSchema = z.object({
  id: z.uuid(),
  conversationId: z.uuid(),
  /** Position in the conversation (1, 2, …). */
  seq: z.number().int(),
  /** The side's account that sent it. */
  senderId: z.uuid(),
  /** I (my account) sent it. */
  mine: z.boolean(),
  /** Empty when the message is only an attachment, or a call's line. */
  body: z.string(),
  attachmentId: z.uuid().nullable(),
  attachment: chatAttachmentSchema.nullable(),
  createdAt: z.string(),
  /** For my messages: the other side has read it (read receipt). Null for theirs. */
  read: z.boolean().nullable(),
  /** A call's line (issue 48): set instead of a body; null for a written message. */
  call: chatCallLineSchema.nullable(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const conversationSchema = z.object({
  id: z.uuid(),
  loadId: z.uuid(),
  /** The load's human reference, e.g. "SHP-24-000123". */
  referenceId: z.string(),
  shipperId: z.uuid(),
  carrierId: z.uuid(),
  /** My side of it. */
  side: z.enum(['shipper', 'carrier']),
  /** The other side. */
  counterpart: z.object({ userId: z.uuid(), companyName: z.string() }),
  lastMessage: chatMessageSchema.nullable(),
  lastAt: z.string(),
  /** Messages of the other side I have not read. */
  unread: z.number().int(),
  /** The seq the other side has read up to (my messages up to it show "read"). */
  counterpartReadSeq: z.number().int(),
  createdAt: z.string(),
  /**
   * The other side's presence (docs/chat.md "Presence"), on GET /chat/conversations/:id only:
   * `online` when any of its users has a live real-time connection; `lastSeenAt` (ISO) when it
   * was last seen connected, null when never. Both false/null while a block stands either way.
   */
  otherSide: z.object({ online: z.boolean(), lastSeenAt: z.string().nullable() }).optional(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationParams = z.object({ id: z.uuid() });

/** GET /chat/conversations: keyset pages, latest message first. */
export const conversationListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(20),
  cursor: z.string().max(200).optional(),
});
export type ConversationListQuery = z.infer<typeof conversationListQuery>;
export const conversationListResponse = z.object({
  items: z.array(conversationSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ConversationListResponse = z.infer<typeof conversationListResponse>;

/** GET /chat/conversations/:id/messages: newest first; `before` a seq (the previous page's nextCursor). */
export const messageListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(30),
  cursor: z
    .string()
    .regex(/^\d{1,9}$/)
    .optional(),
});
export type MessageListQuery = z.infer<typeof messageListQuery>;
export const messageListResponse = z.object({
  items: z.array(chatMessageSchema),
  nextCursor: z.string().nullable(),
  /** The seq the other side has read up to. */
  counterpartReadSeq: z.number().int(),
});
export type MessageListResponse = z.infer<typeof messageListResponse>;

/**
 * POST /chat/conversations/:id/messages (Idempotency-Key). `attachmentId`: a file I uploaded
 * (POST /files, purpose `chat-attachment`) and have not sent before; the text may then be empty.
 */
export const sendMessageInput = z
  .object({
    body: z.string().trim().max(CHAT_MESSAGE_MAX).default(''),
    attachmentId: z.uuid().optional(),
  })
  .refine((m) => m.body.length > 0 || m.attachmentId !== undefined, { path: ['body'], error: 'v.required' });
export type SendMessageInput = z.infer<typeof sendMessageInput>;

export const attachmentParams = z.object({ id: z.uuid(), fileId: z.uuid() });

/** POST /chat/conversations/:id/read: I have read up to this message (and everything before it). */
export const markReadInput = z.object({ messageId: z.uuid() });
export type MarkReadInput = z.infer<typeof markReadInput>;
export const readStateSchema = z.object({ conversationId: z.uuid(), readSeq: z.number().int(), unread: z.number().int() });
export type ReadState = z.infer<typeof readStateSchema>;

/** GET /chat/unread: the header's count. */
export const chatUnreadSchema = z.object({ unread: z.number().int(), conversations: z.number().int() });
export type ChatUnread = z.infer<typeof chatUnreadSchema>;

/**
 * GET /account/isometricUserId: the chat credentials of spec §3 (licenseKey, accountId, keysetId,
 * projectId, appSecret, userToken) as this product fills them — its own chat over its own MQTT
 * broker, no third party. `userToken` and `appSecret` are null: the MQTT connection signs in with
 * the session's access token.
 */
export const chatCredentialsSchema = z.object({
  /** The chat user id (spec §3 `isomatricChatUserId`): the account's user id. */
  chatUserId: z.uuid(),
  licenseKey: z.string(),
  accountId: z.uuid(),
  keysetId: z.string(),
  projectId: z.string(),
  appSecret: z.null(),
  userToken: z.null(),
  /** The MQTT topic this user subscribes to (its profile topic). */
  mqttTopic: z.string(),
  /** The WebSocket path of the MQTT broker on this origin. */
  mqttPath: z.string(),
});
export type ChatCredentials = z.infer<typeof chatCredentialsSchema>;
export const chatCredentialsQuery = z.object({ userId: z.uuid().optional() });
