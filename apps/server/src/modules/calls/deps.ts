import type { CallSignalMessage, ReachChannel } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { IceConfig } from './ice.ts';

/** The chat module's answer: a conversation's load and two sides (chat.callParties). */
export interface CallsChat {
  callParties(id: string): Promise<{
    id: string;
    loadId: string;
    referenceId: string;
    shipperId: string;
    carrierId: string;
    shipperCompany: string;
    carrierCompany: string;
  } | null>;
}
/** The chat module's writer of a call's line (chat.recordCallLine, issue 48), in the ending transaction. */
export interface CallsChatLine {
  recordCallLine(
    tx: DbOrTx,
    line: {
      callId: string;
      conversationId: string;
      callerId: string;
      authorId: string;
      calleeId: string;
      type: 'audio' | 'video';
      outcome: 'missed' | 'declined' | 'ended';
      durationSeconds: number | null;
    },
  ): Promise<void>;
}
/** The relations module's answer: blocks and the `audio` / `video` contact settings (relations.reach). */
export interface CallsRelations {
  reach(channel: ReachChannel, ownerId: string, viewerId: string, counterpart: boolean): Promise<'ok' | 'blocked' | 'refused'>;
}
/** The real-time broker's publish to profile topics (null when REALTIME=false: signals go nowhere). */
export interface CallsRealtime {
  publishToUsers(userIds: Iterable<string>, message: CallSignalMessage): Promise<void>;
}

/**
 * What the calls module's use cases may touch; each use case names its share with
 * `Pick<CallsDeps, …>`. The container builds it (container.ts).
 */
export interface CallsDeps {
  db: Db;
  chat: CallsChat & CallsChatLine;
  relations: CallsRelations;
  realtime: CallsRealtime | null;
  ice: IceConfig;
  /** Queue the ring-time check of a new call (a job that runs once the ring time is over). */
  scheduleExpiry?: (callId: string, afterSeconds: number) => Promise<void>;
  /** Seconds an unanswered call rings (CALL_RING_SECONDS). */
  ringSeconds?: number;
}
