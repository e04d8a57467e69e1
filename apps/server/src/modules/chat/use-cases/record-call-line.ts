import type { CallLineOutcome } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { newId } from '../../../lib/ids.ts';
import * as repo from '../chat.repository.ts';

/** A call's ending as the calls module reports it (its row, read in the ending transaction). */
export interface CallLine {
  callId: string;
  conversationId: string;
  /** The caller's account: the line's sender, so the caller reads it as `mine`. */
  callerId: string;
  /** The person whose action ended it (a team member acts for its account), or the caller's person when the ring time did. */
  authorId: string;
  type: 'audio' | 'video';
  outcome: CallLineOutcome;
  /** Answer to hang-up, whole seconds (ended only; null otherwise). */
  durationSeconds: number | null;
  /** The called side's account: a missed call is unread for it. */
  calleeId: string;
}

/**
 * A call's line in its conversation (issue 48; docs/calls.md "The line in the conversation"):
 * called by the calls module, through its `CallsChat` port, inside the transaction of the call's
 * ending transition — so a call that ended has exactly one line and a call whose ending rolled
 * back has none (the transition's conditional update lets one ending win; the unique index
 * chat_messages_call_idx backs it). It runs in the caller's transaction, so it takes that instead
 * of the module's deps. The line is a message with no body and its `call` (chatCallLineSchema);
 * a missed call is unread for the called side, every other line reads as read for a side that had
 * read everything. No `chat.message_sent` is published: the call's own event (call.ended /
 * call.missed, same transaction, aggregate `conversation`) tells both sides' screens to re-read
 * the thread, and call.missed alone notifies.
 */
export async function recordCallLine(tx: DbOrTx, line: CallLine): Promise<void> {
  const sides = await repo.conversationParties(tx, line.conversationId);
  if (!sides) throw new Error(`recordCallLine: no conversation ${line.conversationId}`);
  const calleeSide = sides.shipper_id === line.calleeId ? 'shipper' : 'carrier';
  await repo.insertCallLine(tx, {
    id: newId(),
    conversationId: line.conversationId,
    senderId: line.callerId,
    authorId: line.authorId,
    callId: line.callId,
    type: line.type,
    outcome: line.outcome,
    durationSeconds: line.outcome === 'ended' ? line.durationSeconds : null,
    unreadFor: line.outcome === 'missed' ? calleeSide : null,
  });
}
