import { CALL_RING_SECONDS, type Call, type CallMessage, type CallSignalMessage, type CallType, type IceServer } from '@masar/shared';
import { ApiError } from '../../lib/api';
import { callsApi, type CallsApi } from './api/calls';
import { startRing } from './ring';
import { getCallState, resetCallState, setCallState, type CallEndNotice } from './store';

/*
 * The call engine of a tab (issue 21 "Calls"; spec §3, §4; docs/calls.md): one RTCPeerConnection
 * per call, peer to peer, with the ICE servers the API hands out. Signalling goes through the API
 * (POST /meetings/v1/signal) and arrives on the profile topic (`call-signal` messages); the call's
 * state changes arrive as the spec's events (`call` messages: meetingCreated, joinRequestAccept,
 * meetingEndedByHost, meetingEndedDueToNoUserPublishing, memberLeave).
 *
 * Who offers: the caller, once it hears joinRequestAccept; the callee answers. Candidates that
 * arrive before the remote description (or before the connection exists) wait in a queue.
 * The microphone and camera are asked for only on a user's click (call, accept).
 */

export interface CallDeps {
  api: Pick<CallsApi, 'create' | 'accept' | 'leave' | 'get' | 'signal'>;
  createPeer: (config: RTCConfiguration) => RTCPeerConnection;
  getUserMedia: (c: MediaStreamConstraints) => Promise<MediaStream>;
  startRing: () => () => void;
  /** This tab's id (the accept's deviceId): the other tabs of the callee stop ringing. */
  deviceId: string;
  now: () => number;
}

const defaultDeps = (): CallDeps => ({
  api: callsApi,
  createPeer: (c) => new RTCPeerConnection(c),
  getUserMedia: (c) => navigator.mediaDevices.getUserMedia(c),
  startRing,
  deviceId: globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `${Date.now()}-${Math.random()}`,
  now: () => Date.now(),
});

let deps: CallDeps | null = null;
const d = () => (deps ??= defaultDeps());
/** Tests: use fakes for the API, the peer connection, the media and the ring. */
export function setCallDeps(next: Partial<CallDeps>) {
  deps = { ...defaultDeps(), ...deps, ...next };
}

let pc: RTCPeerConnection | null = null;
let iceServers: IceServer[] = [];
let stopRing: (() => void) | null = null;
let ringTimer: ReturnType<typeof setTimeout> | null = null;
/** Signals that arrived before the connection or its remote description. */
let waiting: CallSignalMessage[] = [];

const meetingId = () => getCallState().receiverDetails?.meetingId ?? null;
const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e));

/** The call window's state when a call opens, outgoing or incoming (spec §4: connecting, audio on, video only for a video call). */
function openedState(call: Call, phase: 'outgoing' | 'incoming') {
  return {
    isOpen: true,
    type: call.type,
    loadId: call.loadId,
    conversationId: call.conversationId,
    isMaximize: true,
    isMinimizedCall: false,
    isConnecting: true,
    isConnected: false,
    userId: call.counterpart.userId,
    startedAt: null,
    receiverDetails: { callerName: call.counterpart.companyName, isReceiver: phase === 'incoming', meetingId: call.meetingId },
    localAudio: true,
    localVideo: call.type === 'VideoCall',
    phase,
    peerState: 'new' as const,
    notice: null,
    ended: null,
  };
}

function teardown() {
  stopRing?.();
  stopRing = null;
  if (ringTimer) clearTimeout(ringTimer);
  ringTimer = null;
  waiting = [];
  if (pc) {
    pc.onicecandidate = null;
    pc.ontrack = null;
    pc.onconnectionstatechange = null;
    pc.close();
  }
  pc = null;
  for (const t of getCallState().localStream?.getTracks() ?? []) t.stop();
}

/** The spec's reset (§4): the call is over here. */
function end(notice: string | null = null) {
  teardown();
  resetCallState(notice);
}

/** The call is over here, and the window says why until it is closed (issue 48: declined, busy, no answer, failed). */
function endWith(reason: CallEndNotice, name = getCallState().receiverDetails?.callerName ?? '', type = getCallState().type ?? 'AudioCall') {
  end();
  setCallState({ ended: { reason, name, type } });
}

function media(type: CallType) {
  return d().getUserMedia({ audio: true, video: type === 'VideoCall' });
}

/** The peer connection with my tracks; its candidates and state feed the API and the store. */
function connect(stream: MediaStream) {
  const id = meetingId()!;
  const peer = d().createPeer({ iceServers: iceServers.map((s) => ({ urls: s.urls, username: s.username, credential: s.credential })) });
  pc = peer;
  for (const track of stream.getTracks()) peer.addTrack(track, stream);
  peer.onicecandidate = (e) => {
    if (e.candidate)
      void d()
        .api.signal(id, 'candidate', JSON.stringify(e.candidate))
        .catch(() => undefined);
  };
  peer.ontrack = (e) => setCallState({ remoteStream: e.streams[0] ?? new MediaStream([e.track]) });
  peer.onconnectionstatechange = () => {
    if (pc !== peer) return;
    setCallState({ peerState: peer.connectionState });
    // ICE could not find a path (no TURN, a network lost for good): end the call on both sides and say so here
    if (peer.connectionState === 'failed') {
      endWith('failed');
      void d()
        .api.leave(id)
        .catch(() => undefined);
    }
  };
  return peer;
}

async function applySignal(m: CallSignalMessage) {
  const peer = pc;
  if (!peer) return void waiting.push(m);
  if (m.signal === 'candidate') {
    if (!peer.remoteDescription) return void waiting.push(m);
    await peer.addIceCandidate(JSON.parse(m.payload) as RTCIceCandidateInit).catch(() => undefined);
    return;
  }
  await peer.setRemoteDescription(JSON.parse(m.payload) as RTCSessionDescriptionInit);
  if (m.signal === 'offer') {
    const answer = await peer.createAnswer();
    await peer.setLocalDescription(answer);
    await d().api.signal(m.meetingId, 'answer', JSON.stringify(peer.localDescription ?? answer));
  }
  // the candidates that came before the description
  const queued = waiting.filter((w) => w.signal === 'candidate');
  waiting = waiting.filter((w) => w.signal !== 'candidate');
  for (const w of queued) await peer.addIceCandidate(JSON.parse(w.payload) as RTCIceCandidateInit).catch(() => undefined);
}

async function flushWaiting() {
  const first = waiting.filter((w) => w.signal !== 'candidate');
  waiting = waiting.filter((w) => w.signal === 'candidate');
  for (const w of first) await applySignal(w);
}

/**
 * Call the other side of a conversation (a click on the audio or video button). Answers null, or
 * the API's error code when the call was refused (CALL_NOT_ALLOWED, USER_BLOCKED, CALL_BUSY) so the
 * button can say why.
 */
export async function startCall(opts: {
  conversationId: string;
  loadId: string;
  type: CallType;
  counterpartId: string;
  counterpartName: string;
}): Promise<string | null> {
  if (getCallState().phase !== 'idle') return 'CALL_BUSY';
  let stream: MediaStream;
  try {
    stream = await media(opts.type);
  } catch (e) {
    setCallState({ notice: messageOf(e) });
    return 'MEDIA';
  }
  try {
    const call = await d().api.create(opts.conversationId, opts.type, d().deviceId);
    iceServers = call.iceServers;
    setCallState({ ...openedState(call, 'outgoing'), localStream: stream, remoteStream: null });
    return null;
  } catch (e) {
    for (const t of stream.getTracks()) t.stop();
    setCallState({ notice: messageOf(e) });
    // the other side is on another call: the window says so rather than nothing happening (issue 48)
    if (e instanceof ApiError && e.code === 'CALL_BUSY') endWith('busy', opts.counterpartName, opts.type);
    return e instanceof ApiError ? e.code : 'ERROR';
  }
}

/** Accept the incoming call (a click): media, POST /meetings/v1/accept with this tab's id, then wait for the offer. */
export async function acceptCall(): Promise<void> {
  const s = getCallState();
  const id = meetingId();
  if (s.phase !== 'incoming' || !id || !s.type) return;
  stopRing?.();
  stopRing = null;
  let stream: MediaStream;
  try {
    stream = await media(s.type);
  } catch (e) {
    await d()
      .api.leave(id)
      .catch(() => undefined);
    return end(messageOf(e));
  }
  try {
    const call = await d().api.accept(id, d().deviceId);
    iceServers = call.iceServers;
  } catch (e) {
    for (const t of stream.getTracks()) t.stop();
    return end(messageOf(e));
  }
  if (meetingId() !== id) return void stream.getTracks().forEach((t) => t.stop());
  setCallState({
    phase: 'connected',
    isConnecting: false,
    isConnected: true,
    startedAt: d().now(),
    localStream: stream,
    localAudio: true,
    localVideo: s.type === 'VideoCall',
  });
  connect(stream);
  await flushWaiting();
}

/** Hang up, cancel (caller, ringing) or decline (callee, ringing): DELETE /meetings/v1/leave. */
export async function leaveCall(): Promise<void> {
  const id = meetingId();
  end();
  if (id)
    await d()
      .api.leave(id)
      .catch(() => undefined);
}

/** Mute or unmute my microphone. */
export function toggleAudio() {
  const on = !getCallState().localAudio;
  for (const t of getCallState().localStream?.getAudioTracks() ?? []) t.enabled = on;
  setCallState({ localAudio: on });
}
/** Camera off or on (video calls). */
export function toggleVideo() {
  const on = !getCallState().localVideo;
  for (const t of getCallState().localStream?.getVideoTracks() ?? []) t.enabled = on;
  setCallState({ localVideo: on });
}
export const minimiseCall = () => setCallState({ isMaximize: false, isMinimizedCall: true });
export const maximiseCall = () => setCallState({ isMaximize: true, isMinimizedCall: false });
/** Clear the notice of the last call, and its ending's words. */
export const dismissCallNotice = () => setCallState({ notice: null, ended: null });

/** A spec call event on my profile topic (spec §4). */
export async function onCallMessage(m: CallMessage): Promise<void> {
  const s = getCallState();
  const mine = meetingId() === m.meetingId;
  switch (m.event) {
    case 'meetingCreated': {
      if (s.phase !== 'idle') return;
      const call = await d()
        .api.get(m.meetingId)
        .catch(() => null);
      if (!call || !call.isReceiver || call.status !== 'ringing' || getCallState().phase !== 'idle') return;
      // spec §4: an incoming call opens connecting, audio on, video on only for a video call
      setCallState(openedState(call, 'incoming'));

      stopRing = d().startRing();
      // the server misses it after the ring time; stop ringing here then even if that message is lost
      ringTimer = setTimeout(
        () => {
          if (meetingId() === call.meetingId && getCallState().phase === 'incoming') end();
        },
        // (capped: a skewed clock must neither stop it at once nor overflow the timer)
        Math.min(CALL_RING_SECONDS * 1000, Math.max(1000, new Date(call.ringsUntil).getTime() - Date.now())),
      );
      return;
    }
    case 'joinRequestAccept': {
      if (!mine) return;
      if (s.receiverDetails?.isReceiver) {
        // answered on another tab or device: this one stops ringing
        if (m.deviceId !== d().deviceId && s.phase === 'incoming') end();
        return;
      }
      if (s.phase !== 'outgoing' || !s.localStream) return;
      // spec §4: joinRequestAccept marks connected and records the start time; the caller offers
      setCallState({ phase: 'connected', isConnecting: false, isConnected: true, startedAt: d().now() });
      const peer = connect(s.localStream);
      const offer = await peer.createOffer();
      await peer.setLocalDescription(offer);
      await d().api.signal(m.meetingId, 'offer', JSON.stringify(peer.localDescription ?? offer));
      await flushWaiting();
      return;
    }
    default:
      // meetingEndedByHost, meetingEndedDueToNoUserPublishing, memberLeave: the call resets; my
      // outgoing call that the other side declined (memberLeave) or nobody answered says so (issue 48)
      if (!mine) return;
      if (s.phase === 'outgoing' && m.event === 'memberLeave') return endWith('declined');
      if (s.phase === 'outgoing' && m.event === 'meetingEndedDueToNoUserPublishing') return endWith('noAnswer');
      end();
  }
}

/** An SDP offer / answer or ICE candidate for my call. */
export async function onCallSignal(m: CallSignalMessage): Promise<void> {
  if (meetingId() !== m.meetingId) return;
  await applySignal(m);
}

/** Tests: forget everything. */
export function resetCallEngine() {
  end();
  deps = null;
}
