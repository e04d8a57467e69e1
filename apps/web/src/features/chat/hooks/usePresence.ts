import { useEffect, useState } from 'react';
import { presenceMessageSchema, presenceTopic, type PresenceMessage } from '@masar/shared';
import { followTopic } from '../../../lib/realtime';

/** The other side's presence: online now, or when it was last seen (ISO; null: never). */
export interface Presence {
  online: boolean;
  lastSeenAt: string | null;
}

/**
 * The other side's presence in a chat thread (issue 21; docs/chat.md "Presence"): follows the
 * conversation's presence topic on the tab's real-time connection — the broker answers each
 * follow (again after every reconnect) with the other side's state and then tells when it comes
 * or goes. Until a message arrives, `initial` (GET /chat/conversations/:id `otherSide`) stands.
 * A message about my own side (my other tabs, my team) is ignored.
 */
export function usePresence(conversationId: string, mySide: PresenceMessage['side'] | undefined, initial: Presence | undefined): Presence | null {
  const [live, setLive] = useState<Presence | null>(null);
  useEffect(() => {
    if (!mySide) return;
    const unfollow = followTopic(presenceTopic(conversationId), (data) => {
      const m = presenceMessageSchema.safeParse(data);
      if (!m.success || m.data.side === mySide || m.data.conversationId !== conversationId) return;
      setLive({ online: m.data.online, lastSeenAt: m.data.lastSeenAt });
    });
    return () => {
      unfollow();
      setLive(null);
    };
  }, [conversationId, mySide]);
  return live ?? initial ?? null;
}
