import {
  REALTIME_PATH,
  userTopic,
  type ChatAttachment,
  type ChatCredentials,
  type ChatMessage,
  type ChatUnread,
  type Conversation,
  type ConversationListQuery,
  type ConversationListResponse,
  type MessageListQuery,
  type MessageListResponse,
  type OpenConversationInput,
  type ReadState,
  type ReachChannel,
  type SendMessageInput,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { publish } from '../events/events.service.ts';
import type { FileLookups, FilesService } from '../files/files.service.ts';
import * as repo from './chat.repository.ts';

/** The loads module's answer about a load: its owner and booked carrier (loadLifecycle.stateForOffer). */
export interface ChatLoads {
  stateForOffer(db: DbOrTx, loadId: string, lock: 'none'): Promise<{ shipper_id: string; carrier_id: string | null; deleted: boolean } | null>;
}
/** The offers module's answer: has this carrier made an offer on the load (offersOfLoad.hasOfferBy). */
export interface ChatOffers {
  hasOfferBy(db: DbOrTx, loadId: string, carrierId: string): Promise<boolean>;
}
/** The tenders module's answer: was this carrier invited to a tender of the load (tendersOfLoad.invited). */
export interface ChatTenders {
  invited(db: DbOrTx, loadId: string, carrierId: string): Promise<boolean>;
}
/** The relations module's answer: blocks and contact settings (relations.reach). */
export interface ChatRelations {
  reach(channel: ReachChannel, ownerId: string, viewerId: string, counterpart: boolean): Promise<'ok' | 'blocked' | 'refused'>;
}

/** The real-time module's answer: is an account online now, and when was it last seen (docs/realtime.md "Presence"). */
export interface ChatPresence {
  of(accountId: string): Promise<{ online: boolean; lastSeenAt: string | null }>;
}

type Side = 'shipper' | 'carrier';

const iso = (v: string | Date) => new Date(v).toISOString();

/** GET /api/v1/chat/conversations/:id/attachments/:fileId: the two sides only. */
export const chatAttachmentUrl = (conversationId: string, fileId: string) => `/api/v1/chat/conversations/${conversationId}/attachments/${fileId}`;

/** Opaque keyset cursor (lib/cursor.ts): the last row's key (PostgreSQL text, microseconds) and id. */
const CURSOR_TAG = 'chat.conversations';
const cursorOf = (r: repo.ConversationRow) => encodeCursor(CURSOR_TAG, [r.k], r.id);
/** The cursor back; a forged or foreign one is a 400 VALIDATION_FAILED on `cursor`. */
function afterCursor(c: string | undefined): { k: string; id: string } | null {
  if (!c) return null;
  const { key, id } = decodeCursor(c, CURSOR_TAG, ['timestamptz']);
  return { k: key[0], id };
}

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
 */
export function createChatService(deps: {
  db: Db;
  loads: ChatLoads;
  offers: ChatOffers;
  tenders: ChatTenders;
  relations: ChatRelations;
  /** the files module: an attachment's bytes once this module has checked the viewer is a side */
  files: Pick<FilesService, 'openShared'> & Pick<FileLookups, 'ownedChatAttachment'>;
  /** presence of the other side on GET /chat/conversations/:id (none: shown offline, never seen) */
  presence?: ChatPresence;
}) {
  const { db } = deps;

  /** Is `carrierId` a carrier side of the load (booked, an offer, a tender invite)? */
  async function carrierSideOf(load: { carrier_id: string | null }, loadId: string, carrierId: string): Promise<boolean> {
    if (load.carrier_id === carrierId) return true;
    if (await deps.offers.hasOfferBy(db, loadId, carrierId)) return true;
    return deps.tenders.invited(db, loadId, carrierId);
  }

  /** USER_BLOCKED or CHAT_NOT_ALLOWED unless `from` may message `to` (both share the load). */
  async function mayMessage(from: string, to: string) {
    const r = await deps.relations.reach('chat', to, from, true);
    if (r === 'blocked') throw new AppError('USER_BLOCKED');
    if (r === 'refused') throw new AppError('CHAT_NOT_ALLOWED');
  }

  /** My side of a conversation; NOT_FOUND when I am on neither. */
  function sideOf(c: repo.ConversationRow, userId: string): Side {
    if (c.shipper_id === userId) return 'shipper';
    if (c.carrier_id === userId) return 'carrier';
    throw new AppError('NOT_FOUND');
  }

  async function mine(user: CurrentUser, id: string) {
    const c = await repo.conversationById(db, id);
    if (!c) throw new AppError('NOT_FOUND');
    return { c, side: sideOf(c, user.id) };
  }

  function toMessage(m: repo.MessageRow, userId: string, counterpartReadSeq: number): ChatMessage {
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
    };
  }

  function toConversation(c: repo.ConversationRow, userId: string, last: repo.MessageRow | undefined): Conversation {
    const side = sideOf(c, userId);
    const myRead = Number(side === 'shipper' ? c.shipper_read_seq : c.carrier_read_seq);
    const theirRead = Number(side === 'shipper' ? c.carrier_read_seq : c.shipper_read_seq);
    return {
      id: c.id,
      loadId: c.load_id,
      referenceId: c.reference_id,
      shipperId: c.shipper_id,
      carrierId: c.carrier_id,
      side,
      counterpart: side === 'shipper' ? { userId: c.carrier_id, companyName: c.carrier_company } : { userId: c.shipper_id, companyName: c.shipper_company },
      lastMessage: last ? toMessage(last, userId, theirRead) : null,
      lastAt: iso(c.last_at),
      unread: Math.max(0, Number(c.last_seq) - myRead),
      counterpartReadSeq: theirRead,
      createdAt: iso(c.created_at),
    };
  }

  async function withLast(rows: repo.ConversationRow[], userId: string): Promise<Conversation[]> {
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

  return {
    /**
     * POST /chat/conversations: the conversation about a load with a counterpart, created on first
     * open (racing opens find one row). The load's owner names the carrier (`counterpartId`); a
     * carrier side talks to the owner. NOT_FOUND when the load is gone or the two are not its
     * parties; USER_BLOCKED, CHAT_NOT_ALLOWED per the other side's settings.
     */
    async open(user: CurrentUser, input: OpenConversationInput): Promise<Conversation> {
      const load = await deps.loads.stateForOffer(db, input.loadId, 'none');
      if (!load || load.deleted) throw new AppError('NOT_FOUND');
      let shipperId: string;
      let carrierId: string;
      if (load.shipper_id === user.id) {
        if (!input.counterpartId || input.counterpartId === user.id) throw new AppError('NOT_FOUND');
        shipperId = user.id;
        carrierId = input.counterpartId;
      } else {
        if (input.counterpartId && input.counterpartId !== load.shipper_id) throw new AppError('NOT_FOUND');
        shipperId = load.shipper_id;
        carrierId = user.id;
      }
      const existing = await repo.conversationByParties(db, input.loadId, shipperId, carrierId);
      if (!existing && !(await carrierSideOf(load, input.loadId, carrierId))) throw new AppError('NOT_FOUND');
      await mayMessage(user.id, user.id === shipperId ? carrierId : shipperId);
      if (!existing) await repo.insertConversation(db, newId(), input.loadId, shipperId, carrierId);
      const c = existing ?? (await repo.conversationByParties(db, input.loadId, shipperId, carrierId));
      return (await withLast([c!], user.id))[0];
    },

    /**
     * GET /chat/conversations/:id (NOT_FOUND unless I am a side of it), with the other side's
     * presence (`otherSide`: online now, last seen); hidden (offline, never seen) while a block
     * stands either way, as its presence topic is.
     */
    async get(user: CurrentUser, id: string): Promise<Conversation> {
      const { c, side } = await mine(user, id);
      const other = side === 'shipper' ? c.carrier_id : c.shipper_id;
      const [conversation, reach] = await Promise.all([withLast([c], user.id).then((r) => r[0]), deps.relations.reach('chat', other, user.id, true)]);
      const hidden = reach === 'blocked' || !deps.presence;
      const otherSide = hidden ? { online: false, lastSeenAt: null } : await deps.presence!.of(other);
      return { ...conversation, otherSide };
    },

    /** GET /chat/conversations: mine, latest message first, keyset-paged. */
    async list(user: CurrentUser, q: ConversationListQuery): Promise<ConversationListResponse> {
      const rows = await repo.conversationsOf(db, user.id, q.limit + 1, afterCursor(q.cursor));
      const page = rows.slice(0, q.limit);
      return { items: await withLast(page, user.id), nextCursor: rows.length > q.limit ? cursorOf(page[page.length - 1]) : null };
    },

    /** GET /chat/conversations/:id/messages: newest first; `cursor` = the previous page's nextCursor (a seq). */
    async messages(user: CurrentUser, id: string, q: MessageListQuery): Promise<MessageListResponse> {
      const { c, side } = await mine(user, id);
      const theirRead = Number(side === 'shipper' ? c.carrier_read_seq : c.shipper_read_seq);
      const rows = await repo.messagesOf(db, id, q.limit + 1, q.cursor ? Number(q.cursor) : null);
      const page = rows.slice(0, q.limit);
      return {
        items: page.map((m) => toMessage(m, user.id, theirRead)),
        nextCursor: rows.length > q.limit ? String(page[page.length - 1].seq) : null,
        counterpartReadSeq: theirRead,
      };
    },

    /**
     * POST /chat/conversations/:id/messages: store the message and publish `chat.message_sent` in
     * one transaction. Blocks and the other side's chat setting are checked again. An attachment
     * must be a `chat-attachment` file of my account not on any message yet
     * (CHAT_ATTACHMENT_UNAVAILABLE otherwise, also when two sends of it race).
     */
    async send(user: CurrentUser, id: string, input: SendMessageInput): Promise<ChatMessage> {
      const { c, side } = await mine(user, id);
      await mayMessage(user.id, side === 'shipper' ? c.carrier_id : c.shipper_id);
      return db.transaction(async (tx) => {
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
        return toMessage(m, user.id, Number(side === 'shipper' ? c.carrier_read_seq : c.shipper_read_seq));
      });
    },

    /**
     * POST /chat/conversations/:id/read: I have read up to this message (never moves back). When
     * the position moves, `chat.read` is published in the same transaction, so the other side's
     * ticks turn to "read" live.
     */
    async markRead(user: CurrentUser, id: string, messageId: string): Promise<ReadState> {
      const { c, side } = await mine(user, id);
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
    },

    /**
     * May `actor` follow (subscribe to) or signal on (publish to) a conversation's typing topic
     * (issue 21; docs/realtime.md)? Asked by the real-time broker on every subscription and every
     * signal, never cached, so a block or a new chat setting counts on the next one.
     * - null: the actor's account is not a party (or no such conversation);
     * - 'refused': a party that may not now — a block either way (follow and signal), or, to
     *   signal, what refuses sending: the other side's chat setting, a team role that may not send;
     * - else the side and account the broker stamps on the signal.
     */
    async typingAccess(
      actor: { accountId: string; maySend: boolean },
      conversationId: string,
      act: 'follow' | 'signal',
    ): Promise<{ side: Side; accountId: string } | 'refused' | null> {
      const p = await repo.conversationParties(db, conversationId);
      const side: Side | null = !p ? null : p.shipper_id === actor.accountId ? 'shipper' : p.carrier_id === actor.accountId ? 'carrier' : null;
      if (!p || !side) return null;
      const reach = await deps.relations.reach('chat', side === 'shipper' ? p.carrier_id : p.shipper_id, actor.accountId, true);
      if (reach === 'blocked') return 'refused';
      if (act === 'signal' && (reach === 'refused' || !actor.maySend)) return 'refused';
      return { side, accountId: actor.accountId };
    },

    /**
     * May `accountId` (a team member: its owner) follow the presence of a conversation's other
     * side (issue 21; docs/realtime.md "Presence")? The rule of following typing: the two parties,
     * not while a block stands either way. Asked by the broker on every follow and before every
     * presence message, never cached.
     * - null: not a party (or no such conversation); 'refused': a block;
     * - else the other side and its account (whose presence the follower hears).
     */
    async presenceAccess(accountId: string, conversationId: string): Promise<{ side: Side; accountId: string } | 'refused' | null> {
      const p = await repo.conversationParties(db, conversationId);
      if (!p || (p.shipper_id !== accountId && p.carrier_id !== accountId)) return null;
      const other = p.shipper_id === accountId ? { side: 'carrier' as const, accountId: p.carrier_id } : { side: 'shipper' as const, accountId: p.shipper_id };
      if ((await deps.relations.reach('chat', other.accountId, accountId, true)) === 'blocked') return 'refused';
      return other;
    },

    /**
     * GET /chat/conversations/:id/attachments/:fileId: an attachment's bytes for the two sides of
     * the conversation whose message carries it; NOT_FOUND for anyone else, whatever the id.
     */
    async attachment(user: CurrentUser, id: string, fileId: string) {
      await mine(user, id);
      if (!(await repo.hasAttachment(db, id, fileId))) throw new AppError('NOT_FOUND');
      return deps.files.openShared(fileId);
    },

    /**
     * The parties of a conversation for the calls module (issue 21 "Calls"): its load and the two
     * sides' accounts and company names; null when there is no such conversation.
     */
    async callParties(id: string): Promise<{
      id: string;
      loadId: string;
      referenceId: string;
      shipperId: string;
      carrierId: string;
      shipperCompany: string;
      carrierCompany: string;
    } | null> {
      const c = await repo.conversationById(db, id);
      if (!c) return null;
      return {
        id: c.id,
        loadId: c.load_id,
        referenceId: c.reference_id,
        shipperId: c.shipper_id,
        carrierId: c.carrier_id,
        shipperCompany: c.shipper_company,
        carrierCompany: c.carrier_company,
      };
    },

    /** GET /chat/unread: the header's count. */
    unread: (user: CurrentUser): Promise<ChatUnread> => repo.unreadOf(db, user.id),

    /** GET /account/isometricUserId: this product's own chat credentials (spec §3 shape). */
    credentials(user: CurrentUser): ChatCredentials {
      return {
        chatUserId: user.id,
        licenseKey: 'masar',
        accountId: user.id,
        keysetId: 'masar-mqtt-v1',
        projectId: 'masar',
        appSecret: null,
        userToken: null,
        mqttTopic: userTopic(user.id),
        mqttPath: REALTIME_PATH,
      };
    },
  };
}
export type ChatService = ReturnType<typeof createChatService>;
