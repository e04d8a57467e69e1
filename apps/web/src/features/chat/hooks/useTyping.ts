import { useEffect, useMemo, useState } from 'react';
import { conversationTypingTopic, typingMessageSchema, type TypingMessage } from '@masar/shared';
import { followTopic, publishTopic } from '../../../lib/realtime';

/** While typing, at most one "typing" signal per this many ms. */
export const TYPING_SEND_EVERY_MS = 3_000;
/** The other side's "is typing…" goes away this long after its last signal (it sends one per 3 s while typing). */
export const TYPING_SHOW_MS = 5_000;

/**
 * The composer's signals: `typed()` on every keystroke sends `typing: true` at most once per
 * TYPING_SEND_EVERY_MS; `stopped()` (sent, left the field, left the thread) sends `typing: false`
 * once, and only after a `true`. `send` answers false when it could not send (not connected yet):
 * the next keystroke tries again.
 */
export function typingSender(send: (typing: boolean) => boolean, now: () => number = Date.now) {
  let lastTrue: number | null = null;
  return {
    typed: () => {
      const t = now();
      if (lastTrue !== null && t - lastTrue < TYPING_SEND_EVERY_MS) return;
      if (send(true)) lastTrue = t;
    },
    stopped: () => {
      if (lastTrue === null) return;
      lastTrue = null;
      send(false);
    },
  };
}

/**
 * Typing in a chat thread (issue 21; docs/chat.md): follows the conversation's typing topic on the
 * tab's real-time connection and says whether the OTHER side is typing (hidden TYPING_SHOW_MS after
 * its last signal, or at once on its stop); `typed`/`stopped` publish my side's signals. The broker
 * stamps who typed, so a signal of my own side (my other tabs, my team) is not theirs.
 */
export function useTyping(conversationId: string, mySide: TypingMessage['side'] | undefined) {
  const [theirs, setTheirs] = useState(false);
  useEffect(() => {
    if (!mySide) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unfollow = followTopic(conversationTypingTopic(conversationId), (data) => {
      const m = typingMessageSchema.safeParse(data);
      if (!m.success || m.data.side === mySide || m.data.conversationId !== conversationId) return;
      clearTimeout(timer);
      setTheirs(m.data.typing);
      if (m.data.typing) timer = setTimeout(() => setTheirs(false), TYPING_SHOW_MS);
    });
    return () => {
      unfollow();
      clearTimeout(timer);
      setTheirs(false);
    };
  }, [conversationId, mySide]);

  const sender = useMemo(() => typingSender((typing) => publishTopic(conversationTypingTopic(conversationId), { typing })), [conversationId]);
  // leaving the thread (or switching conversation) is a stop
  useEffect(() => () => sender.stopped(), [sender]);
  return { theirTyping: theirs, typed: sender.typed, stopped: sender.stopped };
}
