import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Call, CallMessage, CallSignalMessage, CallWithIce } from '@masar/shared';
import i18n, { loadNamespaces } from '../../i18n';
import { renderWithApp } from '../../test/render';
import { ApiError } from '../../lib/api';
import { acceptCall, type CallDeps, leaveCall, onCallMessage, onCallSignal, resetCallEngine, setCallDeps, startCall, toggleAudio, toggleVideo } from './engine';
import { getCallState } from './store';
import CallLayer from './components/CallLayer';
import CallButtons from './components/CallButtons';
import { callDuration } from './components/CallTimer';

const MEETING = '0193a000-0000-7000-8000-0000000000a1';
const CONV = '0193a000-0000-7000-8000-0000000000c1';
const LOAD = '33333333-3333-4333-8333-333333333333';
const THEM = '22222222-2222-4222-8222-222222222222';

const call = (over: Partial<CallWithIce> = {}): CallWithIce => ({
  meetingId: MEETING,
  conversationId: CONV,
  loadId: LOAD,
  referenceId: 'LD-001305',
  type: 'AudioCall',
  status: 'ringing',
  isReceiver: false,
  counterpart: { userId: THEM, companyName: 'Qassim Haulage' },
  callerDeviceId: null,
  answeredDeviceId: null,
  createdAt: new Date().toISOString(),
  answeredAt: null,
  endedAt: null,
  endReason: null,
  ringsUntil: new Date(Date.now() + 45_000).toISOString(),
  iceServers: [{ urls: ['stun:stun.test:3478'] }],
  ...over,
});
const message = (event: CallMessage['event'], deviceId: string | null = null): CallMessage => ({
  v: 1,
  kind: 'call',
  event,
  meetingId: MEETING,
  conversationId: CONV,
  loadId: LOAD,
  type: 'AudioCall',
  callerId: THEM,
  deviceId,
  at: new Date().toISOString(),
});
const signal = (s: CallSignalMessage['signal'], payload: unknown): CallSignalMessage => ({
  v: 1,
  kind: 'call-signal',
  meetingId: MEETING,
  from: THEM,
  signal: s,
  payload: JSON.stringify(payload),
  at: new Date().toISOString(),
});

/** A fake RTCPeerConnection: records what the engine does with it. */
class FakePeer {
  static last: FakePeer | null = null;
  config: RTCConfiguration;
  tracks: MediaStreamTrack[] = [];
  remoteDescription: RTCSessionDescriptionInit | null = null;
  localDescription: RTCSessionDescriptionInit | null = null;
  candidates: RTCIceCandidateInit[] = [];
  closed = false;
  connectionState: RTCPeerConnectionState = 'new';
  onicecandidate: ((e: { candidate: unknown }) => void) | null = null;
  ontrack: unknown = null;
  onconnectionstatechange: (() => void) | null = null;
  constructor(config: RTCConfiguration) {
    this.config = config;
    FakePeer.last = this;
  }
  addTrack(t: MediaStreamTrack) {
    this.tracks.push(t);
  }
  createOffer = async () => ({ type: 'offer' as const, sdp: 'offer-sdp' });
  createAnswer = async () => ({ type: 'answer' as const, sdp: 'answer-sdp' });
  async setLocalDescription(d: RTCSessionDescriptionInit) {
    this.localDescription = d;
  }
  async setRemoteDescription(d: RTCSessionDescriptionInit) {
    this.remoteDescription = d;
  }
  async addIceCandidate(c: RTCIceCandidateInit) {
    this.candidates.push(c);
  }
  close() {
    this.closed = true;
  }
  /** The browser reports a state change. */
  becomes(s: RTCPeerConnectionState) {
    this.connectionState = s;
    this.onconnectionstatechange?.();
  }
}

const track = (kind: 'audio' | 'video') => ({ kind, enabled: true, stop: vi.fn() }) as unknown as MediaStreamTrack;
const stream = (video: boolean) => {
  const tracks = [track('audio'), ...(video ? [track('video')] : [])];
  return {
    getTracks: () => tracks,
    getAudioTracks: () => tracks.filter((t) => t.kind === 'audio'),
    getVideoTracks: () => tracks.filter((t) => t.kind === 'video'),
  } as unknown as MediaStream;
};

let api: {
  create: ReturnType<typeof vi.fn>;
  accept: ReturnType<typeof vi.fn>;
  leave: ReturnType<typeof vi.fn>;
  get: ReturnType<typeof vi.fn>;
  signal: ReturnType<typeof vi.fn>;
};
let getUserMedia: ReturnType<typeof vi.fn>;
let stopRing: ReturnType<typeof vi.fn>;
let startRing: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  await loadNamespaces(['calls'], 'en');
  await loadNamespaces(['calls'], 'ar');
  api = {
    create: vi.fn(async () => call()),
    accept: vi.fn(async () => call({ status: 'active', isReceiver: true })),
    leave: vi.fn(async () => call({ status: 'ended' }) as Call),
    get: vi.fn(async () => call({ isReceiver: true }) as Call),
    signal: vi.fn(async () => ({ relayed: true })),
  };
  getUserMedia = vi.fn(async (c: MediaStreamConstraints) => stream(Boolean(c.video)));
  stopRing = vi.fn();
  startRing = vi.fn(() => stopRing);
  setCallDeps({
    api: api as unknown as CallDeps['api'],
    createPeer: (c) => new FakePeer(c) as unknown as RTCPeerConnection,
    getUserMedia: getUserMedia as unknown as CallDeps['getUserMedia'],
    startRing: startRing as unknown as CallDeps['startRing'],
    deviceId: 'tab-A',
    now: () => 1_000,
  });
});
afterEach(async () => {
  cleanup();
  resetCallEngine();
  FakePeer.last = null;
  await i18n.changeLanguage('en');
});

describe('the caller', () => {
  it('asks for the microphone on the click, rings, and on joinRequestAccept is connected and sends the offer; the answer is applied', async () => {
    expect(await startCall({ conversationId: CONV, loadId: LOAD, type: 'AudioCall', counterpartId: THEM, counterpartName: 'Qassim Haulage' })).toBeNull();
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true, video: false });
    expect(api.create).toHaveBeenCalledWith(CONV, 'AudioCall', 'tab-A');
    expect(getCallState()).toMatchObject({
      isOpen: true,
      type: 'AudioCall',
      loadId: LOAD,
      isConnecting: true,
      isConnected: false,
      phase: 'outgoing',
      localAudio: true,
      localVideo: false,
      receiverDetails: { callerName: 'Qassim Haulage', isReceiver: false, meetingId: MEETING },
    });
    expect(FakePeer.last).toBeNull();

    await onCallMessage(message('joinRequestAccept', 'tab-B'));
    expect(getCallState()).toMatchObject({ isConnected: true, isConnecting: false, startedAt: 1_000, phase: 'connected' });
    const peer = FakePeer.last!;
    expect(peer.config.iceServers).toEqual([{ urls: ['stun:stun.test:3478'], username: undefined, credential: undefined }]);
    expect(peer.tracks).toHaveLength(1);
    expect(api.signal).toHaveBeenCalledWith(MEETING, 'offer', JSON.stringify({ type: 'offer', sdp: 'offer-sdp' }));

    // a candidate before the answer waits for it
    await onCallSignal(signal('candidate', { candidate: 'c1' }));
    expect(peer.candidates).toEqual([]);
    await onCallSignal(signal('answer', { type: 'answer', sdp: 'answer-sdp' }));
    expect(peer.remoteDescription).toEqual({ type: 'answer', sdp: 'answer-sdp' });
    expect(peer.candidates).toEqual([{ candidate: 'c1' }]);
    // a signal of another meeting is not mine
    await onCallSignal({ ...signal('candidate', { candidate: 'x' }), meetingId: CONV });
    expect(peer.candidates).toHaveLength(1);

    peer.becomes('connected');
    expect(getCallState().peerState).toBe('connected');
    // the other side leaves: the call resets (spec §4)
    await onCallMessage(message('memberLeave'));
    expect(getCallState()).toMatchObject({ isOpen: false, phase: 'idle', receiverDetails: null });
    expect(peer.closed).toBe(true);
  });

  it('a refused call answers the code (the button says why) and rings nobody', async () => {
    api.create.mockRejectedValueOnce(new ApiError(403, 'CALL_NOT_ALLOWED', 'This user does not accept this kind of call from you.'));
    expect(await startCall({ conversationId: CONV, loadId: LOAD, type: 'VideoCall', counterpartId: THEM, counterpartName: 'Q' })).toBe('CALL_NOT_ALLOWED');
    expect(getCallState()).toMatchObject({ isOpen: false, phase: 'idle', notice: 'This user does not accept this kind of call from you.' });
  });

  it('the audio button turns off with the reason after a refusal', async () => {
    api.create.mockRejectedValueOnce(new ApiError(403, 'CALL_NOT_ALLOWED', 'Not from you.'));
    renderWithApp(<CallButtons conversationId={CONV} loadId={LOAD} counterpartId={THEM} counterpartName="Q" />);
    const audio = screen.getByRole('button', { name: 'Audio call' });
    await userEvent.click(audio);
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('call-audio').disabled).toBe(true));
    expect(screen.getByTestId('call-audio').getAttribute('aria-label')).toBe('Audio call: Not from you.');
    expect(screen.getByTestId<HTMLButtonElement>('call-video').disabled).toBe(false);
  });
});

describe('the callee', () => {
  it('meetingCreated opens the incoming call (connecting, audio on, video only for a video call) and rings; accept answers the offer', async () => {
    api.get.mockResolvedValueOnce(call({ isReceiver: true, type: 'VideoCall' }));
    await onCallMessage(message('meetingCreated'));
    expect(getCallState()).toMatchObject({
      isOpen: true,
      type: 'VideoCall',
      phase: 'incoming',
      isConnecting: true,
      localAudio: true,
      localVideo: true,
      receiverDetails: { callerName: 'Qassim Haulage', isReceiver: true, meetingId: MEETING },
    });
    expect(startRing).toHaveBeenCalledTimes(1);
    // the offer may come before the accept's answer: it waits for the connection
    const accepted = acceptCall();
    await onCallSignal(signal('offer', { type: 'offer', sdp: 'offer-sdp' }));
    await accepted;
    expect(stopRing).toHaveBeenCalled();
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true, video: true });
    expect(api.accept).toHaveBeenCalledWith(MEETING, 'tab-A');
    expect(getCallState()).toMatchObject({ phase: 'connected', isConnected: true, startedAt: 1_000 });
    const peer = FakePeer.last!;
    expect(peer.remoteDescription).toEqual({ type: 'offer', sdp: 'offer-sdp' });
    expect(api.signal).toHaveBeenCalledWith(MEETING, 'answer', JSON.stringify({ type: 'answer', sdp: 'answer-sdp' }));

    toggleAudio();
    toggleVideo();
    expect(getCallState()).toMatchObject({ localAudio: false, localVideo: false });
    const s = getCallState().localStream!;
    expect(s.getAudioTracks()[0].enabled).toBe(false);
    expect(s.getVideoTracks()[0].enabled).toBe(false);

    await leaveCall();
    expect(api.leave).toHaveBeenCalledWith(MEETING);
    expect(getCallState().phase).toBe('idle');
    expect(s.getTracks().every((t) => (t.stop as ReturnType<typeof vi.fn>).mock.calls.length === 1)).toBe(true);
  });

  it('a call the caller made (not the receiver) does not ring here; answered on another tab stops ringing', async () => {
    api.get.mockResolvedValueOnce(call({ isReceiver: false }));
    await onCallMessage(message('meetingCreated'));
    expect(getCallState().phase).toBe('idle');
    await onCallMessage(message('meetingCreated'));
    expect(getCallState().phase).toBe('incoming');
    await onCallMessage(message('joinRequestAccept', 'another-tab'));
    expect(getCallState().phase).toBe('idle');
    expect(stopRing).toHaveBeenCalled();
  });
});

describe('the call window', () => {
  it('says why my outgoing call ended (issue 48): declined and no answer in Arabic, busy and a failed connection in English; Close clears it', async () => {
    await i18n.changeLanguage('ar');
    renderWithApp(<CallLayer />, { dir: 'rtl' });
    const ring = () =>
      act(
        async () => void (await startCall({ conversationId: CONV, loadId: LOAD, type: 'AudioCall', counterpartId: THEM, counterpartName: 'Qassim Haulage' })),
      );
    const words = () => screen.getByTestId('call-ended-message').textContent;
    await ring();
    await act(() => onCallMessage(message('memberLeave')));
    expect(screen.getByTestId('call-window').getAttribute('data-reason')).toBe('declined');
    expect(words()).toBe('رفض Qassim Haulage المكالمة.');
    expect(getCallState()).toMatchObject({ phase: 'idle', isOpen: false });
    // a new call clears the words
    await ring();
    expect(screen.getByTestId('call-window').getAttribute('data-phase')).toBe('outgoing');
    await act(() => onCallMessage(message('meetingEndedDueToNoUserPublishing')));
    expect(words()).toBe('لم يُجب Qassim Haulage.');
    await userEvent.click(screen.getByTestId('call-ended-close'));
    await waitFor(() => expect(screen.queryByTestId('call-window')).toBeNull());

    await act(() => i18n.changeLanguage('en'));
    api.create.mockRejectedValueOnce(new ApiError(409, 'CALL_BUSY', 'Busy.'));
    await ring();
    expect(words()).toBe('Qassim Haulage is on another call. Try again later.');
    await userEvent.click(screen.getByTestId('call-ended-close'));
    await ring();
    await act(() => onCallMessage(message('joinRequestAccept', 'tab-B')));
    act(() => FakePeer.last!.becomes('failed'));
    expect(words()).toBe('The call could not connect. Check your connection and try again.');
    expect(api.leave).toHaveBeenCalledWith(MEETING);
    // my own hang-up and the other side's after an answer close the window without words
    await userEvent.click(screen.getByTestId('call-ended-close'));
    await ring();
    await act(() => onCallMessage(message('joinRequestAccept', 'tab-B')));
    await act(() => onCallMessage(message('memberLeave')));
    expect(screen.queryByTestId('call-window')).toBeNull();
  });

  it('shows the incoming dialog in Arabic with accept and decline; decline leaves the call', async () => {
    await i18n.changeLanguage('ar');
    renderWithApp(<CallLayer />, { dir: 'rtl' });
    await act(() => onCallMessage(message('meetingCreated')));
    const dialog = await screen.findByRole('dialog', { name: 'مكالمة صوتية واردة' });
    expect(dialog.textContent).toContain('Qassim Haulage');
    expect((await screen.findByTestId('call-accept')).textContent).toBe('قبول');
    expect(screen.getByTestId('call-decline').textContent).toBe('رفض');
    await userEvent.click(screen.getByTestId('call-decline'));
    expect(api.leave).toHaveBeenCalledWith(MEETING);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('connected: timer, mute, minimise to a bar and maximise, hang up', async () => {
    renderWithApp(<CallLayer />);
    await act(async () => {
      await startCall({ conversationId: CONV, loadId: LOAD, type: 'AudioCall', counterpartId: THEM, counterpartName: 'Q' });
    });
    expect(screen.getByTestId('call-window').getAttribute('data-phase')).toBe('outgoing');
    expect(screen.getByTestId('call-status').textContent).toBe('Calling…');
    await act(() => onCallMessage(message('joinRequestAccept', 'tab-B')));
    act(() => FakePeer.last!.becomes('connected'));
    expect(screen.getByTestId('call-window').getAttribute('data-peer-state')).toBe('connected');
    expect(screen.getByTestId('call-timer')).toBeTruthy();
    const mute = screen.getByTestId('call-mute');
    expect(mute.getAttribute('aria-label')).toBe('Mute microphone');
    await userEvent.click(mute);
    expect(screen.getByTestId('call-mute').getAttribute('aria-label')).toBe('Unmute microphone');
    expect(screen.getByTestId('call-mute').getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByTestId('call-minimise'));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Audio call' })).toBeTruthy());
    await userEvent.click(screen.getByTestId('call-maximise'));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Audio call' })).toBeNull());
    await userEvent.click(screen.getByTestId('call-hangup'));
    expect(api.leave).toHaveBeenCalledWith(MEETING);
    await waitFor(() => expect(screen.queryByTestId('call-window')).toBeNull());
  });

  it('the timer reads mm:ss in the reader’s digits', async () => {
    expect(callDuration(65_000, 'en')).toBe('01:05');
    expect(callDuration(3_725_000, 'en')).toBe('1:02:05');
    expect(callDuration(65_000, 'ar')).toBe('٠١:٠٥');
  });
});
