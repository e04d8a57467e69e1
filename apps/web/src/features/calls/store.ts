import { useSyncExternalStore } from 'react';
import type { CallType } from '@masar/shared';

/**
 * The call state of this tab (issue 21 "Calls"; spec §3 call state): one call at a time.
 * `phase` is this product's addition — where the call window is (an outgoing call ringing the
 * other side, an incoming call ringing here, connected) — and `peerState` the RTCPeerConnection's
 * connectionState (the call window shows it as `data-peer-state`).
 */
export interface CallState {
  isOpen: boolean;
  type: CallType | null;
  loadId: string | null;
  conversationId: string | null;
  isMaximize: boolean;
  isConnecting: boolean;
  isConnected: boolean;
  /** The other side's account. */
  userId: string | null;
  /** When the call was answered (epoch ms): the timer counts from it. */
  startedAt: number | null;
  isMinimizedCall: boolean;
  receiverDetails: { callerName: string; isReceiver: boolean; meetingId: string } | null;
  /** My microphone and camera are on. */
  localAudio: boolean;
  localVideo: boolean;
  phase: 'idle' | 'outgoing' | 'incoming' | 'connected';
  peerState: RTCPeerConnectionState | 'new';
  /** The remote side's media (audio element, video element). */
  remoteStream: MediaStream | null;
  localStream: MediaStream | null;
  /** Why the last call attempt ended or failed (an error message from the API), for a notice. */
  notice: string | null;
  /**
   * How my last call ended when it did not end by a hang-up (issue 48): the other side declined,
   * was busy on another call or did not answer (the caller's side), or the connection failed
   * (either side). The call window says so, with the other side's name, until closed.
   */
  ended: { reason: CallEndNotice; name: string; type: CallType } | null;
}

/** The reasons a call window ends with words instead of just closing (issue 48). */
export type CallEndNotice = 'declined' | 'busy' | 'noAnswer' | 'failed';

export const IDLE: CallState = {
  isOpen: false,
  type: null,
  loadId: null,
  conversationId: null,
  isMaximize: true,
  isConnecting: false,
  isConnected: false,
  userId: null,
  startedAt: null,
  isMinimizedCall: false,
  receiverDetails: null,
  localAudio: true,
  localVideo: false,
  phase: 'idle',
  peerState: 'new',
  remoteStream: null,
  localStream: null,
  notice: null,
  ended: null,
};

let state: CallState = IDLE;
const listeners = new Set<() => void>();

export const getCallState = () => state;
/** Merge `patch` into the call state and tell the subscribers. */
export function setCallState(patch: Partial<CallState>) {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}
/** Back to no call (spec §4: the end events reset the call); keeps a notice if given. */
export const resetCallState = (notice: string | null = null) => setCallState({ ...IDLE, notice });

export function useCallState(): CallState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
