import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CallMessage, CallSignalMessage, RealtimeMessage } from '@masar/shared';
import { loadNamespaces } from '../../i18n';
import { startRealtime } from '../../lib/realtime';
import { PROFILE_QUERY_KEY, tokenManager, useSession } from '../../lib/session';

/** What a message of each aggregate may have changed on screen: query key prefixes (only mounted queries refetch). */
const LOAD_KEYS = [['load'], ['myLoads'], ['offers'], ['tenders'], ['load-tracking'], ['assignment'], ['godsview'], ['dashboard']] as const;
const ACCOUNT_KEYS = [PROFILE_QUERY_KEY, ['account'], ['billing'], ['fleet'], ['trucks'], ['dashboard']] as const;
/** A chat conversation (issue 21): a new message or a read receipt — the panel, the thread and the header count. */
const CONVERSATION_KEYS = [['chat']] as const;

/** Re-read what a real-time hint names (docs/realtime.md): the bell always, then by aggregate. */
export function applyRealtimeMessage(qc: QueryClient, m: RealtimeMessage): void {
  void qc.invalidateQueries({ queryKey: ['notifications'] });
  const keys = m.aggregateType === 'load' ? LOAD_KEYS : m.aggregateType === 'conversation' ? CONVERSATION_KEYS : ACCOUNT_KEYS;
  for (const key of keys) void qc.invalidateQueries({ queryKey: [...key] });
}

/** The calls feature, loaded with the first call message (its own chunk); messages keep their order. */
let calls: Promise<typeof import('../../features/calls')> | null = null;
function toCalls(m: CallMessage | CallSignalMessage) {
  calls ??= Promise.all([import('../../features/calls'), loadNamespaces(['calls'])]).then(([mod]) => mod);
  void calls.then((c) => (m.kind === 'call' ? c.onCallMessage(m) : c.onCallSignal(m))).catch(() => undefined);
}

/**
 * The signed-in tab's real-time connection (issue 21; spec §4 server-pushed updates): account
 * events refresh the profile, which opens the approved dialog, the status banner, or — answered
 * ACCOUNT_SUSPENDED / ACCOUNT_DELETED — the blocked dialog and logout. Renders nothing.
 */
export function RealtimeBridge() {
  const { uid, profile, refreshProfile } = useSession();
  const qc = useQueryClient();
  const topic = profile?.mqttTopic;
  useEffect(() => {
    if (!uid || !topic) return;
    return startRealtime({
      uid,
      topic,
      token: () => tokenManager.getAccessToken(),
      onMessage: (m) => applyRealtimeMessage(qc, m),
      // calls (issue 21): the spec's call events and the WebRTC signalling
      onCall: toCalls,
      // messages sent while away are not kept: re-read what is on screen
      onResync: () => void qc.invalidateQueries(),
      // an expired token: the profile read goes through the API client, which refreshes it
      onAuthRefused: refreshProfile,
    });
  }, [uid, topic, qc, refreshProfile]);
  return null;
}
