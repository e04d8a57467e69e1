import type { ChatAttachment, ChatMessage, Conversation } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { afterTimestampCursor, encodeCursor } from '../../lib/cursor.ts';
import { AppError } from '../../lib/errors.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import * as repo from './chat.repository.ts';
import type { ChatDeps } from './deps.ts';

/** A party's side of a conversation. */
export type Side = 'shipper' | 'carrier';

const iso = (v: string | Date) => new Date(v).toISOString();

/** GET /api/v1/chat/conversations/:id/attachments/:fileId: the two sides only. */
export const chatAttachmentUrl = (conversationId: string, fileId: string) => `/api/v1/chat/conversations/${conversationId}/attachments/${fileId}`;

/** Opaque keyset cursor (lib/cursor.ts): the last row's key (PostgreSQL text, microseconds) and id. */
const CURSOR_TAG = 'chat.conversations';
export const cursorOf = (r: repo.ConversationRow) => encodeCursor(CURSOR_TAG, [r.k], r.id);
/** The cursor back; a forged or foreign one is a 400 VALIDATION_FAILED on `cursor`. */
export const afterCursor = (c: string | undefined) => afterTimestampCursor(c, CURSOR_TAG);

/** Is `carrierId` a carrier side of the load (booked, an offer, a tender invite)? */
export async function carrierSideOf(
  { db, offers, tenders }: Pick<ChatDeps, 'db' | 'offers' | 'tenders'>,
  load: { carrier_id: string | null },
  loadId: string,
  carrierId: string,
): Promise<boolean> {
  if (load.carrier_id === carrierId) return true;
  if (await offers.hasOfferBy(db, loadId, carrierId)) return true;
  return tenders.invited(db, loadId, carrierId);
}

/** USER_BLOCKED or CHAT_NOT_ALLOWED unless `from` may message `to` (both share the load). */
export async function mayMessage({ relations }: Pick<ChatDeps, 'relations'>, from: string, to: string) {
  const r = await relations.reach('chat', to, from, true);
  if (r === 'blocked') throw new AppError('USER_BLOCKED');
  if (r === 'refused') throw new AppError('CHAT_NOT_ALLOWED');
}

/** My side of a conversation; NOT_FOUND when I am on neither. */
export function sideOf(c: repo.ConversationRow, userId: string): Side {
  if (c.shipper_id === userId) return 'shipper';
  if (c.carrier_id === userId) return 'carrier';
  throw new AppError('NOT_FOUND');
}

/** A conversation I am a side of, and my side; NOT_FOUND otherwise. */
export async function mine(db: DbOrTx, user: CurrentUser, id: string) {
  const c = await repo.conversationById(db, id);
  if (!c) throw new AppError('NOT_FOUND');
  return { c, side: sideOf(c, user.id) };
}

/** The other side's read position (the read receipt of my messages). */
export const theirReadSeq = (c: repo.ConversationRow, side: Side) => Number(side === 'shipper' ? c.carrier_read_seq : c.shipper_read_seq);

/** A message row as the API shows it to `userId`; `read` (mine only) against the other side's read position. */
export function toMessage(m: repo.MessageRow, userId: string, counterpartReadSeq: number): ChatMessage {
  const isMine = m.sender_id === userId;
  const attachment: ChatAttachment | null =
    m.attachment_id && m.attachment_mime
      ? {
          id: m.attachment_id,
          name: m.attachment_name,
          mime: m.attachment_mime as ChatAttachment['mime'],
          size: Number(m.attachment_size),
          url: chatAttachmentUrl(m.conversation_id, m.attachment_id),
        }
      : null;
  return {
    id: m.id,
    conversationId: m.conversation_id,
    seq: Number(m.seq),
    senderId: m.sender_id,
    mine: isMine,
    body: m.body,
    attachmentId: m.attachment_id,
    attachment,
    createdAt: iso(m.created_at),
    read: isMine ? Number(m.seq) <= counterpartReadSeq : null,
    call:
      m.call_id && m.call_type && m.call_outcome
        ? {
            callId: m.call_id,
            type: m.call_type === 'video' ? 'VideoCall' : 'AudioCall',
            outcome: m.call_outcome,
            durationSeconds: m.call_duration_seconds === null ? null : Number(m.call_duration_seconds),
          }
        : null,
  };
}

/** A conversation's id, its load (id and reference) and its two sides' accounts, as the API names them. */
export const conversationKeys = (c: repo.ConversationRow) => ({
  id: c.id,
  loadId: c.load_id,
  referenceId: c.reference_id,
  shipperId: c.shipper_id,
  carrierId: c.carrier_id,
});

function toConversation(c: repo.ConversationRow, userId: string, last: repo.MessageRow | undefined): Conversation {
  const side = sideOf(c, userId);
  const myRead = Number(side === 'shipper' ? c.shipper_read_seq : c.carrier_read_seq);
  const theirRead = theirReadSeq(c, side);
  return {
    ...conversationKeys(c),
    side,
    counterpart: side === 'shipper' ? { userId: c.carrier_id, companyName: c.carrier_company } : { userId: c.shipper_id, companyName: c.shipper_company },
    lastMessage: last ? toMessage(last, userId, theirRead) : null,
    lastAt: iso(c.last_at),
    unread: Math.max(0, Number(c.last_seq) - myRead),
    counterpartReadSeq: theirRead,
    createdAt: iso(c.created_at),
  };
}

/** Conversation rows as the API shows them to `userId`, each with its last message (one query for all). */
export async function withLast(db: DbOrTx, rows: repo.ConversationRow[], userId: string): Promise<Conversation[]> {
  const last = new Map(
    (
      await repo.messagesById(
        db,
        rows.flatMap((r) => (r.last_message_id ? [r.last_message_id] : [])),
      )
    ).map((m) => [m.id, m]),
  );
  return rows.map((r) => toConversation(r, userId, r.last_message_id ? last.get(r.last_message_id) : undefined));
}
