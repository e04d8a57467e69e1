import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/**
 * All SQL of the chat module (tables chat_conversations, chat_messages, migrations 0123 and 0125;
 * reads loads for the reference, users for the other company's name and files for an
 * attachment's name, type and size).
 */

export interface ConversationRow {
  id: string;
  load_id: string;
  reference_id: string;
  shipper_id: string;
  carrier_id: string;
  shipper_company: string;
  carrier_company: string;
  created_at: string;
  last_at: string;
  /** last_at as PostgreSQL text (microseconds), for the keyset cursor */
  k: string;
  last_message_id: string | null;
  last_seq: number;
  shipper_read_seq: number;
  carrier_read_seq: number;
}

export interface MessageRow {
  id: string;
  conversation_id: string;
  seq: number;
  sender_id: string;
  author_id: string;
  body: string;
  attachment_id: string | null;
  created_at: string;
  /** A call's line (migration 0136, issue 48): the call, audio|video, missed|declined|ended, seconds answered. */
  call_id: string | null;
  call_type: 'audio' | 'video' | null;
  call_outcome: 'missed' | 'declined' | 'ended' | null;
  call_duration_seconds: number | null;
  /** The attachment's file (files module), when there is one. */
  attachment_name: string | null;
  attachment_mime: string | null;
  attachment_size: number | null;
}

const msgCols = sql`m.*, f.name as attachment_name, f.mime as attachment_mime, f.size as attachment_size`;
const msgFrom = sql`chat_messages m left join files f on f.id = m.attachment_id`;

const convCols = sql`c.id, c.load_id, l.reference_id, c.shipper_id, c.carrier_id, su.company_name as shipper_company,
  cu.company_name as carrier_company, c.created_at, c.last_at, c.last_at::text as k, c.last_message_id, c.last_seq,
  c.shipper_read_seq, c.carrier_read_seq`;
const convFrom = sql`chat_conversations c join loads l on l.id = c.load_id join users su on su.id = c.shipper_id join users cu on cu.id = c.carrier_id`;

/** Insert the conversation of (load, shipper, carrier) unless it exists (racing opens: one row). */
export async function insertConversation(db: DbOrTx, id: string, loadId: string, shipperId: string, carrierId: string): Promise<void> {
  await queryRows(
    db,
    sql`insert into chat_conversations (id, load_id, shipper_id, carrier_id) values (${id}, ${loadId}, ${shipperId}, ${carrierId})
        on conflict (load_id, shipper_id, carrier_id) do nothing`,
  );
}

export async function conversationByParties(db: DbOrTx, loadId: string, shipperId: string, carrierId: string): Promise<ConversationRow | undefined> {
  const [r] = await queryRows<ConversationRow>(
    db,
    sql`select ${convCols} from ${convFrom} where c.load_id = ${loadId} and c.shipper_id = ${shipperId} and c.carrier_id = ${carrierId}`,
  );
  return r;
}

export async function conversationById(db: DbOrTx, id: string): Promise<ConversationRow | undefined> {
  const [r] = await queryRows<ConversationRow>(db, sql`select ${convCols} from ${convFrom} where c.id = ${id}`);
  return r;
}

/** The two parties of a conversation (one primary-key read; the real-time typing check). */
export async function conversationParties(db: DbOrTx, id: string): Promise<{ shipper_id: string; carrier_id: string } | undefined> {
  const [r] = await queryRows<{ shipper_id: string; carrier_id: string }>(db, sql`select shipper_id, carrier_id from chat_conversations where id = ${id}`);
  return r;
}

/**
 * My conversations (either side), latest message first, keyset on (last_at, id): one index range
 * per side (chat_conversations_shipper_idx / _carrier_idx), merged, `limit` rows.
 */
export async function conversationsOf(db: DbOrTx, userId: string, limit: number, after: { k: string; id: string } | null): Promise<ConversationRow[]> {
  const page = (col: 'shipper_id' | 'carrier_id') => {
    const side = col === 'shipper_id' ? sql`c.shipper_id` : sql`c.carrier_id`;
    const cursor = after ? sql`and (c.last_at, c.id) < (${after.k}::timestamptz, ${after.id}::uuid)` : sql``;
    return sql`(select c.id, c.last_at from chat_conversations c where ${side} = ${userId} ${cursor} order by c.last_at desc, c.id desc limit ${limit})`;
  };
  return queryRows<ConversationRow>(
    db,
    sql`with page as (${page('shipper_id')} union all ${page('carrier_id')})
        select ${convCols} from page p join ${convFrom} on c.id = p.id
        order by c.last_at desc, c.id desc limit ${limit}`,
  );
}

export async function messagesById(db: DbOrTx, ids: string[]): Promise<MessageRow[]> {
  if (!ids.length) return [];
  return queryRows<MessageRow>(
    db,
    sql`select ${msgCols} from ${msgFrom} where m.id in (${sql.join(
      ids.map((i) => sql`${i}::uuid`),
      sql`, `,
    )})`,
  );
}

/** A conversation's messages, newest first, before `beforeSeq` (keyset on the unique (conversation_id, seq)). */
export async function messagesOf(db: DbOrTx, conversationId: string, limit: number, beforeSeq: number | null): Promise<MessageRow[]> {
  return queryRows<MessageRow>(
    db,
    sql`select ${msgCols} from ${msgFrom} where m.conversation_id = ${conversationId}
        ${beforeSeq !== null ? sql`and m.seq < ${beforeSeq}` : sql``} order by m.seq desc limit ${limit}`,
  );
}

/**
 * Take the next seq of a conversation for a new message sent by `side` (the row lock orders racing
 * sends): last_seq + 1, the last message, and the sender's side reads up to it.
 */
export async function takeSeq(tx: DbOrTx, conversationId: string, messageId: string, side: 'shipper' | 'carrier'): Promise<number> {
  const read =
    side === 'shipper' ? sql`shipper_read_seq = last_seq + 1, shipper_read_at = now()` : sql`carrier_read_seq = last_seq + 1, carrier_read_at = now()`;
  const [r] = await queryRows<{ seq: number }>(
    tx,
    sql`update chat_conversations set last_seq = last_seq + 1, last_at = now(), last_message_id = ${messageId}, ${read}
        where id = ${conversationId} returning last_seq as seq`,
  );
  return Number(r.seq);
}

/**
 * Insert a message. Undefined (nothing written) when its attachment is already on a message: the
 * unique index chat_messages_attachment_idx decides, so two racing sends of one file store one.
 */
export async function insertMessage(
  tx: DbOrTx,
  m: { id: string; conversationId: string; seq: number; senderId: string; authorId: string; body: string; attachmentId: string | null },
): Promise<Omit<MessageRow, 'attachment_name' | 'attachment_mime' | 'attachment_size'> | undefined> {
  const [r] = await queryRows<MessageRow>(
    tx,
    sql`insert into chat_messages (id, conversation_id, seq, sender_id, author_id, body, attachment_id)
        values (${m.id}, ${m.conversationId}, ${m.seq}, ${m.senderId}, ${m.authorId}, ${m.body}, ${m.attachmentId})
        on conflict (attachment_id) where attachment_id is not null do nothing returning *`,
  );
  return r;
}

/**
 * A call's line (issue 48) at the end of its conversation, in the caller's transaction: the next
 * seq (the conversation row's lock orders it with racing sends), the conversation's last message.
 * No one's read position moves past unread messages: a side that had read everything has read the
 * line too, except `unreadFor` (the side that missed the call), whose count goes up by one. The
 * unique index chat_messages_call_idx refuses a second line of one call (the statement fails).
 */
export async function insertCallLine(
  tx: DbOrTx,
  m: {
    id: string;
    conversationId: string;
    senderId: string;
    authorId: string;
    callId: string;
    type: 'audio' | 'video';
    outcome: 'missed' | 'declined' | 'ended';
    durationSeconds: number | null;
    unreadFor: 'shipper' | 'carrier' | null;
  },
): Promise<MessageRow> {
  const caughtUp = (col: 'shipper' | 'carrier') =>
    m.unreadFor === col
      ? col === 'shipper'
        ? sql`shipper_read_seq`
        : sql`carrier_read_seq`
      : col === 'shipper'
        ? sql`case when shipper_read_seq = last_seq then last_seq + 1 else shipper_read_seq end`
        : sql`case when carrier_read_seq = last_seq then last_seq + 1 else carrier_read_seq end`;
  const [c] = await queryRows<{ seq: number }>(
    tx,
    sql`update chat_conversations set last_seq = last_seq + 1, last_at = now(), last_message_id = ${m.id},
          shipper_read_seq = ${caughtUp('shipper')}, carrier_read_seq = ${caughtUp('carrier')}
        where id = ${m.conversationId} returning last_seq as seq`,
  );
  const [r] = await queryRows<MessageRow>(
    tx,
    sql`insert into chat_messages (id, conversation_id, seq, sender_id, author_id, body, call_id, call_type, call_outcome, call_duration_seconds)
        values (${m.id}, ${m.conversationId}, ${Number(c.seq)}, ${m.senderId}, ${m.authorId}, '', ${m.callId}, ${m.type}, ${m.outcome}, ${m.durationSeconds})
        returning *, null as attachment_name, null as attachment_mime, null as attachment_size`,
  );
  return r;
}

/** Does a message of the conversation carry file `fileId`? (index chat_messages_attachment_idx) */
export async function hasAttachment(db: DbOrTx, conversationId: string, fileId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, sql`select id from chat_messages where attachment_id = ${fileId} and conversation_id = ${conversationId}`);
  return rows.length > 0;
}

export async function messageSeq(db: DbOrTx, conversationId: string, messageId: string): Promise<number | null> {
  const [r] = await queryRows<{ seq: number }>(db, sql`select seq from chat_messages where id = ${messageId} and conversation_id = ${conversationId}`);
  return r ? Number(r.seq) : null;
}

/**
 * Move a side's read position forward to `seq`. Null when it was already there or past it
 * (nothing written); else the position after and the conversation's last seq.
 */
export async function markRead(db: DbOrTx, conversationId: string, side: 'shipper' | 'carrier', seq: number): Promise<{ read: number; last: number } | null> {
  const q =
    side === 'shipper'
      ? sql`update chat_conversations set shipper_read_seq = ${seq}, shipper_read_at = now()
            where id = ${conversationId} and shipper_read_seq < ${seq} returning shipper_read_seq as read, last_seq as last`
      : sql`update chat_conversations set carrier_read_seq = ${seq}, carrier_read_at = now()
            where id = ${conversationId} and carrier_read_seq < ${seq} returning carrier_read_seq as read, last_seq as last`;
  const [r] = await queryRows<{ read: number; last: number }>(db, q);
  return r ? { read: Number(r.read), last: Number(r.last) } : null;
}

/** The header's count: unread messages and conversations of a user, read from the partial unread indexes only. */
export async function unreadOf(db: DbOrTx, userId: string): Promise<{ unread: number; conversations: number }> {
  const [r] = await queryRows<{ unread: string | null; conversations: string }>(
    db,
    sql`select sum(n) as unread, count(*) as conversations from (
          select last_seq - shipper_read_seq as n from chat_conversations where shipper_id = ${userId} and last_seq > shipper_read_seq
          union all
          select last_seq - carrier_read_seq from chat_conversations where carrier_id = ${userId} and last_seq > carrier_read_seq
        ) u`,
  );
  return { unread: Number(r?.unread ?? 0), conversations: Number(r?.conversations ?? 0) };
}
