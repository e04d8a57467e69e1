import { useSyncExternalStore } from 'react';

/**
 * Whether the chat panel is open and on which conversation (null: the list). One panel per tab,
 * opened from the header, load details and the offers on my load (issue 21 "Chat").
 */
export interface ChatPanelState {
  opened: boolean;
  conversationId: string | null;
}

let state: ChatPanelState = { opened: false, conversationId: null };
const listeners = new Set<() => void>();
const set = (next: ChatPanelState) => {
  state = next;
  for (const l of listeners) l();
};

/** Open the panel on a conversation, or on the list. */
export const openChat = (conversationId: string | null = null) => set({ opened: true, conversationId });
export const closeChat = () => set({ opened: false, conversationId: null });
/** Back from a thread to the list. */
export const showChatList = () => set({ opened: true, conversationId: null });

export function useChatPanel(): ChatPanelState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
