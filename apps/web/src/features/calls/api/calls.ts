import type { CallType } from '@masar/shared';
import { idempotent, masar, unwrap } from '../../../lib/api';

/** The calls endpoints (issue 21; spec §7 /meetings/v1/*): plain functions, the call engine calls them. */
const newKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `${Date.now()}-${Math.random()}`);

/* eslint-disable no-restricted-syntax -- the call engine's writes run from real-time messages and WebRTC callbacks outside React (an offer, a candidate, a hang-up when the tab closes): no form and no busy state; the call store is the state */
export const callsApi = {
  create: (conversationId: string, type: CallType, deviceId: string) =>
    unwrap(masar.POST('/api/v1/meetings/v1/meeting', { body: { conversationId, type, deviceId }, headers: idempotent(newKey()) })),
  accept: (meetingId: string, deviceId: string) => unwrap(masar.POST('/api/v1/meetings/v1/accept', { body: { meetingId, deviceId } })),
  leave: (meetingId: string) => unwrap(masar.DELETE('/api/v1/meetings/v1/leave', { params: { query: { meetingId } } })),
  get: (meetingId: string) => unwrap(masar.GET('/api/v1/meetings/v1/meeting/{meetingId}', { params: { path: { meetingId } } })),
  signal: (meetingId: string, kind: 'offer' | 'answer' | 'candidate', payload: string) =>
    unwrap(masar.POST('/api/v1/meetings/v1/signal', { body: { meetingId, kind, payload } })),
};
/* eslint-enable no-restricted-syntax */
export type CallsApi = typeof callsApi;
